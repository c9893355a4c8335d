/* Rule catalogue: filter the list as the reader types (an ID or any word of the rule). */
(function () {
  "use strict";
  var find = document.getElementById("find");
  var entries = Array.prototype.slice.call(document.querySelectorAll(".rule-entry"));
  find.addEventListener("input", function () {
    var words = find.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    entries.forEach(function (e) {
      var text = e.textContent.toLowerCase();
      var hit = words.every(function (w) { return text.indexOf(w) >= 0; });
      e.hidden = !hit;
      if (hit) shown++;
    });
    document.querySelectorAll(".family").forEach(function (f) {
      f.hidden = !f.querySelector(".rule-entry:not([hidden])");
    });
    document.getElementById("none").hidden = shown > 0;
  });
})();
