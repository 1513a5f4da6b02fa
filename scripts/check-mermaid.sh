#!/usr/bin/env bash
# Parses the mermaid diagrams soni graph draws for the example projects with
# mermaid's own parser (mermaid 11 on Node.js, with jsdom standing in for a
# browser). Needs node and npm; not part of CI, which keeps goldens instead.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for p in banking travel support; do
  go run ./cmd/soni graph "flows/$p" > "$work/$p.mmd"
done
cd "$work"
npm install --silent --no-audit --no-fund mermaid@11 jsdom@24 >/dev/null
cat > check.mjs <<'JS'
import { JSDOM } from 'jsdom';
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const fs = await import('fs');
const mermaid = (await import('mermaid')).default;
mermaid.initialize({ startOnLoad: false });
for (const f of process.argv.slice(2)) {
  try {
    await mermaid.parse(fs.readFileSync(f, 'utf8'));
    console.log(`${f}: ok`);
  } catch (e) {
    console.log(`${f}: ${e.message}`);
    process.exitCode = 1;
  }
}
JS
node check.mjs banking.mmd travel.mmd support.mmd
