// Card Table Companion, table page: join with a record link ("/t/<id>#key=<token>").
// The key rides in the URL's fragment, which the browser never sends to a server (so no access
// log, proxy or Referer sees it). This script takes it out of the address bar and the history at
// once, then sends it with the join form's CSRF token (POST /t/<id>/join) and reloads the page,
// which now shows what this phone may do. Without this script the page shows the join form.
// The record link opened in a tab that already shows the table changes only the "#key=" part
// (no page load): the same happens on "hashchange".
(function () {
  "use strict";

  function fromAddress() {
    var match = /^#(?:.*&)?key=([^&]*)/.exec(window.location.hash || "");
    var query = /[?&]key=/.test(window.location.search || "");
    if (!match && !query) return;

    // A clean address: no fragment; and no "?key=" from an old link (the server already put that
    // key in the join form, which waits for a tap: a link alone never grants a right by GET).
    var url = new URL(window.location.href);
    url.hash = "";
    url.searchParams["delete"]("key");
    var clean = url.pathname + url.search;
    if (window.history && history.replaceState) history.replaceState(history.state, "", clean);
    if (!match) return;

    var key = decodeURIComponent(match[1]);

    function send() {
      var form = document.getElementById("join-form");
      if (!form) return;  // this phone may record already: nothing to do
      var field = form.elements.key;
      if (!field) return;
      field.value = key;
      if (!window.fetch || !window.FormData) { form.submit(); return; }
      fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                           headers: { "Accept": "application/json" } })
        .then(function () { window.location.replace(clean); })  // the page shows the server's message
        .catch(function () {
          // No answer: leave the key in the form for a tap ("Join").
          var details = document.getElementById("join-details");
          if (details) details.open = true;
        });
    }

    if (document.readyState !== "loading") send(); else document.addEventListener("DOMContentLoaded", send);
  }

  fromAddress();
  window.addEventListener("hashchange", fromAddress);

  // The table PIN (a phone that may record sets it): exactly 6 digits, said beside the field in the
  // page's language before anything is sent (the server says the same without this script). What
  // was typed stays as typed: never cut to 6 digits.
  function pinForm() {
    var form = document.getElementById("pin-form"), input = document.getElementById("table-pin"),
        error = document.getElementById("table-pin-error");
    if (!form || !input || !error) return;
    // 6 decimal digits of any script (full-width ０１２, Arabic-Indic ٠١٢ …): the server reads them as 0–9
    var six;
    try { six = new RegExp("^\\p{Nd}{6}$", "u"); } catch (err) { six = /^[0-9\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9]{6}$/; }
    var clicked = null;
    form.addEventListener("click", function (e) { clicked = e.target.closest ? e.target.closest("button") : null; });
    function show(bad) {
      error.textContent = bad ? form.dataset.pinError : "";
      error.hidden = !bad;
      if (bad) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    }
    document.addEventListener("submit", function (e) {  // before the form's own handlers (app.js)
      if (e.target !== form) return;
      var button = e.submitter || clicked;
      if (button && button.value === "clear") return;
      if (!six.test(input.value.trim())) { e.preventDefault(); e.stopPropagation(); show(true); input.focus(); }
    }, true);
    input.addEventListener("input", function () { if (!error.hidden && six.test(input.value.trim())) show(false); });
  }
  if (document.readyState !== "loading") pinForm(); else document.addEventListener("DOMContentLoaded", pinForm);
})();
