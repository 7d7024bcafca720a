// The Ghostlight workbench page. Everything a page string touches goes
// through textContent (never innerHTML): titles, URLs and field names are
// the page's words, untrusted.
"use strict";

const api = (path, opts = {}) => fetch("api/" + path, {
  ...opts,
  credentials: "same-origin",
  headers: { "X-Ghostlight-Workbench": "1", ...(opts.body ? { "Content-Type": "application/json" } : {}) },
});

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

let pollMs = 1000;
let dest = "tabs";
let selectedTab = "";

function route() {
  const h = decodeURIComponent(location.hash.slice(1));
  if (h.startsWith("tab_")) {
    dest = "tabs";
    selectTab(h);
  } else if (["policy", "activity", "tabs", "recordings"].includes(h)) {
    dest = h;
  }
  for (const s of document.querySelectorAll(".dest")) s.hidden = s.id !== "dest-" + dest;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("on", a.dataset.dest === dest);
  refresh();
}

function setConn(ok) {
  const c = $("conn");
  c.textContent = ok ? "live" : "server unreachable";
  c.classList.toggle("bad", !ok);
}

async function getJSON(path) {
  const r = await api(path);
  if (!r.ok) throw new Error(path + ": " + r.status);
  return r.json();
}

// ---- Policy -------------------------------------------------------------

async function loadPolicy() {
  const p = await getJSON("policy");
  $("policy-situation").textContent = p.situation;
  const body = $("policy-capabilities");
  body.replaceChildren();
  for (const c of p.capabilities) {
    const tr = el("tr");
    tr.dataset.capability = c.capability;
    tr.append(el("td", "", c.capability), el("td", c.allowed ? "allowed" : "denied", c.allowed ? "allowed" : "denied"),
      el("td", "", c.layer), el("td", "muted", c.where || "—"));
    body.append(tr);
  }
  const lines = $("policy-lines");
  lines.replaceChildren(...p.lines.map((l) => el("li", "", l)));
  const files = $("policy-files");
  files.replaceChildren(...(p.files.length ? p.files.map((f) => el("li", "", f.layer + ": " + f.path)) : [el("li", "muted", "No layer file: every value is the schema default or a command-line flag.")]));
}

// ---- Activity -----------------------------------------------------------

async function loadActivity() {
  const q = new URLSearchParams();
  for (const [k, id] of [["session", "filter-session"], ["tool", "filter-tool"], ["status", "filter-status"]]) {
    const v = $(id).value.trim();
    if (v) q.set(k, v);
  }
  const a = await getJSON("activity?" + q);
  $("activity-path").textContent = a.error ? a.error : a.path;
  const body = $("activity-rows");
  body.replaceChildren();
  for (const e of a.entries) {
    const tr = el("tr");
    tr.dataset.invocation = e.invocation;
    tr.dataset.tool = e.tool;
    const tool = e.tool + (e.branch ? " " + e.branch : "") + (e.parent ? " (step of " + e.parent + ")" : "");
    const decision = e.decision + (e.layer ? " (" + e.layer + ")" : "");
    const status = e.status + (e.reason ? " (" + e.reason + ")" : "");
    tr.append(el("td", "", new Date(e.time).toLocaleTimeString()), el("td", "", e.workspace || "—"), el("td", "", tool),
      el("td", "", (e.capabilities || []).join(", ") || "—"), el("td", "", decision), el("td", "st-" + e.status, status),
      el("td", "", (e.hosts || []).join(", ") || "—"), el("td", "", (e.duration_ms || 0).toFixed(1)));
    body.append(tr);
  }
  $("activity-empty").hidden = a.entries.length > 0;
}

// ---- Tabs and the live view ---------------------------------------------

let tabs = [];

async function loadTabs() {
  const t = await getJSON("tabs");
  tabs = t.tabs;
  const waiting = tabs.filter((x) => x.handoff).length;
  const count = $("handoff-count");
  count.hidden = waiting === 0;
  count.textContent = String(waiting);
  if (dest !== "tabs") return;
  // Updated in place, keyed by tab, so a row the person is pointing at
  // stays the same element.
  const list = $("tab-list");
  const rows = new Map([...list.children].map((li) => [li.dataset.tab, li]));
  const keep = new Set(tabs.map((x) => x.tab));
  for (const [k, li] of rows) if (!keep.has(k)) li.remove();
  for (const x of tabs) {
    let li = rows.get(x.tab);
    if (!li) {
      li = el("li");
      li.dataset.tab = x.tab;
      li.append(el("div", "t"), el("div", "u"), el("div", "meta"));
      li.addEventListener("click", () => { location.hash = x.tab; });
    }
    list.append(li); // keeps the listing's order
    if (x.handoff) li.dataset.handoff = "1"; else delete li.dataset.handoff;
    li.classList.toggle("on", x.tab === selectedTab);
    const [title, url, meta] = li.children;
    title.textContent = x.title || "(untitled)";
    if (x.handoff) title.append(el("span", "badge", "handoff"));
    url.textContent = x.url;
    meta.textContent = x.tab + " · session " + x.session;
  }
  $("tabs-empty").hidden = tabs.length > 0;
  if (!selectedTab && tabs.length) selectTab(tabs[0].tab);
  if (selectedTab && !tabs.some((x) => x.tab === selectedTab) && tabs.length === 0) closeLive();
  // A stream the browser dropped (a stopped load, a server restart) is
  // opened again while its tab is still controlled.
  if (selectedTab && tabs.some((x) => x.tab === selectedTab) && (!source || source.readyState === EventSource.CLOSED)) {
    const t = selectedTab;
    selectedTab = "";
    selectTab(t);
  }
  showSelected();
}

function showSelected() {
  const x = tabs.find((t) => t.tab === selectedTab);
  $("live").hidden = !selectedTab;
  if (!x) return;
  $("live-title").textContent = x.title || "(untitled)";
  $("live-url").textContent = x.url;
  const banner = $("live-handoff");
  banner.hidden = !x.handoff;
  $("live-held").hidden = !x.held;
  $("live-scripted").hidden = !x.scripted;
  if (x.handoff) {
    const where = x.handoff.host ? " on " + x.handoff.host : "";
    const confirm = x.handoff.kind === "confirm";
    $("live-handoff-text").textContent = confirm
      ? "The model wants " + x.handoff.field + where + ". Nothing was done yet. Approve it once, approve such actions on this page until it navigates, or refuse it."
      : x.handoff.kind === "flow"
        ? "The model wants to make " + x.handoff.field + where + " (a page may have told it to). Hand the tab back to allow this one write; leave it to refuse."
        : "The model stopped at " + x.handoff.field + where + ": a credential only you should type. Click into the page below and type it yourself: it goes straight to the browser, never to the model, and is not recorded. Then hand the tab back.";
    $("handback").hidden = confirm;
    $("confirm-answers").hidden = !confirm;
  }
}

let source = null;

function selectTab(tab) {
  if (tab === selectedTab && source && source.readyState !== EventSource.CLOSED) return;
  closeLive();
  selectedTab = tab;
  const img = $("live-image");
  img.dataset.seq = "0";
  $("live-status").textContent = "starting…";
  source = new EventSource("api/live?tab=" + encodeURIComponent(tab));
  source.addEventListener("frame", (ev) => {
    const f = JSON.parse(ev.data);
    img.src = "data:image/jpeg;base64," + f.jpeg;
    img.dataset.seq = String(f.seq);
    img.dataset.width = String(f.width);
    img.dataset.height = String(f.height);
    $("live-status").textContent = "live · frame " + f.seq;
  });
  source.addEventListener("end", () => {
    $("live-status").textContent = "the tab is gone";
    closeLive(true);
  });
  source.onerror = () => { $("live-status").textContent = "reconnecting…"; };
  showSelected();
}

function closeLive(keep) {
  if (source) source.close();
  source = null;
  if (!keep) selectedTab = "";
}

// Input goes out one event at a time, in order.
let queue = Promise.resolve();
function send(ev) {
  if (!selectedTab) return;
  const tab = selectedTab;
  queue = queue.then(() => api("input?tab=" + encodeURIComponent(tab), { method: "POST", body: JSON.stringify(ev) })
    .then((r) => { if (!r.ok) r.json().then((j) => { $("live-status").textContent = j.error; }).catch(() => {}); })
    .catch(() => {}));
}

function fraction(e) {
  const r = $("live-image").getBoundingClientRect();
  return { x: Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)), y: Math.min(1, Math.max(0, (e.clientY - r.top) / r.height)) };
}

const buttonNames = ["primary", "middle", "secondary"];
const namedKeys = new Set(["Enter", "Tab", "Backspace", "Delete", "Escape", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown",
  "Home", "End", "PageUp", "PageDown", "Insert", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12"]);

function wireLive() {
  const frame = $("live-frame");
  const img = $("live-image");
  // The place is read at the press: focusing the view must not move it
  // under the pointer before the click lands.
  let pressed = null;
  img.addEventListener("mousedown", (e) => { e.preventDefault(); pressed = fraction(e); frame.focus({ preventScroll: true }); });
  img.addEventListener("click", (e) => {
    const p = pressed || fraction(e);
    pressed = null;
    send({ type: "click", x: p.x, y: p.y, button: buttonNames[e.button] || "primary", count: 1 });
  });
  img.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    const p = fraction(e);
    send({ type: "click", x: p.x, y: p.y, button: "secondary", count: 1 });
  });
  img.addEventListener("wheel", (e) => {
    e.preventDefault();
    const p = fraction(e);
    const clamp = (v) => Math.max(-1000, Math.min(1000, v));
    send({ type: "wheel", x: p.x, y: p.y, dx: clamp(e.deltaX), dy: clamp(e.deltaY) });
  }, { passive: false });
  frame.addEventListener("keydown", (e) => {
    const mods = [];
    if (e.altKey) mods.push("Alt");
    if (e.ctrlKey) mods.push("Control");
    if (e.metaKey) mods.push("Meta");
    const chord = mods.length > 0;
    if (e.key.length === 1 && !chord) {
      e.preventDefault();
      send({ type: "text", text: e.key });
    } else if (namedKeys.has(e.key) || (chord && e.key.length === 1)) {
      e.preventDefault();
      if (e.shiftKey) mods.push("Shift");
      send({ type: "key", key: e.key, modifiers: mods });
    }
  });
  frame.addEventListener("paste", (e) => {
    const t = e.clipboardData && e.clipboardData.getData("text");
    if (t) { e.preventDefault(); send({ type: "text", text: t.slice(0, 1000) }); }
  });
  $("handback").addEventListener("click", async () => {
    const r = await api("handback?tab=" + encodeURIComponent(selectedTab), { method: "POST" });
    $("live-status").textContent = r.ok ? "handed back to the model" : "no handoff was open";
    loadTabs().catch(() => {});
  });
  // A confirmation's three answers (policy confirm).
  const said = { once: "approved once", page: "approved for this page", refuse: "refused" };
  for (const answer of ["once", "page", "refuse"]) {
    $("answer-" + answer).addEventListener("click", async () => {
      const r = await api("handback?tab=" + encodeURIComponent(selectedTab) + "&answer=" + answer, { method: "POST" });
      $("live-status").textContent = r.ok ? said[answer] : "no action was waiting";
      loadTabs().catch(() => {});
    });
  }
  $("clear-site").addEventListener("click", async () => {
    $("live-status").textContent = "clearing the site…";
    const r = await api("clear-site?tab=" + encodeURIComponent(selectedTab), { method: "POST" });
    $("live-status").textContent = r.ok ? "cleared and reloaded: you may type your credential now" : "the site could not be cleared";
    loadTabs().catch(() => {});
  });
  $("release").addEventListener("click", async () => {
    const r = await api("release?tab=" + encodeURIComponent(selectedTab), { method: "POST" });
    $("live-status").textContent = r.ok ? "released: the model may run page script here again" : "nothing was held";
    loadTabs().catch(() => {});
  });
}

// ---- Recordings ---------------------------------------------------------

async function loadRecordings() {
  const r = await getJSON("recordings");
  // Updated in place, keyed by session and handle (a Play button stays put).
  const list = $("recording-list");
  const key = (x) => x.session + "/" + x.handle;
  const rows = new Map([...list.children].map((li) => [li.dataset.key, li]));
  const keep = new Set(r.recordings.map(key));
  for (const [k, li] of rows) if (!keep.has(k)) li.remove();
  for (const x of r.recordings) {
    let li = rows.get(key(x));
    if (!li) {
      li = el("li");
      li.dataset.key = key(x);
      li.dataset.recording = x.handle;
      const b = el("button", "", "Play");
      b.addEventListener("click", () => {
        const p = $("recording-player");
        p.src = "api/recording.gif?session=" + encodeURIComponent(x.session) + "&handle=" + encodeURIComponent(x.handle);
        p.hidden = false;
      });
      li.append(el("span"), b);
    }
    list.append(li);
    const [info, play] = li.children;
    info.textContent = x.handle + " · " + x.tab + " · " + x.state + " · " + x.frames + " frames · " + (x.duration_ms / 1000).toFixed(1) + " s" +
      (x.state === "stopped" ? " · erased in " + Math.round(x.retention_ms / 1000) + " s" : "");
    play.hidden = x.state !== "stopped";
  }
  $("recordings-empty").hidden = r.recordings.length > 0;
}

// ---- Polling ------------------------------------------------------------

// The audit's state, on every page: a banner while it cannot be written.
async function loadStatus() {
  const s = await getJSON("status");
  const b = $("audit-banner");
  b.textContent = s.audit || "";
  b.hidden = !s.audit;
}

async function refresh() {
  try {
    const jobs = [loadTabs(), loadStatus()];
    if (dest === "policy") jobs.push(loadPolicy());
    if (dest === "activity") jobs.push(loadActivity());
    if (dest === "recordings") jobs.push(loadRecordings());
    await Promise.all(jobs);
    setConn(true);
  } catch (e) {
    setConn(false);
  }
}

let timer = 0;
function loop() {
  clearTimeout(timer);
  refresh().finally(() => { timer = setTimeout(loop, pollMs); });
}

window.addEventListener("hashchange", route);
for (const id of ["filter-session", "filter-tool", "filter-status"]) $(id).addEventListener("input", () => loadActivity().catch(() => {}));

(async () => {
  try {
    const c = await getJSON("config");
    if (c.poll_ms > 0) pollMs = c.poll_ms;
  } catch (e) { /* keep the default */ }
  wireLive();
  if (!location.hash) location.hash = "tabs";
  route();
  loop();
})();
