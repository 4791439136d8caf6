// Behaviour every page shares. It lives here, not in the pages: the Content-Security-Policy
// refuses inline script and on*= attributes.

// A select marked data-autosubmit (the language switch) submits its form when changed; without
// script the form's <noscript> button does it.
document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-autosubmit]");
  if (!select || !select.form) return;
  if (select.form.requestSubmit) select.form.requestSubmit();
  else select.form.submit();
});

// htmx leaves 4xx answers unswapped. Two kinds are meant to be shown: a 429 (rate limit)
// carries a short "slow down" line for the spot the answer would have filled, such as the
// live check; and an answer with HX-Reswap names where it goes itself (a table link that no
// longer works replaces the page with a notice).
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (!xhr || xhr.status < 400 || xhr.status >= 500) return;
  if (xhr.status === 429 || xhr.getResponseHeader("HX-Reswap")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// A poll that finds the table's link replaced swaps the page for a notice. Whatever the
// phone had typed into the entry form is read first and shown on the notice, so a half
// entered deal can be handed to the director instead of being lost.
let typedBefore = null;
function typedEntries(form) {
  const rows = [];
  form.querySelectorAll("input, select, textarea").forEach((field) => {
    if (field.type === "hidden" || field.type === "submit" || !field.name) return;
    if ((field.type === "radio" || field.type === "checkbox") && !field.checked) return;
    if (!field.value.trim()) return;
    const seat = field.closest("fieldset.seat");
    const group = field.closest("fieldset");
    const label = form.querySelector(`label[for="${field.id}"]`);
    let name = label ? label.textContent.trim() : field.name;
    if (field.type === "radio" && group) name = group.querySelector("legend")?.textContent.trim() || name;
    const value = field.type === "radio" || field.type === "checkbox" ? (label ? label.textContent.trim() : "✓") : field.value.trim();
    const who = seat ? seat.querySelector("legend")?.textContent.trim() : "";
    rows.push([who ? `${who} · ${name}` : name, field.type === "radio" ? value : value]);
  });
  return rows;
}
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (!xhr || !xhr.getResponseHeader("HX-Reswap")) return;
  const form = document.querySelector("form.entry");
  typedBefore = form ? typedEntries(form) : null;
});
document.addEventListener("htmx:afterSwap", () => {
  const box = document.getElementById("typed-before");
  if (!box || !typedBefore || !typedBefore.length) return;
  const list = box.querySelector("dl");
  typedBefore.forEach(([name, value]) => {
    const term = document.createElement("dt");
    term.textContent = name;
    const detail = document.createElement("dd");
    detail.textContent = value;
    list.append(term, detail);
  });
  box.hidden = false;
  typedBefore = null;
});

// A poll sends the ETag of what it shows, and a 304 (nothing new) leaves the part as it is.
// The table page is never stored by the browser (no-store), so the page keeps the tag itself.
const pollTags = new Map();
// A page that was built with its polled part says that part's tag, so its first poll is a
// 304 too, not a second copy of what the page has just shown.
// So does a part swapped in with a polled part inside (a table's save, static/js/offline.js).
function takePollTags(root) {
  root.querySelectorAll("[data-poll-tag][hx-get]").forEach((part) => {
    pollTags.set(part.getAttribute("hx-get"), part.dataset.pollTag);
  });
}
takePollTags(document);
document.addEventListener("lappu:swapped", (event) => takePollTags(event.detail.root));
document.addEventListener("htmx:configRequest", (event) => {
  const tag = pollTags.get(event.detail.path);
  if (tag && event.detail.verb === "get") event.detail.headers["If-None-Match"] = tag;
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (!xhr) return;
  if (xhr.status === 304) {
    event.detail.shouldSwap = false;
    return;
  }
  // An answer left unswapped (a 503 "busy", a proxy's error page) leaves the part as it was,
  // so its tag is kept: the next poll still asks with it (and is a 304 if shed).
  if (!event.detail.shouldSwap) return;
  const path = event.detail.requestConfig && event.detail.requestConfig.path;
  if (!path) return;
  const tag = xhr.getResponseHeader("ETag");
  if (tag) pollTags.set(path, tag);
  else pollTags.delete(path);
});

// A form marked data-busy (the print box) shows that it is at work once sent: its buttons are
// disabled, so a second tap sends nothing, and its [data-busy-status] line is shown. A
// disabled button is left out of what the form sends, so the tapped one's name and value go
// as a hidden field. Coming back to the page (the browser's back button) undoes it all.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-busy]");
  if (!form || event.defaultPrevented) return;
  const button = event.submitter;
  if (button && button.name) {
    const copy = document.createElement("input");
    copy.type = "hidden";
    copy.name = button.name;
    copy.value = button.value;
    copy.dataset.busyCopy = "";
    form.append(copy);
  }
  form.setAttribute("aria-busy", "true");
  form.querySelectorAll("button, input[type=submit]").forEach((control) => { control.disabled = true; });
  form.querySelectorAll("[data-busy-status]").forEach((status) => { status.hidden = false; });
});
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form[data-busy][aria-busy]").forEach((form) => {
    form.removeAttribute("aria-busy");
    form.querySelectorAll("[data-busy-copy]").forEach((copy) => copy.remove());
    form.querySelectorAll("button, input[type=submit]").forEach((control) => { control.disabled = false; });
    form.querySelectorAll("[data-busy-status]").forEach((status) => { status.hidden = true; });
  });
});
