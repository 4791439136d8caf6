// A table's offline queue: the saves and confirmations a phone made while the network was
// gone, kept in IndexedDB (they survive closing the browser) until they are sent. Shared by
// the table's page (static/js/offline.js) and its service worker (scoring/install.py), which
// both add to it and both send it, oldest first, with the request id and version each save
// was made with: the server records a replay once and answers a changed deal as a conflict.

/* exported LappuQueue */
const LappuQueue = (() => {
  const DB = "lappu-offline";
  const STORE = "queue";
  // What a refused send means for the phone (the server's statuses, scoring/views.py).
  const PROBLEMS = { 403: "forbidden", 404: "gone", 409: "stale", 410: "gone", 422: "refused" };
  const ADDRESS = /\/deals\/(\d+)\/(confirm\/)?$/;
  const PART = "X-Lappu-Part";

  function open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
        store.createIndex("key", "key");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  // One transaction on the store; resolves with what `work` returned (a request's result).
  async function run(mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => {
        db.close();
        resolve(request ? request.result : undefined);
      };
      tx.onerror = tx.onabort = () => {
        db.close();
        reject(tx.error);
      };
    });
  }

  async function items(key) {
    const list = (await run("readonly", (store) => store.index("key").getAll(key))) || [];
    return list.sort((a, b) => a.seq - b.seq);
  }

  const put = (item) => run("readwrite", (store) => store.put(item));
  const remove = (item) => run("readwrite", (store) => store.delete(item.seq));

  // The item for a form posted to `url` (a deal's save or confirmation) with `fields`.
  function itemOf(key, url, fields) {
    const match = new URL(url, "http://x").pathname.match(ADDRESS);
    const requestId = (fields.find(([name]) => name === "request_id") || [])[1] || "";
    return {
      key,
      url,
      fields,
      requestId,
      kind: match && match[2] ? "confirm" : "deal",
      number: match ? Number(match[1]) : 0,
      state: "waiting",
      problem: "",
      at: Date.now(),
    };
  }

  // Adds `item`, or sets the queued one with its request id waiting again (a retry).
  async function add(item) {
    const same = (await items(item.key)).find((each) => each.requestId === item.requestId);
    await put(same ? { ...same, fields: item.fields, state: "waiting", problem: "" } : item);
  }

  // Posts `fields` to `url` as the table page's own script does: with the header that asks
  // for the page's main part instead of a redirect to the whole page (scoring/views.py).
  function post(url, fields, signal) {
    return fetch(url, {
      method: "POST",
      body: new URLSearchParams(fields),
      credentials: "same-origin",
      headers: { [PART]: "1" },
      redirect: "manual",
      signal,
    });
  }

  // Whether the server recorded what was posted: it answers the page's main part marked
  // "sent", or (a server or page from before the part) the redirect to the table's page.
  const recorded = (response) => response.type === "opaqueredirect" || response.headers.get(PART) === "sent";

  // Sends one item: "sent" (the server recorded it: the answer above), "later" (no network,
  // a timeout, the server busy), or the problem it was refused for. `answer` is given the
  // server's answer when it was sent (the page swaps in the main part it carries).
  async function send(item, token, answer) {
    const fields = token ? item.fields.map(([n, v]) => [n, n === "csrfmiddlewaretoken" ? token : v]) : item.fields;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 20000);
    try {
      const response = await post(item.url, fields, stop.signal);
      if (recorded(response)) {
        if (answer) await answer(response);
        return "sent";
      }
      if (response.status === 429 || response.status >= 500) return "later";
      return PROBLEMS[response.status] || "other";
    } catch (error) {
      return "later";
    } finally {
      clearTimeout(timer);
    }
  }

  // Sends what waits for table `key`, oldest first, and stops at the first that cannot go:
  // "done" (all sent), "later", "failed" (one was refused now) or "blocked" (one refused
  // earlier waits to be opened or discarded): the later ones wait behind a refused one, since
  // each deal follows the one before. `token`: a fresh CSRF token to send them with;
  // `answer`: given each recorded answer (send above).
  async function flush(key, token, answer) {
    for (const item of await items(key)) {
      if (item.state === "sent") continue;
      if (item.state === "failed") return "blocked";
      const result = await send(item, token, answer);
      if (result === "later") return "later";
      if (result === "sent") {
        await put({ ...item, state: "sent" });
        continue;
      }
      await put({ ...item, state: "failed", problem: result });
      return "failed";
    }
    return "done";
  }

  return { items, put, remove, itemOf, add, flush, post, recorded, PART };
})();
