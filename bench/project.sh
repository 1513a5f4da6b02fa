#!/usr/bin/env bash
# Writes a generated project of N flows, one file each, and a domain file
# with their slots, actions and responses, for timing `soni validate` on a
# project of realistic size (docs/performance.md, "What a user waits
# for"). Each flow collects two slots, branches on an expression, says a
# template, runs an action with map_outputs and on_error, says a response
# and links to the next flow: the shape of the language server's
# benchmark project (lsp/bench_test.go). The project validates with no
# problem.
#
#   bench/project.sh [N] DIR     # default N 50
#   soni validate DIR
set -euo pipefail
if [ $# -eq 1 ]; then
  N=50 DIR=$1
elif [ $# -eq 2 ]; then
  N=$1 DIR=$2
else
  echo "usage: bench/project.sh [N] DIR" >&2
  exit 2
fi
case $N in '' | *[!0-9]* | 0) echo "bench/project.sh: N must be a positive number, not \"$N\"" >&2; exit 2 ;; esac
if [ -e "$DIR" ] && [ -n "$(ls -A "$DIR")" ]; then
  echo "bench/project.sh: $DIR is not empty; give a new directory" >&2
  exit 2
fi
mkdir -p "$DIR"

{
  echo 'version: "1.0"'
  echo 'slots:'
  for ((i = 0; i < N; i++)); do
    cat <<SLOT
  city_$i:
    type: categorical
    values: [madrid, paris, rome]
  nights_$i:
    type: integer
    min: 1
SLOT
  done
  echo 'actions:'
  for ((i = 0; i < N; i++)); do
    cat <<ACTION
  book_$i:
    description: Book trip $i
    inputs: [city_$i, nights_$i]
    outputs: [reference]
    run:
      http:
        url: http://127.0.0.1:5081/book
ACTION
  done
  echo 'responses:'
  for ((i = 0; i < N; i++)); do
    cat <<RESPONSE
  utter_booked_$i:
    - text: "Booked {nights_$i} nights in {city_$i}."
RESPONSE
  done
} > "$DIR/domain.yaml"

for ((i = 0; i < N; i++)); do
  next=$(((i + 1) % N))
  cat > "$DIR/flow_$i.yaml" <<FLOW
version: "1.0"
flows:
  trip_$i:
    description: Book trip $i
    trigger:
      intents: ["book trip $i", "I want trip $i"]
    slots:
      - name: reference
        type: text
    steps:
      - step: ask_city
        type: collect
        slot: city_$i  # soni:ignore W017
        message: "Which city?"
      - step: ask_nights
        type: collect
        slot: nights_$i  # soni:ignore W017
        message: "How many nights in {city_$i}?"
      - step: check
        type: branch
        evaluate: city_$i == 'rome' && nights_$i > 2
        cases:
          "true": book
      - step: confirm
        type: say
        message: "Only {nights_$i} nights, then."
      - step: book
        type: action
        call: book_$i
        map_outputs:
          reference: reference
        on_error: failed
      - step: done
        type: say
        response: utter_booked_$i
      - step: next
        type: link
        target: trip_$next
      - step: failed
        type: say
        message: "That did not work, sorry."
FLOW
done
