// Tap-to-enter: a rank button appends its card to the hand's field; ⌫ removes the last one.
// The field stays a plain text input, so typing works just as well and nothing needs JS.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.tap");
  if (!button) return;
  const row = button.closest(".tap-row");
  const input = document.getElementById(row.dataset.target);
  if (!input) return;
  const tokens = input.value.trim() ? input.value.trim().split(/[\s,]+/) : [];
  if (button.dataset.card) tokens.push(button.dataset.card);
  else tokens.pop();
  input.value = tokens.join(" ");
  input.dispatchEvent(new Event("input", { bubbles: true }));
});
