// The turn loop of the book_flight reference flow in LangGraph.js, the
// counterpart of soni test on the same conversations (bench/loop.sh): N
// conversations of four turns each, one graph invocation per turn with the
// conversation as its thread, in one process, checking every reply.
//
//   node bench/langgraph/loop.mjs [CONVERSATIONS]   # default 2000
import { graph as compile } from "./graph.mjs";

const n = Number(process.argv[2] || 2000);
const graph = compile();
const turns = [
  ["book a flight", "Where from?"],
  ["Madrid", "Where to?"],
  ["Lisbon", "What date?"],
  ["2027-03-05", "Found a flight from Madrid to Lisbon on 2027-03-05 for 156"],
];
const start = process.hrtime.bigint();
for (let c = 0; c < n; c++) {
  const config = { configurable: { thread_id: `c${c}` } };
  for (const [text, want] of turns) {
    const out = await graph.invoke({ text }, config);
    if (out.replies[out.replies.length - 1] !== want) {
      console.error(`conversation ${c}: ${JSON.stringify(text)} got ${JSON.stringify(out.replies)}, want ${JSON.stringify(want)}`);
      process.exit(1);
    }
  }
}
const ms = Number(process.hrtime.bigint() - start) / 1e6;
console.log(`${n * turns.length} turns in ${ms.toFixed(0)} ms: ${((n * turns.length) / (ms / 1000)).toFixed(0)} turns/s`);
