// The book_flight reference flow (bench/book_flight.yaml) as a LangGraph.js
// graph with a MemorySaver checkpointer, behind node:http with soni serve's
// endpoint shape: POST /v1/sessions/{id}/messages {"text"} answers
// {"replies": [...]}. One invocation per message, the thread id being the
// session, as a LangGraph server runs one run per thread.
import http from "node:http";
import { graph as compile } from "./graph.mjs";

const graph = compile();

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
