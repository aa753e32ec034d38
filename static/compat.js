// Card Table Companion: the same page in older browsers. A chosen winner or partner (a radio or
// checkbox inside a .pill label) is highlighted by the class "checked", set here, as well as by
// CSS ":has(input:checked)" (missing before Safari 15.4 and Firefox 121).
(function () {
  "use strict";

  function paint() {
    var pills = document.querySelectorAll("label.pill");
    for (var i = 0; i < pills.length; i++) {
      var input = pills[i].querySelector("input[type=radio], input[type=checkbox]");
      if (input) pills[i].classList.toggle("checked", input.checked);
    }
  }

  // A radio's change unchecks its neighbours without an event of theirs: repaint every pill.
  document.addEventListener("change", paint);
  document.addEventListener("click", function () { setTimeout(paint, 0); });  // a script's own checks
  document.addEventListener("reset", function () { setTimeout(paint, 0); }, true);
  window.addEventListener("pageshow", paint);  // a page kept by the back button, as it was left
  if (document.readyState !== "loading") paint(); else document.addEventListener("DOMContentLoaded", paint);
})();
