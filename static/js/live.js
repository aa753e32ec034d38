// Card Table Companion, table page: live standings, copy / share links, keep the screen on.
// The page works without this file (a Refresh link, plain link fields); it only adds.
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }

  // Ask GET <state> every few seconds with the table's revision as ETag: 304 = nothing new (one
  // indexed lookup on the server). 200 = the live part of the page, rendered by the server, which
  // replaces ours. Paused while the page is hidden; backs off when the server cannot be reached.
  function livePoll() {
    var live = document.getElementById("live");
    if (!live || !live.dataset.state || !window.fetch) return;
    var every = Math.max(1, parseInt(live.dataset.every || "3", 10)) * 1000;
    var etag = live.dataset.etag ? '"' + live.dataset.etag + '"' : null;
    var note = document.getElementById("live-note");
    var refresh = document.getElementById("refresh");
    var failures = 0, timer = null, busy = false;

    function status(ok) {
      if (note) note.hidden = !ok;
      if (refresh) refresh.hidden = ok;
    }

    function schedule(delay) {
      clearTimeout(timer);
      timer = setTimeout(poll, delay);
    }

    function poll() {
      if (busy) return;
      if (document.visibilityState === "hidden") return;  // visibilitychange polls again
      busy = true;
      var headers = etag ? { "If-None-Match": etag } : {};
      fetch(live.dataset.state, { headers: headers, credentials: "same-origin", cache: "no-store" })
        .then(function (r) {
          if (r.status === 304) return null;
          if (!r.ok) throw new Error(String(r.status));
          var tag = r.headers.get("ETag");
          return r.text().then(function (html) { return { html: html, etag: tag }; });
        })
        .then(function (fresh) {
          failures = 0;
          status(true);
          if (fresh) {
            var active = document.activeElement;
            var keepFocus = active && active.id && live.contains(active) ? active.id : null;
            live.innerHTML = fresh.html;
            if (fresh.etag) etag = fresh.etag;
            if (keepFocus && document.getElementById(keepFocus)) document.getElementById(keepFocus).focus();
            live.classList.remove("updated");
            void live.offsetWidth;  // restart the highlight
            live.classList.add("updated");
          }
        })
        .catch(function () {
          failures += 1;
          if (failures >= 2) status(false);
        })
        .then(function () {
          busy = false;
          schedule(Math.min(every * Math.pow(2, failures), 30000));
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") schedule(0);
    });
    status(true);
    schedule(every);
  }

  // "Copy link" (Clipboard API) and "Share…" (the system share sheet), shown only where they work.
  function shareButtons() {
    document.querySelectorAll("button.copy-link").forEach(function (b) {
      if (!navigator.clipboard || !window.isSecureContext) {
        // Plain HTTP on the local network has no Clipboard API: select the link for the phone's own copy.
        var field = b.closest(".qr-card") && b.closest(".qr-card").querySelector("input.share-url");
        if (!field || !document.queryCommandSupported || !document.queryCommandSupported("copy")) return;
        b.hidden = false;
        b.addEventListener("click", function () {
          field.focus(); field.select();
          try { if (document.execCommand("copy")) done(b); } catch (e) { /* the link stays selected */ }
        });
        return;
      }
      b.hidden = false;
      b.addEventListener("click", function () {
        navigator.clipboard.writeText(b.dataset.url).then(function () { done(b); }, function () {});
      });
    });
    if (!navigator.share) return;
    document.querySelectorAll("button.share-link").forEach(function (b) {
      b.hidden = false;
      b.addEventListener("click", function () {
        navigator.share({ title: b.dataset.title || document.title, url: b.dataset.url }).catch(function () {});
      });
    });
  }

  function done(button) {
    var label = button.textContent;
    button.textContent = button.dataset.done || label;
    setTimeout(function () { button.textContent = label; }, 2000);
  }

  // Keep the screen on while the table is open: a toggle, remembered on this phone. Where the
  // browser has no Wake Lock API the toggle stays hidden.
  function wakeLockToggle() {
    var button = document.getElementById("wake-lock");
    if (!button || !("wakeLock" in navigator)) return;
    var lock = null;
    var wanted = localStorage.getItem("wakeLock") !== "off";
    function paint() { button.setAttribute("aria-pressed", lock ? "true" : "false"); }
    function take() {
      if (!wanted || lock || document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l; paint();
        l.addEventListener("release", function () { lock = null; paint(); });
      }).catch(function () { lock = null; paint(); });
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      wanted = !lock;
      localStorage.setItem("wakeLock", wanted ? "on" : "off");
      if (wanted) take(); else if (lock) lock.release();
      paint();
    });
    document.addEventListener("visibilitychange", take);
    paint();
    take();
  }

  ready(function () { livePoll(); shareButtons(); wakeLockToggle(); });
})();
