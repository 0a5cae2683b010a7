// The console's own script (no build step, nothing from elsewhere). Pages work without
// it; it only adds conveniences: a confirm step on buttons that say so, and focus on the
// field a page marks with data-autofocus; a field also marked data-select (a refused
// entry) has its text selected, so the next number typed replaces it rather than
// joining it. The countdowns are the pages' shared /static/countdown.js.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const first = document.querySelector("[data-autofocus]");
  if (first) {
    first.focus();
    if (first.hasAttribute("data-select") && typeof first.select === "function") { first.select(); }
  }
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); }
    });
  }
});
