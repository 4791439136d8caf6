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
