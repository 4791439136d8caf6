// The big screen (scoring/screen/screen.html). A list too long for the screen is shown a
// page at a time, the next every few seconds; the page is kept when the live part refreshes
// (htmx polls it every ten seconds with the tag of what it shows, as static/js/site.js
// keeps it for every page; a 304 leaves it untouched). Without script the
// stylesheet shows the first page. No inline script: the site's CSP refuses it.
(() => {
  const FLIP_SECONDS = 8;
  const shown = {}; // list id -> page index, kept across refreshes

  document.documentElement.classList.add("js");

  function pageSize(list) {
    // Every item shown, how many fit above the list's bottom edge (rows or a grid of tiles).
    const items = Array.from(list.children);
    items.forEach((item) => { item.hidden = false; });
    // The window's edge too: a list the layout lets run past it would count cut rows.
    const bottom = Math.min(list.getBoundingClientRect().bottom, window.innerHeight);
    let fits = 0;
    for (const item of items) {
      if (item.getBoundingClientRect().bottom > bottom + 1) break;
      fits += 1;
    }
    return Math.max(1, fits);
  }

  function label(list, page, pages) {
    const label = document.querySelector(`[data-page-of="${list.id}"]`);
    if (label) {
      label.textContent = pages > 1
        ? label.dataset.text.replace("{page}", String(page + 1)).replace("{pages}", String(pages))
        : "";
    }
  }

  function layout(list) {
    const items = Array.from(list.children);
    let size = pageSize(list);
    let pages = Math.max(1, Math.ceil(items.length / size));
    const page = (shown[list.id] || 0) % pages;
    // The "Page 1 of 2" label can take room from the list: measured again with it shown, so
    // the last row of a page is never cut and shown again on the next.
    label(list, page, pages);
    size = pageSize(list);
    pages = Math.max(1, Math.ceil(items.length / size));
    shown[list.id] = page % pages;
    items.forEach((item, index) => {
      item.hidden = index < shown[list.id] * size || index >= (shown[list.id] + 1) * size;
    });
    list.dataset.page = String(shown[list.id] + 1);
    list.dataset.pages = String(pages);
    label(list, shown[list.id], pages);
  }

  function layoutAll() {
    document.querySelectorAll("[data-paged]").forEach(layout);
  }

  function flip() {
    document.querySelectorAll("[data-paged]").forEach((list) => {
      shown[list.id] = (shown[list.id] || 0) + 1;
      layout(list);
    });
  }

  function tick() {
    const clock = document.querySelector("[data-clock]");
    if (clock) {
      clock.textContent = new Date().toLocaleTimeString(document.documentElement.lang || [], {
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23", // 15:14 in every language, as the site's own times read
      });
    }
  }

  function start() {
    layoutAll();
    tick();
    setInterval(flip, FLIP_SECONDS * 1000);
    setInterval(tick, 15 * 1000);
    window.addEventListener("resize", layoutAll);
    document.body.addEventListener("htmx:afterSwap", layoutAll);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
