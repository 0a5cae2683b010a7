// The public pages' live script (commands/pages/public.py): it filters the tables as a
// visitor types, follows the tournament's live stream and swaps in the page's content
// when the seq moves, or polls every data-poll seconds when the stream fails. Its data
// are the page's data-* attributes; the countdowns are countdown.js's. The projector's
// clock page has no search field.
(function () {
  "use strict";
  var page = document.getElementById("page");
  var content = document.getElementById("content");
  var input = document.getElementById("q");
  var state = document.getElementById("live-state");
  var contentUrl = page.getAttribute("data-content");
  var etag = page.getAttribute("data-etag");
  // a page served for ?q= holds only the tables found: the first refresh fetches them all
  var whole = !input || !input.value;
  var pollMs = Number(page.getAttribute("data-poll")) * 1000;
  var timer = null, poll = null, last = 0;

  // As commands.reads.people.folded: case folded, decomposed, combining marks removed.
  function fold(text) {
    return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").replace(/\u00df/g, "ss");
  }

  function apply() {
    if (!input) { return; }
    var q = fold(input.value.trim());
    var matches = content.querySelectorAll("li.match");
    var shown = 0;
    for (var i = 0; i < matches.length; i++) {
      var hit = !q || matches[i].getAttribute("data-search").indexOf(q) >= 0;
      matches[i].hidden = !hit;
      if (hit) { shown++; }
      var players = matches[i].querySelectorAll(".player");
      for (var j = 0; j < players.length; j++) {
        var found = q !== "" && players[j].getAttribute("data-search").indexOf(q) >= 0;
        players[j].classList.toggle("hit", found);
      }
    }
    var nobody = content.querySelector(".nobody");
    if (nobody) {
      nobody.hidden = !(q && matches.length && !shown);
      nobody.querySelector(".q").textContent = input.value.trim();
    }
  }

  function refresh() {
    var headers = whole && etag ? { "If-None-Match": etag } : {};
    return fetch(contentUrl, { headers: headers, cache: "no-store", credentials: "omit" })
      .then(function (answer) {
        if (answer.status === 404 || answer.status === 503) { location.reload(); return; }
        if (answer.status !== 200) { return; }
        var tag = answer.headers.get("ETag");
        return answer.text().then(function (html) {
          content.innerHTML = html;
          etag = tag;
          whole = true;
          apply();
        });
      })
      .catch(function () {});
  }

  // Many phones follow one stream: each waits a moment of its own, and at most one
  // refresh per five seconds, so a burst of results is one fetch per phone.
  function soon() {
    if (timer) { return; }
    var wait = Math.max(0, last + 5000 - Date.now()) + Math.random() * 1500;
    timer = setTimeout(function () { timer = null; last = Date.now(); refresh(); }, wait);
  }

  function shownSeq() {
    var view = document.getElementById("view");
    return view ? view.getAttribute("data-seq") : "";
  }

  function polling(on) {
    if (on && !poll) { poll = setInterval(refresh, pollMs); }
    if (!on && poll) { clearInterval(poll); poll = null; }
    state.textContent = state.getAttribute(on ? "data-poll-text" : "data-live-text");
  }

  function remember() {
    var url = new URL(location.href);
    var q = input.value.trim();
    if (q) { url.searchParams.set("q", q); } else { url.searchParams.delete("q"); }
    history.replaceState(null, "", url);
  }

  if (input) {
    input.addEventListener("input", function () {
      if (whole) { apply(); } else { refresh(); }
      remember();
    });
    document.getElementById("search").addEventListener("submit", function (event) {
      event.preventDefault();
      input.blur();
      if (whole) { apply(); } else { refresh(); }
      remember();
    });
  }

  // a page served for ?q= holds only the tables found: fetch them all at once
  if (!whole) { refresh(); }
  if (window.EventSource) {
    var source = new EventSource(page.getAttribute("data-live"));
    source.onmessage = function (event) {
      var head = JSON.parse(event.data);
      if (String(head.seq) !== shownSeq()) { soon(); }
    };
    source.onopen = function () { polling(false); };
    source.onerror = function () { polling(true); };
  } else {
    polling(true);
  }
})();
