#!/usr/bin/env bash
# The turn-loop comparison of docs/performance.md, in one run: soni test on
# N conversations of the book_flight reference flow (bench/book_flight.yaml,
# four turns each, every reply checked) against the same conversations run
# in a loop through the flow as a LangGraph.js graph with a MemorySaver
# checkpointer (bench/langgraph/loop.mjs). Both are timed as whole
# processes, start-up included, alternately, and the ratio of the medians
# is printed. Needs Go and node; installs the LangGraph.js packages with npm
# under bench/langgraph (not in the Go module).
#
#   bench/loop.sh [CONVERSATIONS] [RUNS]     # default 2000 (8,000 turns), 3
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
RUNS=${2:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

go build -o "$TMP/soni" ./cmd/soni
[ -d bench/langgraph/node_modules ] || (cd bench/langgraph && npm ci --no-audit --no-fund --silent)

# N test cases, each the four-turn conversation with its replies.
{
  echo "flows: $PWD/bench/book_flight.yaml"
  echo "test_cases:"
  for ((i = 0; i < N; i++)); do
    cat <<CASE
  - test_case: c$i
    steps:
      - user: book a flight
      - bot: Welcome
      - bot: Where from?
      - user: Madrid
      - bot: Where to?
      - user: Lisbon
      - bot: What date?
      - user: "2027-03-05"
      - bot: Found a flight from Madrid to Lisbon on 2027-03-05 for 156
CASE
  done
} > "$TMP/loop_test.yaml"

ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
: > "$TMP/soni.ms"
: > "$TMP/lg.ms"
echo "$((4 * N)) turns, $RUNS alternating runs each, $(nproc) cores"
for ((r = 0; r < RUNS; r++)); do
  t0=$(ms); "$TMP/soni" test "$TMP/loop_test.yaml" > "$TMP/soni.out"; t1=$(ms)
  echo $((t1 - t0)) >> "$TMP/soni.ms"
  grep -q "^$N passed, 0 failed$" "$TMP/soni.out" || { cat "$TMP/soni.out"; exit 1; }
  t0=$(ms); node bench/langgraph/loop.mjs "$N" > /dev/null; t1=$(ms)
  echo $((t1 - t0)) >> "$TMP/lg.ms"
done
S=$(median < "$TMP/soni.ms")
L=$(median < "$TMP/lg.ms")
echo "soni test:            median $S ms ($(tr '\n' ' ' < "$TMP/soni.ms")ms)"
echo "LangGraph.js loop:    median $L ms ($(tr '\n' ' ' < "$TMP/lg.ms")ms)"
echo "ratio LangGraph.js / soni test: $(awk "BEGIN { printf \"%.0f\", $L / $S }")x"
