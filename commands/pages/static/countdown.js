// The round clock of every page that shows one: the public page, the projector's clock
// and the console. No data in it: each countdown is an element with data-ends (its end,
// ISO 8601 in UTC, from the clock read model), so the Content-Security-Policy needs no
// inline script.
//
// Each [data-ends] counts down every half second: m:ss, or h:mm:ss past an hour (then
// marked "long": more digits to fit), followed by its data-left words when it has them.
// At zero it is marked "over", as is the [data-clock] box around it, and says its
// data-over words; one with data-overrun counts the time since the end instead,
// followed by those words. Times of day are the server's, in the venue's zone and named
// (commands/pages/venue.py): a phone set to another zone shows the venue's clock.
//
// A device whose clock is off still counts down to the judges' end of round: the
// server's Date header (the answer to a HEAD of this script's own address) gives the
// server's time minus this device's, taken again every ten minutes while a countdown
// is shown. Content swapped in later (the public page's live updates) is counted at once.
(function () {
  "use strict";
  var source = document.currentScript.src;
  var skew = 0, synced = -Infinity;
  var RESYNC = 10 * 60 * 1000;

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function shown(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    return (h ? h + ":" + pad(m) : m) + ":" + pad(s);
  }

  function words(clock, left) {
    var over = left <= 0, overrun = clock.getAttribute("data-overrun");
    var after = clock.getAttribute("data-left");
    if (!over) { return shown(left) + (after ? " " + after : ""); }
    return overrun ? shown(-left) + " " + overrun : clock.getAttribute("data-over") || "";
  }

  function sync() {
    synced = Date.now();
    fetch(source, { method: "HEAD", cache: "no-store", credentials: "omit" })
      .then(function (answer) {
        var date = Date.parse(answer.headers.get("Date") || "");
        if (!isNaN(date)) { skew = date - Date.now(); tick(); }
      })
      .catch(function () {});
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-ends]");
    if (clocks.length && Date.now() - synced > RESYNC) { sync(); }
    var now = Date.now() + skew;
    for (var i = 0; i < clocks.length; i++) {
      var left = Math.ceil((Date.parse(clocks[i].getAttribute("data-ends")) - now) / 1000);
      var text = words(clocks[i], left);
      if (clocks[i].textContent !== text) { clocks[i].textContent = text; }
      clocks[i].classList.toggle("long", left >= 3600);
      clocks[i].classList.toggle("over", left <= 0);
      var box = clocks[i].closest("[data-clock]");
      if (box) { box.classList.toggle("over", left <= 0); }
    }
  }

  tick();
  setInterval(tick, 500);
  new MutationObserver(tick).observe(document.body, { childList: true, subtree: true });
})();
