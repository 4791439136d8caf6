// The entry page's taps and folds. Every field stays a plain input that can be typed in and
// posts as it is; without script the page is one long form with every hand open, and the
// tap keys do nothing. The Content-Security-Policy refuses inline script and styles: this
// file is the page's only behaviour, and it sets classes and attributes, never a style.

(() => {
const SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_OF_SIGN = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
const JOKER_WORDS = new Set(["JK", "X", "*", "JOKER", "JOKERI", "ZSÓKER", "ZSOKER", "🃏"]);

function tokensOf(input) {
  const text = input.value.trim();
  return text ? text.split(/[\s,]+/) : [];
}

// The canonical code of one typed token ("th" → "10H", "♠a" → "AS", "x" → "JK"), or null
// for anything else (a run's shorthand, a word): the engine reads those, the keys do not
// show them.
function cardOf(token) {
  const text = token.toUpperCase();
  if (JOKER_WORDS.has(text)) return "JK";
  const match = text.match(/^(10|T|[2-9AJQK])([SHDC♠♥♦♣])$/) || text.match(/^([♠♥♦♣])(10|T|[2-9AJQK])$/);
  if (!match) return null;
  const [rank, suit] = match[1] in SUIT_OF_SIGN ? [match[2], match[1]] : [match[1], match[2]];
  return (rank === "T" ? "10" : rank) + (SUIT_OF_SIGN[suit] || suit);
}

function setValue(input, tokens) {
  input.value = tokens.join(" ");
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

// -- a contract hand's rank keys: a tap appends the rank (or a whole card: a joker, a black
// two); ⌫ removes the last card.
function rankTap(row, button) {
  const input = document.getElementById(row.dataset.target);
  if (!input) return;
  const tokens = tokensOf(input);
  if (button.dataset.card) tokens.push(button.dataset.card);
  else tokens.pop();
  setValue(input, tokens);
}

// -- a Römi hand's card grid. A tap adds the card; where the decks hold one copy the same
// tap takes it out again, where they hold two it adds the second, and a third takes both
// out. A single card (the upper card, the knock card) is replaced by the next tap. The
// joker key adds a joker each tap; ⌫ removes the last card, whatever it was.
function gridTap(entry, button) {
  const input = document.getElementById(entry.dataset.target);
  if (!input) return false;
  const card = button.dataset.card;
  let tokens = tokensOf(input);
  let added = false;
  if (!card) tokens.pop();
  else if (entry.dataset.single) {
    const same = tokens.length === 1 && cardOf(tokens[0]) === card;
    tokens = same ? [] : [card];
    added = !same;
  } else if (card === "JK") {
    tokens.push(card);
    added = true;
  } else {
    const copies = Number(entry.dataset.copies) || 1;
    const held = tokens.filter((token) => cardOf(token) === card).length;
    if (held >= copies) tokens = tokens.filter((token) => cardOf(token) !== card);
    else tokens.push(card);
    added = held < copies;
  }
  setValue(input, tokens);
  return added;
}

// The keys show what the field holds, typed or tapped: pressed, and ×2 for a second copy.
function syncGrid(entry) {
  const input = document.getElementById(entry.dataset.target);
  if (!input) return;
  const held = new Map();
  tokensOf(input).forEach((token) => {
    const card = cardOf(token);
    if (card) held.set(card, (held.get(card) || 0) + 1);
  });
  entry.querySelectorAll("button[data-card]").forEach((button) => {
    const count = held.get(button.dataset.card) || 0;
    if (button.classList.contains("card")) button.setAttribute("aria-pressed", String(count > 0));
    if (count > 1 || (count && button.classList.contains("joker"))) {
      button.dataset.count = String(count);
      if (button.classList.contains("card")) button.setAttribute("aria-description", entry.dataset.two);
    } else {
      delete button.dataset.count;
      button.removeAttribute("aria-description");
    }
  });
}

// -- the card grid with the keyboard: one tab stop, not 52. Its last focused key (at first
// its first) is the one Tab reaches; the arrows move along a suit's row (Left, Right, Home,
// End) and between the suits' rows (Up, Down, to the same rank); Enter and Space press a
// key as a tap does, as every button's do. The joker and ⌫ keys stay stops of their own.
// Without script every key is a stop of its own.
const MOVES = {
  ArrowLeft: (row, column) => [row, column - 1],
  ArrowRight: (row, column) => [row, column + 1],
  ArrowUp: (row, column) => [row - 1, column],
  ArrowDown: (row, column) => [row + 1, column],
  Home: (row) => [row, 0],
  End: (row, _column, columns) => [row, columns - 1],
};

function gridKeys(grid) {
  return [...grid.querySelectorAll("button.card")];
}

function makeStop(grid, key) {
  gridKeys(grid).forEach((each) => {
    each.tabIndex = each === key ? 0 : -1;
  });
}

function gridMove(event) {
  const key = event.target.closest("button.card");
  const grid = key && key.closest(".card-grid");
  const move = MOVES[event.key];
  if (!grid || !move || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = gridKeys(grid);
  const columns = keys.length / 4; // a row per suit, each of the same ranks
  const index = keys.indexOf(key);
  const [row, column] = move(Math.floor(index / columns), index % columns, columns);
  event.preventDefault();
  if (row < 0 || row >= 4 || column < 0 || column >= columns) return; // at an edge: stay
  const next = keys[row * columns + column];
  makeStop(grid, next);
  next.focus();
}

document.addEventListener("keydown", gridMove);
// A key tapped or reached otherwise is where Tab comes back to.
document.addEventListener("focusin", (event) => {
  const key = event.target.closest && event.target.closest(".card-grid button.card");
  if (key) makeStop(key.closest(".card-grid"), key);
});

// -- one hand open at a time. The folds of the form (the upper card, each hand) show a
// one-line summary while closed; the next opens when one is done: a Römi hand when its
// cards are all in, any hand by its "Next hand" key or by tapping another's summary. A hand
// with nothing to enter (who went out, the winner) is passed over and shown closed.
// The page's entry form and its folds: set up on opening, and again when the table's main
// part is swapped in with a new form (a save's answer, static/js/offline.js).
let form = null;
let folds = [];

function checkedValue(name) {
  const picked = form.querySelector(`input[name="${name}"]:checked`);
  return picked ? picked.value : null;
}

function holds(condition) {
  if (!condition) return false;
  const [name, value] = condition.split("=");
  return checkedValue(name) === value;
}

// Why a fold needs no entry, or "" when it does. A fold that is needed only on some
// answers (Gin's upper card: a knock's limit, of no use to a römi or a void deal) says which
// in data-needed-if ("ending=knock ending=romi"); the hands say whose need none.
function skipNote(fold) {
  const needed = fold.dataset.neededIf;
  // Not yet answered: needed, as on the form's own default answer.
  const asked = needed && checkedValue(needed.split("=")[0]) !== null;
  if (asked && !needed.split(" ").some(holds)) return fold.dataset.skipNote || " ";
  const hands = fold.closest(".hands");
  if (!hands) return "";
  if (holds(hands.dataset.skipAllIf)) return hands.dataset.skipAllNote || " ";
  if (hands.dataset.skipIf && !holds(hands.dataset.skipIf)) return "";
  const picked = checkedValue(hands.dataset.skip);
  return picked !== null && picked === fold.dataset.seat ? hands.dataset.skipNote || " " : "";
}

function cardsInput(fold) {
  const entry = fold.querySelector(".card-entry, .tap-row");
  return entry ? document.getElementById(entry.dataset.target) : null;
}

function pointsInput(fold) {
  return fold.querySelector("input[name$=_points]");
}

// Whether a fold holds all it needs: all its cards, or its points typed instead.
function isDone(fold) {
  const size = Number(fold.dataset.size);
  const input = cardsInput(fold);
  const points = pointsInput(fold);
  if (points && points.value.trim()) return true;
  return Boolean(size && input && tokensOf(input).length >= size);
}

function hasError(fold) {
  return Boolean(fold.querySelector(".field-errors .error, [aria-invalid=true]"));
}

function show(fold, { focus = false } = {}) {
  folds.forEach((each) => {
    const opened = each === fold;
    each.classList.toggle("open", opened);
    each.querySelector(".fold-body").hidden = !opened;
    each.querySelector(".fold-summary").setAttribute("aria-expanded", String(opened));
  });
  if (!fold) return;
  const summary = fold.querySelector(".fold-summary");
  if (focus) summary.focus({ preventScroll: true });
  summary.scrollIntoView({ block: "nearest" });
}

function openFold() {
  return folds.find((fold) => fold.classList.contains("open")) || null;
}

// The fold to open after `fold` (or the first one): the next that needs an entry.
function nextOf(fold, { skipDone = false } = {}) {
  const after = folds.slice(fold ? folds.indexOf(fold) + 1 : 0);
  return after.find((each) => !skipNote(each) && !(skipDone && isDone(each))) || null;
}

function firstToOpen() {
  return folds.find(hasError) || nextOf(null, { skipDone: true });
}

function cardText(token) {
  const card = cardOf(token);
  if (!card || card === "JK") return [token, false];
  const suit = card.slice(-1);
  return [card.slice(0, -1) + SIGNS[suit], suit === "H" || suit === "D"];
}

function summarise(fold) {
  const cards = fold.querySelector(".fold-cards");
  cards.replaceChildren();
  const input = cardsInput(fold);
  tokensOf(input || { value: "" }).forEach((token) => {
    const [text, red] = cardText(token);
    const span = document.createElement("span");
    span.textContent = text;
    if (red) span.className = "red";
    cards.append(span, " ");
  });
  const note = skipNote(fold).trim();
  fold.querySelector(".fold-note").textContent = note;
  fold.classList.toggle("skipped", Boolean(note));
  fold.classList.toggle("has-error", hasError(fold));
  const points = pointsInput(fold);
  const value = fold.dataset.scored || (points ? points.value.trim() : "");
  fold.querySelector(".fold-value").textContent = value;
  fold.querySelector(".fold-points").hidden = !value;
}

function refresh() {
  folds.forEach(summarise);
  folds.forEach((fold) => {
    const next = fold.querySelector(".fold-next");
    if (next) next.hidden = !nextOf(fold);
  });
}

// The live check scores the deal once it is right; its rows are the seats in order, each
// "name: points", and each hand's summary shows its own.
function takeScores() {
  const hands = folds.filter((fold) => fold.dataset.seat !== undefined);
  const rows = [...document.querySelectorAll("#check .check.ok li")];
  hands.forEach((fold, index) => {
    const row = rows.length === hands.length ? rows[index].textContent : "";
    if (row) fold.dataset.scored = row.slice(row.lastIndexOf(":") + 1).trim();
    else delete fold.dataset.scored;
  });
  refresh();
}

function setup() {
  document.querySelectorAll(".card-grid").forEach((grid) => makeStop(grid, gridKeys(grid)[0]));
  document.querySelectorAll(".card-entry").forEach(syncGrid);
  form = document.querySelector("form.entry");
  folds = form ? [...form.querySelectorAll(".fold")] : [];
  if (!form || folds.length < 2) return;
  form.classList.add("one-hand");
  folds.forEach((fold) => {
    fold.querySelector(".fold-summary").hidden = false;
  });
  refresh();
  show(firstToOpen());
}

// Whether `event` happened in the form whose hands are folded one at a time.
function inFolds(event) {
  return folds.length > 1 && event.target.closest && event.target.closest("form.entry") === form;
}

document.addEventListener("change", (event) => {
  if (!inFolds(event) || event.target.type !== "radio") return;
  folds.forEach((fold) => delete fold.dataset.scored);
  refresh();
  // Who went out, the winner, a römi or a void: a hand that now needs nothing closes.
  const current = openFold();
  if (current && skipNote(current)) show(nextOf(current) || nextOf(null));
  else if (!current) show(nextOf(null, { skipDone: true }));
});
// -- the live check's answers. A hand typed in loses its error lines at once (the whole
// hand's: an empty hand's "cards or points" sits under its cards, whichever is typed; the
// next answer says again what is still wrong), and an answer asked before the latest edit is
// dropped, error lines and all: it is about the deal as it was, and would put back an error
// just fixed and move "Next hand" from under the finger about to tap it.
let edits = 0;
document.addEventListener("input", (event) => {
  const input = event.target;
  if (!input.closest || !input.closest("form.entry")) return;
  edits += 1;
  const hand = input.closest(".fold");
  const own = input.name && document.getElementById(`err-${input.name}`);
  const lines = hand ? [...hand.querySelectorAll(".field-errors")] : [own].filter(Boolean);
  lines.forEach((each) => each.replaceChildren());
  const marked = hand ? [...hand.querySelectorAll("[aria-invalid]")] : [input];
  marked.forEach((each) => each.removeAttribute("aria-invalid"));
});
// A form emptied for the next deal (static/js/offline.js queued this one): an answer still
// on its way is about a deal no longer on the page.
document.addEventListener("reset", (event) => {
  if (event.target.matches && event.target.matches("form.entry")) edits += 1;
});
document.addEventListener("htmx:beforeRequest", (event) => {
  const { elt, xhr } = event.detail;
  if (xhr && elt.matches && elt.matches("form.entry")) xhr.lappuEdits = edits;
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (xhr && xhr.lappuEdits !== undefined && xhr.lappuEdits !== edits) event.detail.shouldSwap = false;
});

// A change makes the check's points stale until it answers again.
document.addEventListener("input", (event) => {
  if (!inFolds(event)) return;
  folds.forEach((fold) => delete fold.dataset.scored);
  refresh();
});
document.addEventListener("htmx:afterSwap", (event) => {
  const target = event.detail && event.detail.target;
  if (folds.length > 1 && target && target.id === "check") takeScores();
});
// Emptied for the next deal (an entry queued with no network, static/js/offline.js): the
// keys and folds show the blank form, its first hand open.
document.addEventListener("reset", (event) => {
  if (!inFolds(event)) return;
  setTimeout(() => {
    document.querySelectorAll(".card-entry").forEach(syncGrid);
    folds.forEach((fold) => delete fold.dataset.scored);
    refresh();
    show(firstToOpen());
  });
});

// A deal saved on another phone meanwhile waits for confirmation (the table's poll brings
// it): the server offers no new deal's form while one waits, so neither does this page, or
// the confirming phone would show an empty form under its Confirm button. A form something
// was typed into stays (the server answers what it sends); once the waiting deal is
// confirmed the page is asked again for the next deal's form.
function askAgain() {
  // The table's main part again (static/js/offline.js), else the whole page.
  const asked = new CustomEvent("lappu:refresh", { cancelable: true });
  if (document.dispatchEvent(asked)) location.reload();
}

function holdBackWhileWaiting() {
  const waiting = Boolean(document.querySelector("#table-live [data-waiting]"));
  const entry = document.querySelector("form.entry[data-queue=deal]");
  // A page built while a deal waited has no form (data-held): once it is confirmed, it asks.
  const held = document.querySelector(".table-part[data-held]");
  if (!entry && held && !waiting) {
    delete held.dataset.held;
    askAgain();
  }
  if (!entry || entry.elements.expected_version.value !== "0" || entry.dataset.typed) return;
  const heading = document.getElementById("deal-heading");
  if (waiting) {
    entry.hidden = true;
    if (heading) heading.hidden = true;
    entry.dataset.heldBack = "1";
  } else if (entry.dataset.heldBack) {
    askAgain();
  }
}
document.addEventListener("input", (event) => {
  const entry = event.target.closest("form.entry");
  if (entry) entry.dataset.typed = "1";
});
document.addEventListener("reset", (event) => {
  if (event.target.matches("form.entry")) delete event.target.dataset.typed;
});
document.addEventListener("htmx:afterSettle", (event) => {
  const target = event.detail && event.detail.target;
  if (target && target.id === "table-live") holdBackWhileWaiting();
});

document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  const fold = button.closest(".fold");
  if (button.classList.contains("fold-summary")) {
    show(fold.classList.contains("open") ? null : fold);
  } else if (button.classList.contains("fold-next")) {
    show(nextOf(fold), { focus: true });
  } else if (button.closest(".card-entry") && button.dataset.card !== undefined) {
    const entry = button.closest(".card-entry");
    const added = gridTap(entry, button);
    // A hand whose cards are all in opens the next; so does the upper card once tapped.
    if (added && fold && form && form.classList.contains("one-hand") && isDone(fold)) {
      show(nextOf(fold, { skipDone: true }), { focus: true });
    }
  } else if (button.closest(".tap-row") && button.dataset.card !== undefined) {
    rankTap(button.closest(".tap-row"), button);
  }
});

// Typing shows on the keys as tapping does.
document.addEventListener("input", (event) => {
  const id = event.target.id;
  const entry = id && document.querySelector(`.card-entry[data-target="${CSS.escape(id)}"]`);
  if (entry) syncGrid(entry);
});
document.addEventListener("lappu:swapped", setup);
setup();
})();
