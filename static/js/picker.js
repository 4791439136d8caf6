// The manage page's player picker. Without script it is a plain search form (the server
// narrows the list); with it, the list narrows as one types, and ticking "Show guests of
// past events" asks the server for the longer list at once.

const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

document.querySelectorAll("input[data-picker-filter]").forEach((box) => {
  const select = document.getElementById(box.dataset.pickerFilter);
  if (!select) return;
  // The blank choice (a guest typed by name) always stays; the groups keep their order.
  const blank = Array.from(select.children).filter((child) => child.tagName === "OPTION");
  const groups = Array.from(select.querySelectorAll("optgroup")).map((group) => ({
    group,
    options: Array.from(group.children),
  }));
  const narrow = () => {
    const wanted = fold(box.value.trim());
    const shown = [];
    groups.forEach(({ group, options }) => {
      const matching = options.filter((option) => fold(option.textContent).includes(wanted));
      group.replaceChildren(...matching);
      if (matching.length) shown.push(group);
    });
    select.replaceChildren(...blank, ...shown);
    // The best match is picked, so "Check in" takes the player typed.
    const first = shown.length ? shown[0].firstElementChild : null;
    select.value = wanted && first ? first.value : "";
  };
  box.addEventListener("input", narrow);
  box.addEventListener("keydown", (event) => {
    // The list is already narrowed here: Enter moves on to it instead of reloading the page.
    if (event.key !== "Enter") return;
    // Nothing listed matches: the form goes to the server, whose search also looks among
    // the guests of past events the list leaves out.
    if (box.value.trim() && !select.value) return;
    event.preventDefault();
    select.focus();
  });
});

document.addEventListener("change", (event) => {
  const toggle = event.target.closest("input[data-picker-toggle]");
  if (!toggle || !toggle.form) return;
  if (toggle.form.requestSubmit) toggle.form.requestSubmit();
  else toggle.form.submit();
});
