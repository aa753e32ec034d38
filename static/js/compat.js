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

// A table wider than the phone (large text, many players) scrolls inside its own box: the box
// fades at the edge where more is hidden, and a line under it says so (the page's language).
(function () {
  "use strict";
  function cue(box) {
    var more = box.scrollWidth - box.clientWidth > 2;
    var at = Math.abs(box.scrollLeft);  // RTL boxes scroll to negative positions
    box.classList.toggle("more-after", more && at < box.scrollWidth - box.clientWidth - 2);
    var note = box.nextElementSibling && box.nextElementSibling.classList.contains("scroll-cue") ? box.nextElementSibling : null;
    var words = document.getElementById("outbox-words");
    if (more && !note && words && words.dataset.scrollMore) {
      note = document.createElement("p");
      note.className = "scroll-cue help";
      note.textContent = words.dataset.scrollMore;
      box.parentNode.insertBefore(note, box.nextSibling);
    }
    if (note) note.hidden = !more;
  }
  function all() {
    var boxes = document.querySelectorAll(".scroll-x, .sheet-wrap");
    for (var i = 0; i < boxes.length; i++) {
      if (!boxes[i].dataset.cue) {
        boxes[i].dataset.cue = "1";
        boxes[i].addEventListener("scroll", cue.bind(null, boxes[i]), { passive: true });
      }
      cue(boxes[i]);
    }
  }
  window.addEventListener("resize", all);
  window.addEventListener("load", all);
  function start() {
    all();
    var live = document.getElementById("live");  // live.js redraws the standings in place
    if (live && window.MutationObserver) new MutationObserver(all).observe(live, { childList: true });
  }
  if (document.readyState !== "loading") start(); else document.addEventListener("DOMContentLoaded", start);
  window.ctcScrollCues = all;
})();
