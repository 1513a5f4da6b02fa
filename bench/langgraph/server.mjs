// The book_flight reference flow (bench/book_flight.yaml) as a LangGraph.js
// graph with a MemorySaver checkpointer, behind node:http with soni serve's
// endpoint shape: POST /v1/sessions/{id}/messages {"text"} answers
// {"replies": [...]}. One invocation per message, the thread id being the
// session, as a LangGraph server runs one run per thread.
import http from "node:http";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";

const last = (a, b) => (b === undefined ? a : b);
const State = Annotation.Root({
  text: Annotation({ reducer: last, default: () => "" }),
  active: Annotation({ reducer: last, default: () => false }),
  origin: Annotation({ reducer: last, default: () => null }),
  destination: Annotation({ reducer: last, default: () => null }),
  date: Annotation({ reducer: last, default: () => null }),
  price: Annotation({ reducer: last, default: () => null }),
  replies: Annotation({ reducer: last, default: () => [] }),
});

const route = (s) => {
  if (!s.active) return s.text.trim().toLowerCase() === "book a flight" ? "ask_origin" : "idle";
  if (s.origin === null) return "ask_destination";
  if (s.destination === null) return "ask_date";
  return "found";
};

const graph = new StateGraph(State)
  .addNode("ask_origin", () => ({ active: true, origin: null, destination: null, date: null, price: null, replies: ["Welcome", "Where from?"] }))
  .addNode("idle", () => ({ replies: ["How can I help?"] }))
  .addNode("ask_destination", (s) => ({ origin: s.text.trim(), replies: ["Where to?"] }))
  .addNode("ask_date", (s) => ({ destination: s.text.trim(), replies: ["What date?"] }))
  .addNode("found", (s) => {
    const price = 156;
    return {
      date: s.text.trim(), price, active: false,
      replies: [`Found a flight from ${s.origin} to ${s.destination} on ${s.text.trim()} for ${price}`],
    };
  })
  .addConditionalEdges(START, route, ["ask_origin", "idle", "ask_destination", "ask_date", "found"])
  .addEdge("ask_origin", END).addEdge("idle", END).addEdge("ask_destination", END).addEdge("ask_date", END).addEdge("found", END)
  .compile({ checkpointer: new MemorySaver() });

const path = /^\/v1\/sessions\/([A-Za-z0-9._-]{1,128})\/messages$/;

const server = http.createServer(async (req, res) => {
  const m = req.method === "POST" && path.exec(req.url);
  if (!m) {
    res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":{"code":"not_found"}}');
    return;
  }
  let body = "";
  for await (const chunk of req) body += chunk;
  try {
    const { text } = JSON.parse(body);
    const out = await graph.invoke({ text }, { configurable: { thread_id: m[1] } });
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ session: m[1], replies: out.replies }));
  } catch (e) {
    res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { code: "bad_request", message: String(e) } }));
  }
});

server.listen(Number(process.env.PORT || 0), "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
