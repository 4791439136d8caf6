// The door's check-in page: the list narrows as a name is typed, a tap checks in through
// htmx (the form posts plainly without script), and the Scan button reads a player's code
// with the camera (jsQR, vendored: no CDN) and checks them in by it.

// Typed text as the site compares names (tournaments/names.py name_key): no case, no
// accents, single spaces.
function nameKey(text) {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
}

const search = document.querySelector("[data-checkin-search]");
const list = document.getElementById("checkin-list");
const none = document.getElementById("checkin-none");

function narrow() {
  if (!search || !list) return;
  const key = nameKey(search.value);
  let shown = 0;
  list.querySelectorAll("li.checkin-row").forEach((row) => {
    const match = !key || row.dataset.key.includes(key);
    row.hidden = !match;
    if (match) shown += 1;
  });
  if (none) none.hidden = shown > 0;
}
if (search) {
  search.addEventListener("input", narrow);
  narrow();
}

// After a check-in found by a search, the box is emptied and ready for the next name: the
// next person is a few letters and one tap again.
// (htmx:load: the swapped-in row announces itself; the form that asked is gone by then.)
document.addEventListener("htmx:load", (event) => {
  const row = event.detail.elt;
  if (!search || !row || !row.classList || !row.classList.contains("checkin-row")) return;
  if (search.value && row.classList.contains("here")) {
    search.value = "";
    narrow();
    search.focus();
  }
});

// The scanner.
const scanner = document.getElementById("scanner");
if (scanner && window.jsQR) {
  scanner.hidden = false;
  const start = document.getElementById("scan-start");
  const stop = document.getElementById("scan-stop");
  const video = document.getElementById("scan-video");
  const message = document.getElementById("scan-message");
  const canvas = document.createElement("canvas");
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
  let stream = null;
  let timer = null;
  let busy = false;
  let lastCode = "";

  const say = (text, ok) => {
    message.textContent = text;
    message.className = ok === undefined ? "" : ok ? "ok" : "error";
  };

  const halt = () => {
    if (timer) clearInterval(timer);
    timer = null;
    if (stream) stream.getTracks().forEach((track) => track.stop());
    stream = null;
    video.hidden = true;
    stop.hidden = true;
    start.hidden = false;
  };

  const send = async (code) => {
    busy = true;
    const body = new URLSearchParams({ code });
    try {
      const response = await fetch(scanner.dataset.scanUrl, {
        method: "POST",
        body,
        headers: { Accept: "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
        credentials: "same-origin",
      });
      const answer = await response.json();
      say(answer.message, answer.ok);
      if (answer.ok) {
        const row = document.getElementById(`checkin-${answer.id}`);
        if (row) row.outerHTML = answer.row;
        const count = document.getElementById("checkin-count");
        if (count) count.outerHTML = answer.count;
        const absent = document.getElementById("absent");
        if (absent) absent.outerHTML = answer.absent;
        if (window.htmx) window.htmx.process(document.getElementById(`checkin-${answer.id}`) || document.body);
      }
    } catch (error) {
      say(scanner.dataset.failed, false);
      lastCode = "";
    } finally {
      busy = false;
    }
  };

  const look = () => {
    if (busy || video.readyState < 2 || !video.videoWidth) return;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    const found = window.jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" });
    // One code is sent once while it stays in front of the camera.
    if (found && found.data && found.data !== lastCode) {
      lastCode = found.data;
      send(found.data);
    }
  };

  start.addEventListener("click", async () => {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      say(scanner.dataset.noCamera, false);
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (error) {
      say(scanner.dataset.cameraRefused, false);
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    start.hidden = true;
    stop.hidden = false;
    lastCode = "";
    say(scanner.dataset.looking);
    await video.play().catch(() => {});
    timer = setInterval(look, 200);
  });
  stop.addEventListener("click", halt);
}
