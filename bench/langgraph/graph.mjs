// The book_flight reference flow (bench/book_flight.yaml) as a LangGraph.js
// graph with a MemorySaver checkpointer: graph() compiles a new one. The
// server (server.mjs) and the turn loop (loop.mjs) share it.
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

export const graph = () => new StateGraph(State)
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

