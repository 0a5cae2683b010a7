// The script every console page loads (no build step, nothing from elsewhere). Pages
// work without it; it only adds conveniences: a confirm step on buttons that say so,
// and focus on the field a page marks with data-autofocus.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const first = document.querySelector("[data-autofocus]");
  if (first) { first.focus(); }
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); }
    });
  }
});

// The round clock: each [data-ends-at] counts down (h:mm:ss or m:ss) and says when a table
// runs over; the times themselves come from the clock read model.
function clockText(seconds) {
  const s = Math.abs(seconds), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  const shown = h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
  return seconds >= 0 ? `${shown} left` : `${shown} over time`;
}
function tickClocks() {
  for (const el of document.querySelectorAll("[data-ends-at]")) {
    const left = Math.round((Date.parse(el.dataset.endsAt) - Date.now()) / 1000);
    el.textContent = clockText(left);
    el.classList.toggle("over", left < 0);
  }
}
document.addEventListener("DOMContentLoaded", () => {
  if (document.querySelector("[data-ends-at]")) { tickClocks(); setInterval(tickClocks, 1000); }
});
