#!/usr/bin/env bash
# The turn-loop comparison of docs/performance.md, in one run: soni test on
# N conversations of the book_flight reference flow (bench/book_flight.yaml,
# four turns each, every reply checked) against the same conversations run
# in a loop through the flow as a LangGraph.js graph with a MemorySaver
# checkpointer (bench/langgraph/loop.mjs). Both are timed as whole
# processes, start-up included, alternately, and the ratios of the medians
# (wall time and CPU time) are printed. Needs Go and node; installs the
# LangGraph.js packages with npm under bench/langgraph (not in the Go
# module).
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

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
# Each run appends "wall user sys" in seconds (bash's time keyword, which
# counts the command's own CPU time, its children's included). The CPU time
# (user + sys) is the figure to compare on a shared machine: waiting for a
# core inflates the wall time of both, and not in the same proportion.
TIMEFORMAT='%R %U %S'
: > "$TMP/soni.t"
: > "$TMP/lg.t"
echo "$((4 * N)) turns, $RUNS alternating runs each, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < RUNS; r++)); do
  { time "$TMP/soni" test "$TMP/loop_test.yaml" > "$TMP/soni.out"; } 2>> "$TMP/soni.t"
  grep -q "^$N passed, 0 failed$" "$TMP/soni.out" || { cat "$TMP/soni.out"; exit 1; }
  { time node bench/langgraph/loop.mjs "$N" > /dev/null; } 2>> "$TMP/lg.t"
done
wall() { awk '{printf "%d\n", $1 * 1000}' "$1"; }
cpu() { awk '{printf "%d\n", ($2 + $3) * 1000}' "$1"; }
SW=$(wall "$TMP/soni.t" | median)
LW=$(wall "$TMP/lg.t" | median)
SC=$(cpu "$TMP/soni.t" | median)
LC=$(cpu "$TMP/lg.t" | median)
echo "soni test:            wall median $SW ms ($(wall "$TMP/soni.t" | tr '\n' ' ')ms), CPU median $SC ms ($(cpu "$TMP/soni.t" | tr '\n' ' ')ms)"
echo "LangGraph.js loop:    wall median $LW ms ($(wall "$TMP/lg.t" | tr '\n' ' ')ms), CPU median $LC ms ($(cpu "$TMP/lg.t" | tr '\n' ' ')ms)"
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ratio LangGraph.js / soni test: $(awk "BEGIN { printf \"%.0f\", $LW / $SW }")x wall, $(awk "BEGIN { printf \"%.0f\", $LC / $SC }")x CPU"
