// soni inspector: talks to soni's public HTTP API only (docs/serve.md,
// docs/inspect.md). No framework and no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  program: null,     // the compiled program (GET /v1/program)
  session: "",
  view: null,        // GET /v1/sessions/{id}, or null before the first turn
  records: [],       // the session's turn records, oldest first
  selected: "",      // the step shown in the detail pane
  busy: false,
};

function token() { return sessionStorage.getItem("soni-token") || ""; }

async function api(path, opts = {}) {
  opts.headers = Object.assign({}, opts.headers || {});
  if (token()) opts.headers["Authorization"] = "Bearer " + token();
  const resp = await fetch(path, opts);
  if (resp.status === 401) {
    $("token-box").hidden = false;
    status("This server needs its API token: type it above, then press Enter.");
    throw new Error("unauthorized");
  }
  return resp;
}

function status(text) { $("status").textContent = text; }

function newID() {
  const a = new Uint8Array(4);
  crypto.getRandomValues(a);
  return "web-" + Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---- program helpers ----
function flowDef(name) { return (ui.program.flows || []).find((f) => f.name === name); }
function slotDef(flow, name) {
  const f = flowDef(flow);
  const own = f && (f.slots || []).find((s) => s.name === name);
  return own || (ui.program.slots || []).find((s) => s.name === name);
}

// ---- state ----
async function loadSessions() {
  const sel = $("session");
  let list = [];
  try {
    const r = await api("/v1/sessions");
    if (r.ok) list = (await r.json()).sessions || [];
  } catch (e) { /* shown by api */ }
  // The API pages by id; the picker shows the most recent first.
  list.sort((a, b) => (b.updated || "").localeCompare(a.updated || "") || a.session.localeCompare(b.session));
  const ids = list.map((s) => s.session);
  if (ui.session && !ids.includes(ui.session)) ids.unshift(ui.session);
  sel.replaceChildren(...ids.map((id) => {
    const o = document.createElement("option");
    o.value = id;
    o.textContent = id;
    return o;
  }));
  sel.value = ui.session;
}

async function refresh() {
  const id = encodeURIComponent(ui.session);
  const [sv, ev] = await Promise.all([api("/v1/sessions/" + id), api("/v1/sessions/" + id + "/events?limit=1000")]);
  ui.view = sv.ok ? await sv.json() : null;
  ui.records = ev.ok ? ((await ev.json()).events || []) : [];
  render();
}

// changedByLastTurn reports whether the last turn changed a slot: a
// conversation slot (flow "") or a slot of that flow, from the value
// before its first slot_set to the value after its last. Comparing the
// slots of two turn records would mark a lower frame's slots as changed
// whenever a flow or a pattern on top of it ends.
function changedByLastTurn(flow, name) {
  const last = ui.records[ui.records.length - 1];
  const sets = ((last && last.events) || []).filter((e) => e.type === "slot_set" && e.slot === name && (flow === "" || e.flow === flow));
  return sets.length > 0 && JSON.stringify(sets[0].old) !== JSON.stringify(sets[sets.length - 1].new);
}

function frames() {
  return ((ui.view && ui.view.stack) || []).map((f) => ({ flow: f.Flow || f.flow, step: f.Step || f.step, slots: f.Slots || f.slots || {} }));
}

function render() {
  renderChat();
  renderState();
  renderGraph();
  renderLog();
  renderButtons();
}

function renderChat() {
  const items = [];
  for (const r of ui.records) {
    const li = document.createElement("li");
    li.className = "user";
    li.textContent = r.text || JSON.stringify(r.given || r.commands);
    items.push(li);
    for (const t of r.replies || []) {
      const b = document.createElement("li");
      b.className = "bot";
      b.textContent = t;
      items.push(b);
    }
  }
  $("messages").replaceChildren(...items);
  $("messages").scrollTop = $("messages").scrollHeight;
}

function renderState() {
  const fs = frames();
  $("stack").replaceChildren(...fs.map((f, i) => {
    const li = document.createElement("li");
    li.textContent = f.flow + " at " + f.step;
    if (i === fs.length - 1) li.className = "top";
    return li;
  }));
  if (fs.length === 0) {
    const li = document.createElement("li");
    li.textContent = "(empty)";
    $("stack").append(li);
  }
  const rows = [];
  const add = (scope, flow, name, value) => {
    const def = slotDef(flow, name);
    const tr = document.createElement("tr");
    tr.dataset.slot = name;
    if (changedByLastTurn(flow, name)) tr.className = "changed";
    for (const text of [name, JSON.stringify(value), def ? def.type : "?", scope]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    rows.push(tr);
  };
  if (ui.view) {
    for (const k of Object.keys(ui.view.slots || {}).sort()) add("conversation", "", k, ui.view.slots[k]);
    for (const f of fs) for (const k of Object.keys(f.slots).sort()) add(f.flow, f.flow, k, f.slots[k]);
  }
  $("slots").tBodies[0].replaceChildren(...rows);
  const p = ui.view && ui.view.pending;
  $("pending").textContent = p ? p.kind + " " + (p.slot || "") + " at " + p.flow + "." + p.step + ': "' + (p.prompt || "") + '"' : "none";
  $("revision").textContent = String(ui.view ? ui.view.revision : 0);
  $("version").textContent = (ui.view && ui.view.version) || "none";
}

function pending() { return ui.view && ui.view.pending; }

function renderButtons() {
  const p = pending();
  let choices = [];
  if (p && p.kind === "confirm") choices = [["Yes", "yes"], ["No", "no"]];
  else if (p && p.kind === "collect") {
    const def = slotDef(p.flow, p.slot);
    if (def && def.type === "categorical") choices = (def.values || []).map((v) => [v.label || v.value, v.value]);
    if (def && def.type === "boolean") choices = [["Yes", "yes"], ["No", "no"]];
  }
  $("buttons").replaceChildren(...choices.map(([title, payload]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = title;
    b.addEventListener("click", () => send(payload));
    return b;
  }));
}

// ---- the graph ----
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// edges lists a node's successors: [target index, label].
function edges(n) {
  const out = [];
  const push = (t, label) => { if (typeof t === "number" && t >= 0) out.push([t, label]); };
  push(n.next, "");
  for (const c of n.cases || []) push(c.target, c.pattern);
  push(n.on_error, "error");
  push(n.on_confirm, "yes");
  push(n.on_deny, "no");
  push(n.on_invalid, "invalid");
  push(n.body, "loop");
  push(n.exit, "exit");
  const seen = new Set();
  return out.filter(([t, l]) => { const k = t + "|" + l; if (seen.has(k)) return false; seen.add(k); return true; });
}

function shownFlow() {
  const fs = frames();
  if (fs.length) return fs[fs.length - 1].flow;
  const last = ui.records[ui.records.length - 1];
  // With no flow left, the last flow the turn ran that is not a pattern
  // (pattern_completed runs after every flow that completes).
  const ran = ((last && last.visited) || []).filter((v) => !v.flow.startsWith("pattern_"));
  if (ran.length) return ran[ran.length - 1].flow;
  return "";
}

function renderGraph() {
  const name = shownFlow();
  $("graph-flow").textContent = name || "(no flow active)";
  const f = name && flowDef(name);
  if (!f) { $("graph").replaceChildren(); return; }
  const fs = frames();
  const top = fs.length ? fs[fs.length - 1] : null;
  const current = top && top.flow === name ? top.step : "";
  const last = ui.records[ui.records.length - 1];
  const path = ((last && last.visited) || []).filter((v) => v.flow === name).map((v) => v.step);
  const taken = new Set();
  for (let i = 1; i < path.length; i++) taken.add(path[i - 1] + ">" + path[i]);
  const W = 230, H = 40, GAP = 22, X = 12;
  const idx = new Map(f.nodes.map((n, i) => [n.id, i]));
  const y = (i) => 8 + i * (H + GAP);
  let maxSpan = 1;
  for (const [i, n] of f.nodes.entries()) for (const [t] of edges(n)) if (t !== i + 1) maxSpan = Math.max(maxSpan, Math.abs(t - i));
  const width = X + W + 40 + maxSpan * 14 + 60;
  const svg = el("svg", { viewBox: "0 0 " + width + " " + (y(f.nodes.length) + 8), role: "img", "aria-label": "Steps of flow " + name });
  const defs = el("defs");
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
  marker.append(el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#4a4a4a" }));
  defs.append(marker);
  svg.append(defs);
  for (const [i, n] of f.nodes.entries()) {
    for (const [t, label] of edges(n)) {
      const isTaken = taken.has(n.id + ">" + f.nodes[t].id);
      let d;
      if (t === i + 1) d = "M " + (X + W / 2) + " " + (y(i) + H) + " L " + (X + W / 2) + " " + y(t);
      else {
        const off = X + W + 12 + Math.abs(t - i) * 14;
        d = "M " + (X + W) + " " + (y(i) + H / 2) + " C " + off + " " + (y(i) + H / 2) + ", " + off + " " + (y(t) + H / 2) + ", " + (X + W) + " " + (y(t) + H / 2);
      }
      svg.append(el("path", { d, class: "edge" + (isTaken ? " taken" : ""), "marker-end": "url(#arrow)" }));
      if (label) {
        const ly = t === i + 1 ? y(i) + H + GAP / 2 + 3 : (y(i) + y(t)) / 2 + H / 2;
        const lx = t === i + 1 ? X + W / 2 + 6 : X + W + 14 + Math.abs(t - i) * 14;
        svg.append(el("text", { x: lx, y: ly, class: "edge-label" }, label));
      }
    }
  }
  for (const [i, n] of f.nodes.entries()) {
    const cls = ["node"];
    if (path.includes(n.id)) cls.push("visited");
    if (n.id === current) cls.push("current");
    if (n.id === ui.selected) cls.push("selected");
    const g = el("g", { class: cls.join(" "), tabindex: "0", role: "button", "data-step": n.id, "aria-label": "step " + n.id + ", " + n.kind + (n.id === current ? ", current" : "") });
    g.append(el("rect", { x: X, y: y(i), width: W, height: H, rx: 5 }));
    g.append(el("text", { x: X + 8, y: y(i) + 17 }, n.id));
    g.append(el("text", { x: X + 8, y: y(i) + 33, class: "kind" }, n.kind + (n.slot ? " " + n.slot : "") + (n.action ? " " + n.action : "")));
    const show = () => { ui.selected = n.id; showStep(f, n); renderGraph(); };
    g.addEventListener("click", show);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(); } });
    svg.append(g);
  }
  void idx;
  $("graph").replaceChildren(svg);
}

function showStep(f, n) {
  const box = $("step-detail");
  const h = document.createElement("h3");
  h.textContent = "Step " + n.id + " of " + f.name;
  const where = document.createElement("p");
  where.className = "where";
  where.textContent = "Defined at " + (n.pos || "?");
  const pre = document.createElement("pre");
  pre.textContent = JSON.stringify(n, null, 2);
  box.replaceChildren(h, where, pre);
}

// ---- the turn log ----
function renderLog() {
  $("log").replaceChildren(...ui.records.map((r) => {
    const li = document.createElement("li");
    li.value = r.revision;
    const lines = [];
    lines.push("user: " + (r.text || JSON.stringify(r.given)));
    lines.push("understood: " + (r.commands || []).map(describe).join("; "));
    for (const e of r.events || []) {
      let s = e.type + " " + (e.flow || "");
      if (e.step) s += "." + e.step;
      if (e.slot) s += " " + e.slot + " = " + JSON.stringify(e.new === undefined ? null : e.new) + (e.old !== undefined ? " (was " + JSON.stringify(e.old) + ")" : "");
      if (e.action) s += " " + e.action;
      if (e.error) s += ": " + e.error;
      lines.push(s);
    }
    for (const a of r.actions || []) {
      lines.push("action " + a.action + " " + (a.ok ? "ok" : "failed: " + (a.error || "")) + " in " + a.duration_ms + " ms");
    }
    for (const t of r.replies || []) lines.push("bot: " + t);
    for (const line of lines) {
      const d = document.createElement("div");
      d.textContent = line;
      li.append(d);
    }
    for (const w of r.warnings || []) {
      const d = document.createElement("div");
      d.className = "warn";
      d.textContent = "warning: " + w;
      li.append(d);
    }
    return li;
  }));
}

function describe(c) {
  let s = c.kind;
  if (c.flow) s += " " + c.flow;
  if (c.slot) s += " " + c.slot + "=" + JSON.stringify(c.value);
  if (c.slots) s += " " + c.slots.map((v) => v.slot + "=" + JSON.stringify(v.value)).join(" ");
  if (c.flows) s += " " + c.flows.join(" ");
  return s;
}

// ---- sending, with streaming replies ----
function addMessage(cls, text) {
  const li = document.createElement("li");
  li.className = cls;
  li.textContent = text;
  $("messages").append(li);
  $("messages").scrollTop = $("messages").scrollHeight;
}

async function send(text) {
  if (ui.busy || !text.trim()) return;
  ui.busy = true;
  status("sending…");
  addMessage("user", text);
  $("buttons").replaceChildren();
  try {
    const resp = await api("/v1/sessions/" + encodeURIComponent(ui.session) + "/messages", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "text/event-stream" },
      body: JSON.stringify({ text }),
    });
    if (!resp.ok || !resp.body) {
      const body = await resp.json().catch(() => ({}));
      addMessage("error", (body.error && body.error.message) || "the server answered " + resp.status);
    } else {
      await readStream(resp.body);
    }
    status("");
  } catch (e) {
    if (e.message !== "unauthorized") addMessage("error", "no answer: " + e.message);
  } finally {
    ui.busy = false;
  }
  await loadSessions();
  await refresh();
  $("text").focus();
}

// readStream reads Server-Sent Events frames; a reply shows as it comes.
async function readStream(body) {
  const reader = body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const frame = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let event = "", data = "";
      for (const line of frame.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (event === "reply") addMessage("bot", JSON.parse(data).text);
      else if (event === "error") {
        const e = JSON.parse(data);
        addMessage("error", (e.error && e.error.message) || "error");
      }
    }
  }
}

// ---- save as test ----
async function saveTest() {
  const r = await api("/v1/sessions/" + encodeURIComponent(ui.session) + "/events?format=test");
  if (!r.ok) {
    const body = await r.json().catch(() => ({}));
    status((body.error && body.error.message) || "nothing to save yet");
    return;
  }
  const text = await r.text();
  $("test-panel").hidden = false;
  $("test-yaml").textContent = text;
  const a = $("download");
  if (a.href.startsWith("blob:")) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
  a.download = "session_" + ui.session + ".yaml";
  a.click();
  status("saved as session_" + ui.session + ".yaml");
}

async function start() {
  $("send").addEventListener("submit", (e) => {
    e.preventDefault();
    const t = $("text").value;
    $("text").value = "";
    send(t);
  });
  $("new-session").addEventListener("click", async () => {
    ui.session = newID();
    location.hash = "session=" + ui.session;
    await loadSessions();
    await refresh();
    $("text").focus();
  });
  $("session").addEventListener("change", async () => {
    ui.session = $("session").value;
    location.hash = "session=" + ui.session;
    ui.selected = "";
    await refresh();
  });
  $("save-test").addEventListener("click", saveTest);
  $("token").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      sessionStorage.setItem("soni-token", $("token").value);
      location.reload();
    }
  });
  const m = /session=([A-Za-z0-9._-]+)/.exec(location.hash);
  ui.session = m ? m[1] : newID();
  try {
    const r = await api("/v1/program");
    const doc = await r.json();
    ui.program = doc.program || doc;
  } catch (e) {
    return;
  }
  await loadSessions();
  await refresh();
  document.body.dataset.ready = "true";
}

start();
