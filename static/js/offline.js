// A table's page through a network that comes and goes. Its service worker (scoring/install.py)
// keeps the page and the site's files, so the page opens with no network too, and keeps a
// save or confirmation that could not be sent in the queue (static/js/offline-queue.js). This
// script shows whether the phone is online, when it last heard from the server and what
// waits; it queues what is entered while the phone is offline (or behind what already waits),
// sends the queue oldest first when the network is back, and turns the page's form to the
// next deal while earlier ones wait. The server stays the judge: each entry is sent with the
// request id and version it was made with, so a replay records once and a deal changed
// meanwhile comes back as the conflict screen.

(() => {
const bar = document.getElementById("offline");
if (!bar || !("indexedDB" in window) || typeof LappuQueue === "undefined") return;
const KEY = bar.dataset.key;
const PAGE = bar.dataset.page;
// What the page shows: its main part says (a seat pick the phone has since swapped for its
// table, as the worker's copy has too), else the bar (a notice, the conflict screen).
const shown = document.querySelector("#table-main .table-part");
let KIND = (shown && shown.dataset.kind) || bar.dataset.kind;
// A page from the server (not the copy the worker kept) says which of this phone's saves landed.
const FROM_SERVER = bar.dataset.source === "network";
const SYNCED = `lappu:synced:${KEY}`;
let items = [];
let reachable = navigator.onLine;
let flushing = false;

function say(name, values = {}) {
  const text = bar.dataset[`t${name.replace(/(^|-)(\w)/g, (_m, _d, c) => c.toUpperCase())}`] || "";
  return text.replace(/%\((\w+)\)s/g, (_m, key) => String(values[key] ?? ""));
}

function markSynced() {
  try {
    localStorage.setItem(SYNCED, String(Date.now()));
  } catch (error) {
    // A phone with storage off still works; it only cannot say when it last synced.
  }
}

function lastSynced() {
  let kept = 0;
  try {
    kept = Number(localStorage.getItem(SYNCED)) || 0;
  } catch (error) {
    kept = 0;
  }
  const rendered = Date.parse(bar.dataset.rendered) || 0;
  return Math.max(kept, rendered);
}

// -- what the bar shows

const text = (element) => (element ? element.textContent.trim() : "");

// One typed field in words, as the entry form names it: "Player 2 · Cards left in hand: AS
// KD", "Who went out?: Player 1"; its own name where the page has no such field.
function described(name, value) {
  const fields = [...document.querySelectorAll(`form.entry [name="${CSS.escape(name)}"]`)];
  const field = fields.find((each) => each.type !== "radio" || each.value === value);
  if (!field) return [name, value];
  const label = text(field.id && document.querySelector(`label[for="${CSS.escape(field.id)}"]`));
  if (field.type === "radio") return [text(field.closest("fieldset")?.querySelector("legend")) || name, label || value];
  const seat = text(field.closest("fieldset.seat")?.querySelector("legend"));
  return [[seat, label].filter(Boolean).join(" · ") || name, value];
}

// What was typed into an entry, in words: worked out on the entry page (which has the form),
// kept with the entry for the pages that have not (the notice of a link that no longer works).
function typedRows(item) {
  if (item.typed) return item.typed;
  const skip = new Set(["csrfmiddlewaretoken", "request_id", "expected_version", "number"]);
  return item.fields.filter(([name, value]) => !skip.has(name) && String(value).trim()).map(([name, value]) => described(name, value));
}

function itemRow(item, blocked) {
  const row = bar.querySelector("template.queue-item").content.firstElementChild.cloneNode(true);
  row.querySelector(".what").textContent = say(item.kind === "confirm" ? "confirm" : "deal", { number: item.number });
  const failed = item.state === "failed";
  row.querySelector(".state").textContent = failed ? say(`problem-${item.problem || "other"}`) : say(`state-${item.state}`);
  row.classList.toggle("failed", failed);
  row.querySelector(".actions").hidden = !failed;
  row.querySelector(".open").hidden = item.problem === "gone";
  row.querySelector(".open").addEventListener("click", () => openItem(item));
  row.querySelector(".discard").addEventListener("click", () => discard(item));
  const typed = row.querySelector(".typed");
  if (failed) {
    typedRows(item).forEach(([name, value]) => {
      const term = document.createElement("dt");
      term.textContent = name;
      const detail = document.createElement("dd");
      detail.textContent = value;
      typed.append(term, detail);
    });
    typed.hidden = !typed.childElementCount;
  }
  if (blocked) row.classList.add("blocked");
  return row;
}

function render() {
  bar.hidden = false;
  bar.classList.toggle("is-offline", !reachable);
  bar.querySelector(".net").textContent = reachable ? say("online") : say("offline");
  const synced = lastSynced();
  const time = new Date(synced).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  bar.querySelector(".synced").textContent = synced ? `· ${say("synced", { time })}` : "";
  const open = items.filter((item) => item.state !== "failed");
  bar.querySelector(".waiting").textContent = open.length ? say("waiting", { count: open.length }) : "";
  const failedAt = items.findIndex((item) => item.state === "failed");
  bar.querySelector(".queue").replaceChildren(...items.map((item, index) => itemRow(item, failedAt >= 0 && index > failedAt)));
  const note = bar.querySelector(".queue-note");
  note.textContent = failedAt >= 0 && failedAt < items.length - 1 ? say("blocked") : "";
  note.hidden = !note.textContent;
  bar.querySelector(".send-now").hidden = !open.some((item) => item.state === "waiting") || failedAt >= 0;
  hideQueuedConfirmations();
  noteUnsent();
}

// The totals come from the server, so a deal still on this phone is in none of them: the
// totals say so, or the table reads a sum that leaves out what it just entered.
function noteUnsent() {
  const live = document.getElementById("table-live");
  if (!live) return;
  const count = items.filter((item) => item.kind === "deal").length;
  let line = live.querySelector(".unsent-note");
  if (!count) {
    if (line) line.remove();
    return;
  }
  if (!line) {
    line = document.createElement("p");
    line.className = "unsent-note pending";
    line.setAttribute("role", "status");
    const totals = live.querySelector("table.totals");
    if (totals) totals.after(line);
    else live.prepend(line);
  }
  line.textContent = say("unsent", { count });
}

// A confirmation already queued is not offered again.
function hideQueuedConfirmations() {
  const queued = new Set(items.filter((item) => item.kind === "confirm").map((item) => new URL(item.url, location.href).pathname));
  document.querySelectorAll("form[data-queue=confirm]").forEach((form) => {
    form.hidden = queued.has(new URL(form.action, location.href).pathname);
  });
}

// -- the entry form while earlier deals wait: it becomes the next deal's

function nextDealForm() {
  const form = KIND === "entry" ? document.querySelector("form.entry[data-queue=deal]") : null;
  if (!form || form.elements.expected_version.value !== "0") return; // a correction stays one
  const deals = items.filter((item) => item.kind === "deal" && item.state !== "failed" && item.state !== "sent");
  const current = Number(form.elements.number.value);
  const last = Math.max(0, ...deals.map((item) => item.number));
  if (last < current) return;
  const next = last + 1;
  const heading = document.querySelector(`template[data-deal="${next}"]`);
  const place = document.getElementById("deal-heading");
  if (!heading || !place) {
    form.hidden = true;
    note(form, say("no-more"));
    return;
  }
  place.replaceChildren(heading.content.cloneNode(true));
  form.elements.number.value = String(next);
  form.elements.request_id.value = newId();
  form.action = form.action.replace(/\/deals\/\d+\/$/, `/deals/${next}/`);
}

function note(before, text) {
  const line = document.createElement("p");
  line.className = "hint";
  line.textContent = text;
  before.before(line);
}

function newId() {
  if (crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// -- sending

function freshToken() {
  // A page from the server carries a token the server takes now; a kept copy's may be old.
  const field = FROM_SERVER ? document.querySelector("input[name=csrfmiddlewaretoken]") : null;
  return field ? field.value : "";
}

async function load() {
  items = await LappuQueue.items(KEY);
}

// Sends what waits; when it all went, the page is asked again to show the table as it now
// is. A refused entry is opened (posted as a page) so its conflict screen or its errors
// next to their fields show; it stays listed until it is sent or discarded.
async function flush() {
  if (flushing || !items.some((item) => item.state === "waiting")) return "idle";
  flushing = true;
  let last = null;
  try {
    const result = await LappuQueue.flush(KEY, freshToken(), async (response) => {
      last = response.headers.get(LappuQueue.PART) ? await response.text() : null;
    });
    await load();
    if (result === "later" || result === "blocked") {
      render();
      return result;
    }
    markSynced();
    const failed = items.find((item) => item.state === "failed");
    // All sent: the table as the server has it now, from the last answer (or asked for).
    // The link gone: the page (the notice, listing what was not recorded). Another refusal
    // is opened to show the server's answer.
    if (result === "done" && last !== null) await swapIn(last, "sent");
    else if (result === "done") await refresh();
    else if (failed.problem === "gone") location.replace(PAGE);
    else openItem(failed);
    return result;
  } finally {
    flushing = false;
  }
}

// Posts the entry as the page itself did, so the server's answer is shown as a page: the
// conflict screen, the entry with its errors, or the notice of a link that no longer works.
function openItem(item) {
  const token = freshToken();
  postAsPage(item.url, item.fields.map(([name, value]) => [name, name === "csrfmiddlewaretoken" && token ? token : value]));
}

async function discard(item) {
  if (!window.confirm(say("discard-ask"))) return;
  await LappuQueue.remove(item);
  await load();
  render();
}

// What is entered while offline, or while earlier entries wait, joins the queue behind them;
// otherwise a save, confirmation or seat claim is sent by this script and the table's main
// part it is answered with is swapped in (sendAndSwap below).
document.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-queue], form[data-swap]");
  if (!form || event.defaultPrevented) return;
  const id = form.elements.request_id ? form.elements.request_id.value : "";
  const before = items.filter((item) => item.requestId !== id && item.state !== "sent");
  if (!form.dataset.queue || (navigator.onLine && !before.length)) {
    if (!form.hasAttribute("data-swap") || !document.getElementById("table-main")) return; // sent as a page
    event.preventDefault();
    sendAndSwap(form, event.submitter);
    return;
  }
  event.preventDefault();
  if (form.dataset.queued) return; // a double tap queues once
  form.dataset.queued = "1";
  await LappuQueue.add(LappuQueue.itemOf(KEY, form.action, [...new FormData(form)].filter(([, v]) => typeof v === "string")));
  await load();
  const sent = navigator.onLine ? await flush() : "later";
  if (sent === "later" || sent === "blocked") await shownQueued(form);
});

// The page again, showing the entry queued and the form turned to the next deal: the copy
// the worker kept, or this page reset where no worker runs it yet.
async function shownQueued(form) {
  // (Only once the worker keeps a copy: the page asked of it with no network would fail.)
  const kept = navigator.serviceWorker && navigator.serviceWorker.controller && window.caches && (await caches.match(PAGE));
  if (kept) {
    location.replace(PAGE);
    return;
  }
  form.reset();
  delete form.dataset.queued;
  render();
  nextDealForm();
}

// -- the table's main part, swapped in

// Sends `form` (tapped by `submitter`) with the header that asks for the table's main part
// and swaps the answer in: the whole page is not loaded again. A double tap sends once (the
// request id would record it once anyway). No answer: a save or confirmation joins the
// queue, as one made offline does; any other answer (the conflict screen, a link that no
// longer works, an expired page) is posted again as the page itself did, to show it.
async function sendAndSwap(form, submitter) {
  if (form.dataset.sending) return;
  form.dataset.sending = "1";
  form.setAttribute("aria-busy", "true");
  const fields = [...new FormData(form)].filter(([, value]) => typeof value === "string");
  if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 20000);
  let response = null;
  try {
    response = await LappuQueue.post(form.action, fields, stop.signal);
  } catch (error) {
    response = null;
  } finally {
    clearTimeout(timer);
  }
  const kind = response && response.headers.get(LappuQueue.PART);
  if (kind) {
    reachable = true;
    markSynced();
    await swapIn(await response.text(), kind);
    return;
  }
  delete form.dataset.sending;
  form.removeAttribute("aria-busy");
  const busy = !response || response.status === 429 || response.status >= 500;
  if (busy && form.dataset.queue) {
    reachable = Boolean(response);
    form.dataset.queued = "1";
    await LappuQueue.add(LappuQueue.itemOf(KEY, form.action, fields));
    await load();
    await shownQueued(form);
  } else if (response && response.type === "opaqueredirect") {
    location.replace(PAGE);
  } else {
    postAsPage(form.action, fields);
  }
}

// Puts the table's main part `html` in place of the page's. The page stays the table's
// (address and history), the polled part polls on from the tag it came with, and what it
// says first takes the focus, scrolled into view, so a screen reader says "Deal 3 saved"
// (or what is wrong with the entry) as a new page would.
async function swapIn(html, kind) {
  const main = document.getElementById("table-main");
  if (!main) {
    location.replace(PAGE);
    return;
  }
  document.querySelectorAll("main > .messages").forEach((list) => list.remove()); // the last load's
  main.innerHTML = html;
  const part = main.querySelector(".table-part");
  if (part) KIND = part.dataset.kind || KIND;
  if (location.pathname !== PAGE) history.replaceState(null, "", PAGE);
  if (window.htmx) window.htmx.process(main);
  document.dispatchEvent(new CustomEvent("lappu:swapped", { detail: { root: main } }));
  if (part) await settle(part.dataset.recorded || "");
  render();
  nextDealForm();
  // What the answer says first: its message, a refusal's first error (its hand open), else
  // the page's heading.
  const said = main.querySelector(".messages, .errorlist") || main.querySelector(".field-errors .error") || main.querySelector("h1");
  if (said) {
    if (!said.hasAttribute("tabindex")) said.setAttribute("tabindex", "-1");
    said.focus();
    said.scrollIntoView({ block: "nearest" });
  }
  if (kind !== "refused") keepCopy(html);
}

// The table's main part as the server has it now, swapped in (the whole page where it
// cannot be).
async function refresh() {
  try {
    const response = await fetch(PAGE, { credentials: "same-origin", headers: { [LappuQueue.PART]: "1" } });
    if (response.ok && response.headers.get(LappuQueue.PART)) {
      await swapIn(await response.text(), "page");
      return;
    }
  } catch (error) {
    // No network: the whole page, from the copy the worker kept.
  }
  location.replace(PAGE);
}

// The copy of the page the worker keeps for a visit with no network shows what was swapped in.
function keepCopy(html) {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ lappu: "part", html });
}

// A form posted as the page itself does, so the server's answer is shown as a page.
function postAsPage(action, fields) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  form.hidden = true;
  fields.forEach(([name, value]) => {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  });
  document.body.append(form);
  form.submit();
}

// entry.js asks for the table again (the deal it held its form back for was confirmed).
document.addEventListener("lappu:refresh", (event) => {
  event.preventDefault();
  refresh();
});

// -- the live check while offline

document.addEventListener("htmx:sendError", (event) => {
  const source = event.detail && event.detail.elt;
  reachable = false;
  render();
  if (source && source.matches("form.entry")) {
    const check = document.getElementById("check");
    if (check) {
      const line = document.createElement("p");
      line.className = "check offline";
      line.textContent = say("check");
      check.replaceChildren(line);
    }
  }
});

// A change makes the check's verdict stale until it answers again: it never keeps saying
// "Looks right" about a hand as it was before.
document.addEventListener("input", (event) => {
  if (!event.target.closest("form.entry")) return;
  const check = document.getElementById("check");
  if (check) check.replaceChildren();
});

// Any answer from the server (the table's poll every few seconds) means the network is back.
document.addEventListener("htmx:afterSettle", () => {
  hideQueuedConfirmations();
  noteUnsent();
});
document.addEventListener("htmx:afterRequest", (event) => {
  const xhr = event.detail && event.detail.xhr;
  if (!xhr || !xhr.status) return;
  reachable = true;
  markSynced();
  render();
  flush();
});

window.addEventListener("online", () => {
  reachable = true;
  render();
  flush();
});
window.addEventListener("offline", () => {
  reachable = false;
  render();
});
bar.querySelector(".send-now").addEventListener("click", () => {
  reachable = navigator.onLine;
  flush();
});

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("message", async (event) => {
    if (!event.data || event.data.lappu !== "flushed") return;
    await load();
    if (event.data.result === "done") await refresh();
    else render();
  });
}

// -- on opening

// The server's word, from a page or part it sent (`recorded`: the request ids of this phone's
// saves that landed): what landed leaves the queue; what was sent but did not land says why.
async function settle(recorded) {
  const landed = new Set(recorded.split(" ").filter(Boolean));
  for (const item of items) {
    if (landed.has(item.requestId)) await LappuQueue.remove(item);
    else if (KIND === "gone") await LappuQueue.put({ ...item, state: "failed", problem: "gone" });
    else if (item.state === "sent") await LappuQueue.put({ ...item, state: "failed", problem: KIND === "seat" ? "seat" : "other" });
  }
  await load();
}

async function start() {
  await load();
  if (FROM_SERVER) {
    markSynced();
    await settle(bar.dataset.recorded || "");
  } else {
    reachable = false;
  }
  if (document.querySelector("form.entry")) {
    for (const item of items.filter((each) => !each.typed && each.kind === "deal")) {
      await LappuQueue.put({ ...item, typed: typedRows(item) });
    }
    await load();
  }
  render();
  nextDealForm();
  if ("serviceWorker" in navigator && KIND !== "gone") {
    navigator.serviceWorker.register(bar.dataset.worker, { scope: PAGE }).catch(() => {});
    // A page its worker did not pass (the first visit, before the worker ran) asks it to
    // take the page over and keep a copy.
    navigator.serviceWorker.ready.then(async (registration) => {
      const passed = navigator.serviceWorker.controller && (await caches.match(PAGE));
      if (FROM_SERVER && registration.active && !passed) registration.active.postMessage({ lappu: "keep" });
    });
  } else if ("serviceWorker" in navigator) {
    // A link that no longer works is not opened from a kept copy again.
    navigator.serviceWorker.getRegistration(PAGE).then((registration) => registration && registration.unregister());
  }
  if (navigator.onLine && FROM_SERVER) flush();
}

start();
})();
