#!/usr/bin/env bash
# The load benchmark of docs/performance.md, in one run: soni serve on each
# store and the same flow as a LangGraph.js graph behind node:http, each
# loaded over loopback HTTP by soni bench with 16 conversations in flight
# (bench/book_flight.yaml: four turns a conversation). Needs Go and node;
# installs the LangGraph.js packages with npm under bench/langgraph (not in
# the Go module) and starts a throwaway PostgreSQL (scripts/postgres.sh)
# unless SONI_TEST_POSTGRES is set.
#
#   bench/run.sh [DURATION]      # default 10s per server
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10s}
TMP=$(mktemp -d)
cleanup() {
  [ -n "${LG_PID:-}" ] && kill "$LG_PID" 2>/dev/null || true
  [ -n "${PGDIR:-}" ] && scripts/postgres.sh stop "$PGDIR"
  rm -rf "$TMP"
}
trap cleanup EXIT

go build -o "$TMP/soni" ./cmd/soni
(cd bench/langgraph && npm ci --no-audit --no-fund --silent)

if [ -z "${SONI_TEST_POSTGRES:-}" ]; then
  SONI_TEST_POSTGRES=$(scripts/postgres.sh)
  PGDIR=$(printf '%s' "$SONI_TEST_POSTGRES" | sed -n 's/.*host=\([^&]*\).*/\1/p')
fi

node bench/langgraph/server.mjs > "$TMP/lg.out" &
LG_PID=$!
while ! grep -q listening "$TMP/lg.out" 2>/dev/null; do
  kill -0 "$LG_PID" || { cat "$TMP/lg.out"; exit 1; }
  sleep 0.1
done
LG_URL=$(sed -n 's/listening on //p' "$TMP/lg.out")

rate() { sed -n 's/.*: \([0-9]*\) turns\/s.*/\1/p'; }
run() {
  local name=$1; shift
  local out
  out=$("$TMP/soni" bench --duration "$DURATION" "$@")
  printf '%-12s %s\n' "$name" "$out" >&2
  printf '%s' "$out" | rate
}
echo "soni bench, 16 conversations in flight, $DURATION each, $(nproc) cores"
MEM=$(run memory --store memory: bench/book_flight.yaml)
run file --store "file:$TMP/cps" bench/book_flight.yaml > /dev/null
run sqlite --store "sqlite:$TMP/soni.db" bench/book_flight.yaml > /dev/null
run postgres --store "$SONI_TEST_POSTGRES" bench/book_flight.yaml > /dev/null
LG=$(run langgraph.js --url "$LG_URL")
echo "ratio memory / langgraph.js: $(awk "BEGIN { printf \"%.1f\", $MEM / $LG }")x"
