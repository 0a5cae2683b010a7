// The slip report page's form (commands/pages/slip_report.py): the results are set
// aside while a no-show is chosen, and the tie question shows only when both players'
// numbers are level. The form works without it.
(function () {
  "use strict";
  var form = document.getElementById("report"), played = document.getElementById("played"),
      tie = document.getElementById("tie");
  if (!form || !played) { return; }
  function value(name) {
    var field = form.elements[name];
    return field ? field.value : "";
  }
  function update() {
    played.disabled = value("no_show") !== "";
    if (tie) {
      var kind = tie.getAttribute("data-level");
      var first = value(kind + "_0"), second = value(kind + "_1");
      tie.hidden = !(first !== "" && first === second);
    }
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
})();
