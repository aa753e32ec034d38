// Card Table Companion: the outbox. Nothing typed is ever lost.
//
// A form marked data-outbox (record a hand, correct it, void, restore, undo) is sent with fetch
// instead of a page load. When the table's server cannot be reached (offline, a timeout, a 5xx,
// 503 or 429 answer) the form goes into an outbox on this phone (IndexedDB, which works on plain
// HTTP too) with its request id, the page stays as it is and says so. The outbox is sent in the
// order it was filled, on every page load, when the phone comes back online and every few
// seconds while something waits; the server's request ids make a retry safe. An answer that
// refuses an item (a conflict, a rule error, a revoked link) keeps it, with the server's reason,
// until the person corrects or discards it. Any other error answer to a form keeps the form as
// typed with the reason next to Save. Without JavaScript the forms post as before.
(function () {
  "use strict";
  if (!window.fetch || !window.indexedDB || !window.URLSearchParams) return;

  var DB_NAME = "ctc-outbox", STORE = "items", META = "meta", TIMEOUT_MS = 10000, RETRY_MS = 5000, LEASE_MS = 15000;
  var state = window.__ctcOutbox || (window.__ctcOutbox = { reviewing: null, flushing: false, timer: null });

  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }

  function words() {
    var el = document.getElementById("outbox-words");
    return el ? el.dataset : {};
  }

  // ---------------------------------------------------------------------------------- storage
  function open() {
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open(DB_NAME, 2);
      req.onupgradeneeded = function () {
        var db = req.result;
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        if (!db.objectStoreNames.contains(META)) db.createObjectStore(META, { keyPath: "key" });
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function tx(mode, fn, name) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(name || STORE, mode), store = t.objectStore(name || STORE), out;
        out = fn(store);
        t.oncomplete = function () { db.close(); resolve(out && "result" in out ? out.result : out); };
        t.onerror = function () { db.close(); reject(t.error); };
      });
    });
  }

  function all() {
    return tx("readonly", function (s) { return s.getAll(); }).then(function (items) {
      return (items || []).sort(function (a, b) { return a.id - b.id; });
    });
  }
  function get(id) { return tx("readonly", function (s) { return s.get(id); }); }
  function put(item) { return tx("readwrite", function (s) { return s.put(item); }); }
  function remove(id) { return tx("readwrite", function (s) { return s["delete"](id); }); }

  // ---------------------------------------------------------------------------------- sending
  // {net: true} when the server could not be reached, else {status, ok, redirected, url, html}.
  function send(url, body) {
    var ctrl = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctrl) ctrl.abort(); }, TIMEOUT_MS);
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "follow", cache: "no-store",
      // X-Outbox: sent (or sent again) by this script, so the same request id is a retry: "Saved."
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Outbox": "1" }, signal: ctrl ? ctrl.signal : undefined
    }).then(function (r) {
      return r.text().then(function (html) {
        clearTimeout(timer);
        return { status: r.status, ok: r.ok, redirected: r.redirected, url: r.url, html: html };
      });
    }, function () {
      clearTimeout(timer);
      return { net: true };
    });
  }

  function unreachable(res) { return res.net || res.status >= 500 || res.status === 429; }

  function reasonOf(res) {
    if (res.net) return words().offline || "";
    var doc = new DOMParser().parseFromString(res.html || "", "text/html");
    var parts = [].map.call(doc.querySelectorAll("main [role=alert]"), function (e) {
      return e.textContent.replace(/\s+/g, " ").trim();
    }).filter(Boolean);
    return parts.length ? parts.join(" ") : (words().status || "HTTP {status}").replace("{status}", res.status);
  }

  function isPageAnswer(html) {  // the server answered with a form to fix or a choice to make
    return /id="hand-form"|id="conflict-message"|id="duplicate"/.test(html || "");
  }

  // Show a server page in place of this one (its scripts run again; the address follows).
  function showPage(html, url) {
    document.open();
    document.write(html);
    document.close();
    try { if (url) history.replaceState(null, "", url); } catch (e) { /* another origin: keep */ }
    window.scrollTo(0, 0);
  }

  // Saved: open the page the server redirected to, as a plain form post would (Back returns to
  // the form). Its messages ("Hand 3 is void.") were in the answer fetch followed: carried over.
  function go(res) {
    var doc = new DOMParser().parseFromString(res.html || "", "text/html");
    var flashes = doc.querySelector(".flashes");
    try {
      if (flashes) sessionStorage.setItem("ctcFlash", JSON.stringify({ url: res.url, text: [].map.call(
        flashes.querySelectorAll(".flash"), function (p) { return p.textContent; }) }));
    } catch (e) { /* private mode: the page shows without the message */ }
    location.assign(res.url);
  }

  // A page the service worker opened from its copy (no network): say so; its old messages go.
  function offlineCopy() {
    var main = document.querySelector("main");
    if (!document.body || !document.body.dataset.offlineCopy || !main) return;
    document.querySelectorAll(".flashes").forEach(function (f) { f.remove(); });
    var note = document.createElement("p");
    note.className = "notice"; note.id = "offline-copy"; note.setAttribute("role", "status");
    note.textContent = words().offlineCopy || "";
    main.insertBefore(note, main.firstChild);
  }

  function carriedFlashes() {
    var saved = null;
    try { saved = JSON.parse(sessionStorage.getItem("ctcFlash") || "null"); sessionStorage.removeItem("ctcFlash"); } catch (e) { return; }
    var main = document.querySelector("main");
    if (!saved || saved.url !== location.href || !main || document.querySelector(".flashes")) return;
    var box = document.createElement("div");
    box.className = "flashes"; box.setAttribute("role", "status");
    saved.text.forEach(function (t) { var p = document.createElement("p"); p.className = "flash"; p.textContent = t; box.appendChild(p); });
    main.insertBefore(box, main.firstChild);
  }

  function freshToken(body) {
    var input = document.querySelector("input[name=csrf_token]");
    var params = new URLSearchParams(body);
    if (input && input.value) params.set("csrf_token", input.value);
    return params.toString();
  }

  function randomId() {
    var a = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(a);
    return [].map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // One sender at a time across this phone's tabs (two tabs sending one correction would make
  // the second a conflict): the Web Locks API where the origin is secure, else a lease taken in
  // an IndexedDB transaction (those are serialised across tabs, so taking it is atomic).
  function exclusively(fn) {
    if (navigator.locks && navigator.locks.request) return navigator.locks.request("ctc-outbox", fn);
    return lease().then(function (mine) {
      if (!mine) { state.busy = true; return; }
      function free() {
        return tx("readwrite", function (s) {
          var r = s.get("lease");
          r.onsuccess = function () { if (r.result && r.result.owner === pageId) s["delete"]("lease"); };
        }, META);
      }
      return fn().then(free, function (e) { return free().then(function () { throw e; }); });
    });
  }

  // Take (or renew) the lease for LEASE_MS: a tab the phone froze mid-send blocks the others no longer.
  function lease() {
    if (navigator.locks && navigator.locks.request) return Promise.resolve(true);
    return tx("readwrite", function (s) {
      var mine = { result: false }, r = s.get("lease");
      r.onsuccess = function () {
        var lease = r.result, now = Date.now();
        if (!lease || lease.until < now || lease.owner === pageId) {
          s.put({ key: "lease", owner: pageId, until: now + LEASE_MS });
          mine.result = true;
        }
      };
      return mine;
    }, META);
  }

  // Send every waiting item, in order. Stops at the first one the server cannot take yet.
  function flush() {
    if (state.flushing) return Promise.resolve();
    state.flushing = true;
    var stopped = false, changed = false;
    state.busy = false;
    return exclusively(function () { return all().then(function (items) {
      var chain = Promise.resolve();
      items.forEach(function (listed) {
        chain = chain.then(function () {
          if (stopped) return;
          return lease().then(function (still) {  // renewed before each send
            if (!still) { stopped = true; state.busy = true; return null; }
            return get(listed.id);  // another tab may have sent it meanwhile
          });
        }).then(function (item) {
          if (stopped || !item || item.state !== "waiting") return;
          return send(item.url, freshToken(item.body)).then(function (res) {
            if (unreachable(res)) { stopped = true; item.reason = reasonOf(res); return put(item); }
            changed = true;
            if (res.ok) return remove(item.id);
            item.state = "refused"; item.status = res.status; item.reason = reasonOf(res);
            item.html = isPageAnswer(res.html) ? res.html : ""; item.answerUrl = res.url;
            return put(item);
          });
        });
      });
      return chain;
    }); }).catch(function () { /* storage unavailable: nothing to send */ }).then(function () {
      state.flushing = false;
      render();
      forms();
      if (changed) document.dispatchEvent(new CustomEvent("outbox:sent"));
      return all().then(function (items) {
        clearTimeout(state.timer);
        // another tab is sending: look again soon; else retry while something waits
        if (items.some(function (i) { return i.state === "waiting"; })) state.timer = setTimeout(flush, state.busy ? 1500 : RETRY_MS);
      }, function () {});
    });
  }

  // ---------------------------------------------------------------------------------- forms
  function noteFor(form) {
    var note = form.querySelector(".outbox-note");
    if (!note) {
      note = document.createElement("div");
      note.className = "outbox-note";
      note.setAttribute("role", "status");
      var save = form.querySelector("button[type=submit]:not([form])") || form.lastElementChild;
      if (save && save.parentNode === form) form.insertBefore(note, save); else form.appendChild(note);
    }
    return note;
  }

  function unlock(form) {
    delete form.dataset.sent;
    form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
    document.querySelectorAll("button[form='" + form.id + "']").forEach(function (b) { b.disabled = false; });
  }

  function say(form, cls, text, extra) {
    var note = noteFor(form);
    note.className = "outbox-note " + cls;
    note.textContent = "";
    var p = document.createElement("p");
    p.textContent = text;
    note.appendChild(p);
    if (extra) note.appendChild(extra);
    note.hidden = false;
    if (note.scrollIntoView) note.scrollIntoView({ block: "center" });
  }

  function anotherHandButton(form) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "button"; b.id = "outbox-another";
    b.textContent = words().another || "+";
    b.addEventListener("click", function () {
      form.reset();
      var rid = form.querySelector("input[name=request_id]");
      if (rid) rid.value = randomId();
      form.querySelectorAll("input, select").forEach(function (i) {
        i.dispatchEvent(new Event("input", { bubbles: true }));
        i.dispatchEvent(new Event("change", { bubbles: true }));
      });
      var note = form.querySelector(".outbox-note");
      if (note) note.hidden = true;
      unlock(form);
      window.scrollTo(0, 0);
    });
    return b;
  }

  function queue(form, body, kind) {
    var tableMatch = /\/t\/([^/]+)\//.exec(new URL(form.action, location.href).pathname);
    var item = {
      table: tableMatch ? tableMatch[1] : "", url: form.action, body: body, kind: kind,
      label: form.dataset.outboxLabel || document.title, state: "waiting", reason: "",
      created: new Date().toISOString()
    };
    var params = new URLSearchParams(body);
    if (kind === "record") {
      // An offline hand is new by definition: another phone may record in between, which is no
      // conflict (the "someone recorded it meanwhile" check is for forms open side by side).
      params["delete"]("expected_number");
      item.requestId = params.get("request_id") || "";
    }
    item.body = params.toString();
    return all().then(function (items) {
      var same = items.filter(function (i) {
        return i.id === state.reviewing || (item.requestId && i.requestId === item.requestId && i.state === "waiting" && i.page === pageId);
      })[0];
      if (!same && item.requestId && items.some(function (i) { return i.requestId === item.requestId; })) {
        // The same form again (a page kept from before): a new hand, so a new request id.
        item.requestId = randomId();
        params.set("request_id", item.requestId);
        item.body = params.toString();
        var rid = form.querySelector("input[name=request_id]");
        if (rid) rid.value = item.requestId;
      }
      if (same) { item.id = same.id; item.created = same.created; }
      item.page = pageId;
      return put(item).then(function (id) { form.dataset.outboxItem = String(id); });
    });
  }

  var pageId = randomId();

  function submit(form, submitter) {
    var kind = form.dataset.outbox;
    // The button's name and value by hand: FormData(form, submitter) is missing before Safari 16.4
    // and Firefox 111, where it silently loses the confirm and undo buttons' values.
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value || "");
    var body = new URLSearchParams(data).toString();
    var w = words();
    return all().then(function (items) {
      // Older items still wait: this one goes behind them, so the server gets them in order.
      var waiting = items.some(function (i) { return i.state === "waiting" && i.id !== state.reviewing; });
      return waiting ? { net: true, queued: true } : send(form.action, body);
    }, function () { return send(form.action, body); }).then(function (res) {
      if (unreachable(res)) {
        var why = res.net ? "" : reasonOf(res);
        return queue(form, body, kind).then(function () {
          say(form, "waiting", (w.saved || "") + (why ? " " + why : ""), kind === "record" ? anotherHandButton(form) : null);
          form.dataset.sent = "1";
          render();
          flushSoon();
        }, function () {
          unlock(form);
          say(form, "error", (w.nostorage || "") + (why ? " " + why : ""));
        });
      }
      if (res.ok || isPageAnswer(res.html)) {
        var done = res.ok && state.reviewing ? remove(state.reviewing) : Promise.resolve();
        return done.then(function () {
          if (res.ok) state.reviewing = null;
          if (res.ok && res.redirected) {  // saved: on to the page the server named
            var number = /\/hands\/(\d+)/.exec(res.url || "");
            if (number) form.__ctcSavedAs = parseInt(number[1], 10);  // (for Back after Save)
            return go(res);
          }
          showPage(res.html, res.url);
        });
      }
      unlock(form);  // refused (a revoked link, an expired session, …): the form stays as typed
      say(form, "error", reasonOf(res));
    });
  }

  // On a refused item's page (the conflict page), keeping the saved version drops the item: chosen.
  function keepSaved() {
    document.querySelectorAll("#keep-theirs, #keep-saved").forEach(function (a) {
      a.addEventListener("click", function (e) {
        if (!state.reviewing) return;
        e.preventDefault();
        remove(state.reviewing).then(function () { state.reviewing = null; location.assign(a.href); });
      });
    });
  }

  // The button that sends a form: SubmitEvent.submitter is missing before Safari 15.4, so the last
  // submit button tapped for each form is noted too (buttons outside their form included).
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest ? e.target.closest("button, input[type=submit]") : null;
    if (b && b.form && (b.type || "submit") === "submit") b.form.__ctcSubmitter = b;
  }, true);

  // Back after Save: a page kept in the back/forward cache (WebKit, Firefox) comes back with the
  // request id of the hand it already saved; a Save from it is a new hand (the server then asks
  // "This looks like hand N again"), not a silent "Saved.". An id still waiting in this phone's
  // outbox stays: that hand is not on the server yet, and saving again replaces it.
  function renewRequestIds() {
    document.querySelectorAll("form#hand-form[data-outbox=record] input[name=request_id]").forEach(function (rid) {
      var form = rid.form, item = parseInt(form.dataset.outboxItem || "", 10);
      (isNaN(item) ? Promise.resolve(null) : get(item)).then(function (waiting) {
        if (waiting) return;
        delete form.dataset.outboxItem;
        rid.value = randomId();
        // Its own hand is no "hand recorded meanwhile": the next number after it is expected.
        var expected = form.querySelector("input[name=expected_number]");
        if (expected && form.__ctcSavedAs) expected.value = String(form.__ctcSavedAs + 1);
      }, function () { rid.value = randomId(); });
    });
  }
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted) return;
    renewRequestIds();
    document.querySelectorAll("form[data-outbox-busy]").forEach(function (f) { delete f.dataset.outboxBusy; });
    flush();
  });

  function hookForms() {
    document.querySelectorAll("form[data-outbox]").forEach(function (form) {
      if (form.dataset.outboxReady) return;
      form.dataset.outboxReady = "1";
      form.addEventListener("submit", function (e) {
        if (e.defaultPrevented) return;  // a confirmation said no, or it was sent already
        if (form.dataset.outboxBusy) { e.preventDefault(); return; }
        e.preventDefault();
        form.dataset.outboxBusy = "1";
        submit(form, e.submitter || form.__ctcSubmitter).then(function () { delete form.dataset.outboxBusy; },
          function () { delete form.dataset.outboxBusy; unlock(form); });
      });
    });
  }

  // A form whose save waited: say what became of it (sent, or refused and why).
  function forms() {
    document.querySelectorAll("form[data-outbox-item]").forEach(function (form) {
      var id = parseInt(form.dataset.outboxItem, 10), note = form.querySelector(".outbox-note.waiting");
      if (!note) return;
      get(id).then(function (item) {
        var p = note.querySelector("p");
        if (!item) { note.className = "outbox-note sent"; p.textContent = words().sent || ""; delete form.dataset.outboxItem; }
        else if (item.state === "refused") { note.className = "outbox-note error"; p.textContent = item.reason; }
      }, function () {});
    });
  }

  // ---------------------------------------------------------------------------------- the list
  function render() {
    var box = document.getElementById("outbox");
    if (!box) return;
    var table = box.dataset.table;
    all().then(function (items) {
      var mine = items.filter(function (i) { return !table || i.table === table; });
      var list = box.querySelector("ol"), w = words();
      list.textContent = "";
      mine.forEach(function (item) {
        var li = document.createElement("li");
        li.className = "outbox-item " + item.state;
        li.dataset.id = item.id;
        var head = document.createElement("p");
        var label = document.createElement("b");
        label.textContent = item.label;
        var tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = item.state === "waiting" ? w.waiting : w.refused;
        head.appendChild(label); head.appendChild(document.createTextNode(" ")); head.appendChild(tag);
        var when = document.createElement("time");
        when.setAttribute("datetime", item.created);
        when.className = "muted";
        try { when.textContent = " " + new Date(item.created).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" }); } catch (e) { when.textContent = ""; }
        head.appendChild(when);
        li.appendChild(head);
        if (item.state === "refused") {
          var why = document.createElement("p");
          why.className = "error reason";
          why.textContent = item.reason;
          li.appendChild(why);
          var actions = document.createElement("p");
          actions.className = "outbox-actions";
          if (item.html) {
            var fix = document.createElement("button");
            fix.type = "button"; fix.className = "primary outbox-fix"; fix.textContent = w.fix;
            fix.addEventListener("click", function () { state.reviewing = item.id; showPage(item.html, item.answerUrl || item.url); });
            actions.appendChild(fix);
          }
          var again = document.createElement("button");  // e.g. after joining the table again
          again.type = "button"; again.className = "outbox-retry"; again.textContent = w.retry;
          again.addEventListener("click", function () {
            item.state = "waiting"; item.reason = ""; item.html = "";
            put(item).then(flush);
          });
          actions.appendChild(again);
          var drop = document.createElement("button");
          drop.type = "button"; drop.className = "danger outbox-discard"; drop.textContent = w.discard;
          drop.addEventListener("click", function () {
            if (!window.confirm(w.discardConfirm || w.discard)) return;
            remove(item.id).then(render);
          });
          actions.appendChild(drop);
          li.appendChild(actions);
        }
        list.appendChild(li);
      });
      box.hidden = !mine.length;
      var count = box.querySelector(".outbox-count");
      var waiting = mine.filter(function (i) { return i.state === "waiting"; }).length;
      if (count) { count.textContent = (w.count || "{n}").replace("{n}", String(waiting)); count.hidden = !waiting; }
      box.classList.toggle("has-refused", mine.some(function (i) { return i.state === "refused"; }));
    }, function () { box.hidden = true; });
  }

  function flushSoon() {
    clearTimeout(state.timer);
    state.timer = setTimeout(flush, 1500);
  }

  // ------------------------------------------------------------------------- service worker
  function installable() {
    var note = document.getElementById("install-note");
    if (note) note.hidden = !!window.isSecureContext;
    if (!window.isSecureContext || !("serviceWorker" in navigator)) return;
    var sw = words().sw;
    if (!sw) return;
    var here = location.href.split("#")[0];
    navigator.serviceWorker.register(sw, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {  // this page was perhaps loaded before the worker: keep it too
      if (reg.active) reg.active.postMessage({ keep: here });
    }).catch(function () {});
  }

  window.addEventListener("online", function () { flush(); });  // (a page shown in place drops it: added again)
  ready(function () {
    offlineCopy();
    carriedFlashes();
    hookForms();
    keepSaved();
    render();
    installable();
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") flush(); });
    flush();
  });
  window.ctcOutbox = { flush: flush, all: all };
})();
