// Card Table Companion: small enhancements. Every page works without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }

  // − / + buttons around number inputs (steps of 1, or 5 for card points).
  function steppers() {
    document.querySelectorAll(".stepper").forEach(function (box) {
      var input = box.querySelector("input");
      if (!input || box.dataset.ready) return;
      box.dataset.ready = "1";
      var step = parseInt(box.dataset.step || "1", 10);
      function make(label, delta, aria) {
        var b = document.createElement("button");
        b.type = "button"; b.textContent = label; b.setAttribute("aria-label", aria);
        b.addEventListener("click", function () {
          var v = parseInt(input.value || "0", 10);
          if (isNaN(v)) v = 0;
          input.value = Math.max(0, v + delta);
          input.dispatchEvent(new Event("change", { bubbles: true }));
        });
        return b;
      }
      box.insertBefore(make("−", -step, "-" + step), input);
      box.appendChild(make("+", step, "+" + step));
    });
  }

  // 干瞪眼: hide the winner's row (the winner has no cards left).
  function winnerRows() {
    var form = document.querySelector(".hand-form.gandengyan");
    if (!form) return;
    function update() {
      var checked = form.querySelector("input[name=winner]:checked");
      form.querySelectorAll("fieldset.loser").forEach(function (fs) {
        fs.classList.toggle("is-winner", !!checked && fs.dataset.seat === checked.value);
      });
    }
    form.querySelectorAll("input[name=winner]").forEach(function (r) { r.addEventListener("change", update); });
    update();
    // "only the opening lead" concerns the dealer alone: show it on the dealer's row only.
    var dealer = form.querySelector("#dealer");
    function dealerOnly() {
      form.querySelectorAll("fieldset.loser").forEach(function (fs) {
        var box = fs.querySelector("input[name^=only_opening_]");
        if (!box) return;
        var name = fs.querySelector("legend").textContent.trim();
        var mine = !dealer || !dealer.value || dealer.value === name;
        box.closest("label").classList.toggle("only-dealer-hidden", !mine && !box.checked);
      });
    }
    if (dealer) dealer.addEventListener("change", dealerOnly);
    dealerOnly();
  }

  // 大冶打拱: tap players in the order they went out; fills the order selects.
  function tapOrder() {
    var box = document.querySelector(".tap-order");
    if (!box) return;
    var selects = [1, 2, 3, 4].map(function (i) { return document.getElementById("order_" + i); });
    if (selects.some(function (s) { return !s; })) return;
    box.hidden = false;
    var clear = document.createElement("button");
    clear.type = "button"; clear.className = "pill clear"; clear.textContent = box.dataset.clear || "×";
    box.appendChild(clear);
    function order() { return selects.map(function (s) { return s.value; }).filter(Boolean); }
    function paint() {
      var o = order();
      box.querySelectorAll(".tap").forEach(function (b) {
        var i = o.indexOf(b.dataset.name);
        b.classList.toggle("chosen", i >= 0);
        b.querySelector(".place").textContent = i >= 0 ? String(i + 1) : "";
      });
    }
    box.querySelectorAll(".tap").forEach(function (b) {
      b.addEventListener("click", function () {
        var o = order(), i = o.indexOf(b.dataset.name);
        if (i >= 0) o.splice(i, 1); else if (o.length < 4) o.push(b.dataset.name);
        selects.forEach(function (s, k) { s.value = o[k] || ""; });
        paint();
      });
    });
    clear.addEventListener("click", function () { selects.forEach(function (s) { s.value = ""; }); paint(); });
    selects.forEach(function (s) { s.addEventListener("change", paint); });
    paint();
  }

  // Disable the submit button after the first tap (the server also ignores a repeated request id).
  function disableOnSubmit(root) {
    (root || document).querySelectorAll("form").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        var msg = form.dataset.confirm;
        if (msg && !window.confirm(msg)) { e.preventDefault(); return; }
        if (form.dataset.sent) { e.preventDefault(); return; }
        form.dataset.sent = "1";
        form.querySelectorAll("button[type=submit]").forEach(function (b) {
          setTimeout(function () { b.disabled = true; }, 0);
        });
      });
    });
  }

  // Keep the screen on while a hand is being recorded (where the browser allows it), unless this
  // phone turned it off with the toggle on the table page (static/live.js, which also does it there).
  function wakeLock() {
    if (!("wakeLock" in navigator) || !document.querySelector(".hand-form")) return;
    if (window.localStorage && localStorage.getItem("wakeLock") === "off") return;
    var lock = null;
    function take() {
      if (document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () {});
    }
    document.addEventListener("visibilitychange", take);
    take();
  }

  // 大冶打拱: a shout means no partner.
  function shoutClearsPartner() {
    var shout = document.getElementById("shout"), partner = document.getElementById("partner");
    if (!shout || !partner) return;
    shout.addEventListener("change", function () { if (shout.value) partner.value = ""; });
    partner.addEventListener("change", function () { if (partner.value) shout.value = ""; });
  }

  // Read-only link fields: select the whole link when tapped (no inline handlers: see the CSP).
  function selectOnFocus() {
    document.querySelectorAll("input.select-on-focus").forEach(function (input) {
      input.addEventListener("focus", function () { input.select(); });
    });
  }

  ready(function () {
    selectOnFocus();
    steppers(); winnerRows(); tapOrder(); shoutClearsPartner(); disableOnSubmit(); wakeLock();
  });
  window.addEventListener("pageshow", function (e) {  // back button: forms usable again
    if (e.persisted) document.querySelectorAll("form").forEach(function (f) {
      delete f.dataset.sent;
      f.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
    });
  });
})();
