#!/usr/bin/env bash
# Measures understanding on Rasa CALM assistants soni was never tuned on
# (docs/understanding.md, "Assistants soni has not seen"). It clones each
# assistant at a fixed commit, imports it with soni import rasa into
# /tmp/soni-unseen/NAME, and runs evals/unseen/NAME.eval.yaml, whose
# messages are our own. Not part of CI: it needs GitHub. Set
# SONI_UNSEEN_SRC=DIR to use clones already in DIR/NAME instead.
# Extra arguments go to soni eval (--understanding hybrid --oracle ...);
# without --understanding the rules are measured.
set -euo pipefail
cd "$(dirname "$0")/.."
out=/tmp/soni-unseen
mkdir -p "$out"
go build -o "$out/soni" ./cmd/soni
# name, repository, commit, the assistant's directory inside it.
while read -r name repo commit sub; do
  src="${SONI_UNSEEN_SRC:-$out/src}/$name"
  if [ ! -d "$src/.git" ]; then
    git clone --quiet "https://github.com/$repo" "$src"
  fi
  git -C "$src" checkout --quiet "$commit"
  rm -rf "${out:?}/$name"
  "$out/soni" import rasa "$src/$sub" -o "$out/$name" >/dev/null
done <<'LIST'
car_purchase RasaHQ/workshop-car-purchase-assistant 9be469cbe06bf7687624df098716f166c540f9ea .
summit_banking RasaHQ/calm-summit-masterclass-assistant 93533dd3edeb2730f11d67f63eec224c81b5392a .
swiss_travel RasaHQ/calm-langgraph-customer-service-comparison 38d0383389c4eccc1ed7b575c3a9742ca30d7b7d calm_llm
insurance_claims rasa-customers/starterpack-insurance-en 6d6c3ba50b3de2192fb42c140c4f5d5ca19faa53 .
telco_support rasa-customers/starterpack-telco-en ddf67115e490a591ee38facc14d88338f881c52b .
retail_banking rasa-customers/starterpack-retail-banking-en 96c3fb318f5e1cfce7095d98b658b11fd93f9369 .
help_desk rasa-customers/rasa-ws-msg-uc01-help-desk 6a689ba4e108e539930cfd55bf8d2ec45b37051d .
LIST
# Some imports carry their project's model settings, which would make a
# plain soni eval run hybrid against a model this machine cannot reach:
# the rules are measured unless the arguments name a mode.
mode=(--understanding rules)
for a in "$@"; do [[ $a == --understanding* ]] && mode=(); done
"$out/soni" eval "${mode[@]}" "$@" evals/unseen/*.eval.yaml
