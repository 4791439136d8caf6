// The service worker of one table's page (scoring/install.py): its scope is that table's
// link, so it keeps that page and the site's files, and nothing of any other table.
// The page: from the network, else the copy kept when it last loaded. A save or a
// confirmation that cannot reach the server is kept in the queue (static/js/offline-queue.js)
// and the phone is shown its page again, which lists it as waiting to send.
const CONFIG = {{ config }};
importScripts(CONFIG.queue);

const PAGE = CONFIG.page;
const CACHE = CONFIG.cache;
const ASSETS = new Set(CONFIG.assets);
const QUEUED = /\/deals\/\d+\/(confirm\/)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([...ASSETS])).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // This table's older caches go (a new version of the site's files); other tables' stay theirs.
  event.waitUntil(
    caches.keys().then((names) => Promise.all(
      names.filter((name) => name.startsWith(CONFIG.prefix) && name !== CACHE).map((name) => caches.delete(name)),
    )).then(() => self.clients.claim()),
  );
});

// The kept copy says it is one (data-source), so the page does not take it for the server's
// word on what landed.
async function keepPage(cache, response) {
  if (response.status !== 200 || response.redirected) return;
  const html = (await response.clone().text()).replace('data-source="network"', 'data-source="kept"');
  await cache.put(PAGE, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }));
}

// The page swapped in the table's main part a save was answered with (static/js/offline.js):
// the kept copy shows it too, spliced in where the page's own markers say, so a visit with no
// network opens on the deal the table is at, not the one of the last whole page.
const MAIN = /<!--lappu:main-->[\s\S]*<!--\/lappu:main-->/;
self.addEventListener("message", (event) => {
  if (!event.data || event.data.lappu !== "part" || typeof event.data.html !== "string") return;
  event.waitUntil(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(PAGE);
    if (!kept) return;
    const html = await kept.text();
    if (!MAIN.test(html)) return;
    const part = `<!--lappu:main-->${event.data.html}<!--/lappu:main-->`;
    await cache.put(PAGE, new Response(html.replace(MAIN, () => part), { headers: { "Content-Type": "text/html; charset=utf-8" } }));
  }));
});

// A page loaded before this worker ran (the first visit, a page opened while it installed)
// asks to be run by it and for its copy to be kept; every later visit is kept as it passes
// (page() below).
self.addEventListener("message", (event) => {
  if (!event.data || event.data.lappu !== "keep") return;
  event.waitUntil(caches.open(CACHE).then(async (cache) => {
    await self.clients.claim();
    const response = await fetch(PAGE, { credentials: "same-origin" }).catch(() => null);
    if (response) await keepPage(cache, response);
  }));
});

function withTimeout(request, seconds) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), seconds * 1000);
  return fetch(request, { signal: stop.signal }).finally(() => clearTimeout(timer));
}

async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await withTimeout(request, CONFIG.page_seconds);
    await keepPage(cache, response);
    return response;
  } catch (error) {
    const kept = await cache.match(PAGE);
    if (kept) return kept;
    throw error;
  }
}

async function postOrQueue(request) {
  const copy = request.clone();
  try {
    return await withTimeout(request, CONFIG.post_seconds);
  } catch (error) {
    const form = await copy.formData();
    const fields = [...form.entries()].filter(([, value]) => typeof value === "string");
    await LappuQueue.add(LappuQueue.itemOf(CONFIG.key, copy.url, fields));
    if (self.registration.sync) self.registration.sync.register("lappu-queue").catch(() => {});
    return Response.redirect(PAGE, 303);
  }
}

async function asset(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept && CONFIG.assets_first) return kept;
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST" && url.pathname.startsWith(PAGE) && QUEUED.test(url.pathname)) {
    event.respondWith(postOrQueue(request));
  } else if (request.mode === "navigate" && request.method === "GET" && url.pathname === PAGE) {
    event.respondWith(page(request));
  } else if (request.method === "GET" && ASSETS.has(url.pathname)) {
    event.respondWith(asset(request));
  }
});

// Background sync, where the browser has it: the queue goes as soon as the network is back,
// page open or not; an open page then shows what landed.
self.addEventListener("sync", (event) => {
  if (event.tag !== "lappu-queue") return;
  event.waitUntil(LappuQueue.flush(CONFIG.key).then(async (result) => {
    const pages = await self.clients.matchAll({ type: "window" });
    pages.forEach((client) => client.postMessage({ lappu: "flushed", result }));
    if (result === "later") throw new Error("the queue waits for the network");
  }));
});
