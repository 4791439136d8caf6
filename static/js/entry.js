// Tap-to-enter. A rank button appends its card to the field the row belongs to; in a
// suited row (Römi hands, the upper and knock cards) a suit is tapped first and stays
// chosen. ⌫ removes the last card. The field stays a plain text input: typing works as
// well, and nothing needs script.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.tap, button.suit");
  if (!button) return;
  const row = button.closest(".tap-row");
  const input = document.getElementById(row.dataset.target);
  if (!input) return;
  if (button.classList.contains("suit")) {
    row.dataset.suit = button.dataset.suit;
    row.querySelectorAll("button.suit").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
    return;
  }
  let card = button.dataset.card;
  if (card && row.classList.contains("suited") && !button.dataset.whole) {
    if (!row.dataset.suit) {
      row.querySelector("button.suit").focus();
      row.classList.add("needs-suit");
      setTimeout(() => row.classList.remove("needs-suit"), 800);
      return;
    }
    card += row.dataset.suit;
  }
  let tokens = input.value.trim() ? input.value.trim().split(/[\s,]+/) : [];
  if (!card) tokens.pop();
  else if (row.dataset.single) tokens = [card];
  else tokens.push(card);
  input.value = tokens.join(" ");
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
