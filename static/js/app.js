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

  // Number chips (templates/_macros.html `chips`): one tap sets the value (or adds to it, for
  // captured points, except in a value filled in for the player: there it replaces it); "10+" opens the field for typing. The field stays the one that is sent.
  function chips() {
    document.querySelectorAll(".chip-field").forEach(function (field) {
      var box = field.querySelector(".chips"), input = field.querySelector("input");
      if (!box || !input || field.dataset.ready) return;
      field.dataset.ready = "1";
      var add = !!field.dataset.add;
      var more = box.querySelector(".more");
      var values = [].map.call(box.querySelectorAll(".chip:not(.more)"), function (b) { return b.dataset.value; });
      box.hidden = false;
      field.classList.add("chips-on");
      function paint() {
        var v = input.value.trim();
        var typing = !add && more && v !== "" && values.indexOf(String(parseInt(v, 10))) < 0;
        field.classList.toggle("typing", add || !!typing || field.classList.contains("typing-kept"));
        box.querySelectorAll(".chip").forEach(function (b) {
          var on = b.classList.contains("more") ? !!typing : (!add && v !== "" && b.dataset.value === String(parseInt(v, 10)));
          b.setAttribute("aria-pressed", on ? "true" : "false");
        });
      }
      box.querySelectorAll(".chip").forEach(function (b) {
        b.addEventListener("click", function () {
          if (b.classList.contains("more")) {
            field.classList.add("typing-kept");
            if (!input.value || parseInt(input.value, 10) < parseInt(b.dataset.more, 10)) input.value = b.dataset.more;
            paint(); input.focus(); input.select();
          } else if (add && b.dataset.add) {
            var now = field.classList.contains("auto") ? 0 : parseInt(input.value || "0", 10);  // a filled-in value is replaced
            input.value = (isNaN(now) ? 0 : now) + parseInt(b.dataset.value, 10);
          } else {
            field.classList.remove("typing-kept");
            input.value = b.dataset.value;
          }
          input.dispatchEvent(new Event("input", { bubbles: true }));
          paint();
        });
      });
      input.addEventListener("input", paint);
      paint();
    });
  }

  // Bomb sizes: "+4" adds a bomb of 4 cards to the list; tapping a listed bomb takes it away.
  function sizeLists() {
    document.querySelectorAll(".size-list").forEach(function (field) {
      var input = field.querySelector("input"), box = field.querySelector(".chips"),
        chosen = field.querySelector(".size-chosen");
      if (!input || !box || !chosen || field.dataset.ready) return;
      field.dataset.ready = "1";
      function list() { return (input.value.match(/[0-9]+/g) || []); }
      function paint() {
        chosen.textContent = "";
        var l = list();
        if (!l.length) { var none = document.createElement("span"); none.className = "muted"; none.textContent = chosen.dataset.none; chosen.appendChild(none); }
        l.forEach(function (n, i) {
          var b = document.createElement("button");
          b.type = "button"; b.className = "chip chosen-size"; b.dir = "ltr"; b.textContent = n + " ×";
          b.setAttribute("aria-label", (chosen.dataset.remove || "").replace("{n}", n));
          b.addEventListener("click", function () { var l2 = list(); l2.splice(i, 1); input.value = l2.join(" "); paint(); });
          chosen.appendChild(b);
        });
      }
      box.querySelectorAll(".add-size").forEach(function (b) {
        b.addEventListener("click", function () { var l = list(); l.push(b.dataset.value); input.value = l.join(" "); paint(); });
      });
      input.addEventListener("input", paint);
      box.hidden = false; chosen.hidden = false; field.classList.add("chips-on");
      paint();
    });
  }

  // Times: the server writes UTC (ISO in datetime=, readable UTC text inside); shown in the phone's zone.
  function localTimes(root) {
    if (!window.Intl || !Intl.DateTimeFormat) return;
    var lang = document.documentElement.lang || undefined, fmt, clock;
    try {
      fmt = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
      clock = new Intl.DateTimeFormat(lang, { timeStyle: "short" });
    } catch (e) { return; }
    (root || document).querySelectorAll("time[datetime]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d.getTime())) { t.title = t.textContent; t.textContent = (t.dataset.only === "time" ? clock : fmt).format(d); }
    });
  }

  // Long names are shortened; a tap shows the whole name (the numbers beside them never hide).
  function fullNames() {
    document.addEventListener("click", function (e) {
      var el = e.target.closest && e.target.closest(".short");
      if (el) el.classList.toggle("full");
    });
  }

  // Large type for the standings (a phone in the middle of the table), remembered on this phone.
  function bigType() {
    var b = document.getElementById("big-type");
    if (!b) return;
    var on = window.localStorage && localStorage.getItem("bigType") === "on";
    function set(v) {
      document.documentElement.classList.toggle("big-type", v);
      b.setAttribute("aria-pressed", v ? "true" : "false");
      try { localStorage.setItem("bigType", v ? "on" : "off"); } catch (e) { /* private mode */ }
    }
    b.hidden = false;
    set(!!on);
    b.addEventListener("click", function () { set(b.getAttribute("aria-pressed") !== "true"); });
  }

  // A fixed total (data-total on a box, from the game's facts description): once the conditions
  // hold (data-total-if: "field:n", at least n of its values given, or none for 0) and all but one
  // share (the inputs named data-total-of + "_") are entered, the last one is what is left of the
  // total, minus the other counts in the sum (data-total-with). Typing in the filled-in field, or
  // tapping a chip there, replaces it; the running sum against the total shows as the person taps.
  function fixedTotals() {
    document.querySelectorAll("form [data-total]").forEach(fixedTotal);
  }

  function given(form, name) {  // how many values the field(s) called name or name_<n> hold
    var n = 0;
    form.querySelectorAll('[name="' + name + '"], [name^="' + name + '_"]').forEach(function (el) {
      if ((el.type === "radio" || el.type === "checkbox") ? el.checked && el.value : el.value) n += 1;
    });
    return n;
  }

  function fixedTotal(box) {
    var form = box.closest("form"), total = parseInt(box.dataset.total, 10);
    var inputs = [].slice.call(box.querySelectorAll('input[name^="' + box.dataset.totalOf + '_"]'));
    var others = (box.dataset.totalWith || "").split(" ").filter(Boolean).map(function (n) { return form.querySelector('[name="' + n + '"]'); }).filter(Boolean);
    var rules = (box.dataset.totalIf || "").split(" ").filter(Boolean).map(function (r) { var p = r.split(":"); return [p[0], parseInt(p[1], 10)]; });
    var note = box.querySelector(".auto-note"), sumLine = box.querySelector(".points-sum");
    var touched = inputs.map(function (i) { return i.value !== "" && i.value !== "0"; });
    var auto = -1;
    function num(i) { return parseInt((i && i.value) || "0", 10) || 0; }
    function holds() {
      return rules.every(function (r) { var n = given(form, r[0]); return r[1] === 0 ? n === 0 : n >= r[1]; });
    }
    function fill() {
      if (auto >= 0) {  // take back what was filled in before; it is worked out again below
        inputs[auto].value = "0";
        inputs[auto].closest(".chip-field").classList.remove("auto");
        auto = -1;
      }
      var open = [], sum = 0, total2 = 0;
      inputs.forEach(function (i, k) { if (!touched[k]) open.push(k); else sum += num(i); });
      others.forEach(function (o) { sum += num(o); });
      var rest = total - sum;
      if (open.length === 1 && rest >= 0 && holds()) {
        auto = open[0]; inputs[auto].value = rest;
        inputs[auto].closest(".chip-field").classList.add("auto");
      }
      if (note) note.hidden = auto < 0;
      if (sumLine) {
        inputs.concat(others).forEach(function (i) { total2 += num(i); });
        sumLine.textContent = (sumLine.dataset.text || "{sum}").replace("{sum}", total2);
        sumLine.classList.toggle("over", total2 > total);
        sumLine.hidden = false;
      }
    }
    inputs.forEach(function (i, k) {
      i.addEventListener("input", function () {  // typed, or a chip tapped: this one is the player's
        touched[k] = true;
        i.closest(".chip-field").classList.remove("auto");
        if (k === auto) auto = -1;
        fill();
      });
    });
    others.forEach(function (o) { o.addEventListener("input", fill); o.addEventListener("change", fill); });
    // the fields of the conditions (taps or selects) decide whether the shares must add up
    if (form) {
      form.addEventListener("change", function (e) { if (inputs.indexOf(e.target) < 0) setTimeout(fill, 0); });
      form.addEventListener("click", function (e) { if (e.target.closest && e.target.closest(".tap-order")) setTimeout(fill, 0); });
    }
    fill();
  }

  function chosen(form, name) {  // the value of a choice field (radio pills or a select), "" when none
    var radio = form.querySelector('input[name="' + name + '"]:checked');
    if (radio) return radio.value;
    var el = form.querySelector('select[name="' + name + '"]');
    return el ? el.value : "";
  }

  function rowIs(el, value) {  // a player's row (data-seat, data-name) is the one a choice names
    return value !== "" && (el.dataset.seat === value || el.dataset.name === value);
  }

  // Rows a player's choice leaves out (data-skip-by: the winner has no cards left), and options
  // only the player a field names may tick (data-only-for: "only the opening lead" is the dealer's).
  function choiceRows() {
    document.querySelectorAll("form").forEach(function (form) {
      var skip = [].slice.call(form.querySelectorAll("[data-skip-by][data-seat], [data-skip-by][data-name]"));
      var only = [].slice.call(form.querySelectorAll("[data-only-for]"));
      if (!skip.length && !only.length) return;
      function update() {
        skip.forEach(function (row) { row.classList.toggle("is-winner", rowIs(row, chosen(form, row.dataset.skipBy))); });
        only.forEach(function (label) {
          var who = chosen(form, label.dataset.onlyFor), box = label.querySelector("input");
          var mine = who === "" || rowIs(label, who);
          label.classList.toggle("only-dealer-hidden", !mine && !(box && box.checked));
        });
      }
      form.addEventListener("change", update);
      update();
    });
  }

  // Tap players in the order they went out; fills the order selects (data-field_1 …, data-places of them).
  function tapOrder() {
    var box = document.querySelector(".tap-order");
    if (!box) return;
    var places = parseInt(box.dataset.places, 10) || 0, selects = [];
    for (var p = 1; p <= places; p++) selects.push(document.getElementById(box.dataset.field + "_" + p));
    if (!places || selects.some(function (s) { return !s; })) return;
    box.hidden = false;
    var fs = box.closest("fieldset");
    if (fs && !fs.querySelector(".order-selects .has-error")) fs.classList.add("tapping");
    var clear = document.createElement("button");
    clear.type = "button"; clear.className = "pill clear"; clear.textContent = box.dataset.clear || "×";
    box.appendChild(clear);
    var autoFourth = null;
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
        if (b.dataset.name === autoFourth) { autoFourth = null; return; }  // tapping the filled-in fourth confirms it
        if (i >= 0) {
          o.splice(i, 1);
          if (autoFourth) { o.splice(o.indexOf(autoFourth), 1); autoFourth = null; }
        } else if (o.length < places) {
          o.push(b.dataset.name);
          if (o.length === places - 1) {  // the one left is last: no tap needed
            box.querySelectorAll(".tap").forEach(function (t) {
              if (o.indexOf(t.dataset.name) < 0) { o.push(t.dataset.name); autoFourth = t.dataset.name; }
            });
          }
        }
        selects.forEach(function (s, k) { s.value = o[k] || ""; });
        paint();
      });
    });
    clear.addEventListener("click", function () { autoFourth = null; selects.forEach(function (s) { s.value = ""; }); paint(); });
    selects.forEach(function (s) { s.addEventListener("change", paint); });
    paint();
  }

  // Disable the submit button after the first tap (the server also ignores a repeated request id).
  function disableOnSubmit(root) {
    (root || document).querySelectorAll("form").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        var msg = (e.submitter && e.submitter.dataset.confirm) || form.dataset.confirm;
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
  // phone turned it off with the toggle on the table page (static/js/live.js, which also does it there).
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

  // Choices that exclude each other (from the facts description): choosing someone in a box with
  // data-clears empties the fields it names, and choosing someone there empties the box (a shout
  // has no partner); a box with data-not-same-as offers no one that field names (the banker is
  // not their own partner). Radio pills empty to their "" choice, selects to "".
  function setChoice(form, name, value) {
    form.querySelectorAll('input[name="' + name + '"]').forEach(function (r) { r.checked = r.value === value; });
    var el = form.querySelector('select[name="' + name + '"]');
    if (el) el.value = value;
  }

  function exclusiveChoices() {
    document.querySelectorAll("form [data-clears]").forEach(function (box) {
      var form = box.closest("form"), own = box.querySelector("select, input");
      if (!own) return;
      var names = box.dataset.clears.split(" ");
      form.addEventListener("change", function (e) {
        var name = e.target.name;
        if (name === own.name && chosen(form, own.name)) names.forEach(function (n) { setChoice(form, n, ""); });
        else if (names.indexOf(name) >= 0 && chosen(form, name)) setChoice(form, own.name, "");
      });
    });
    document.querySelectorAll("form [data-not-same-as]").forEach(function (box) {
      var form = box.closest("form"), other = box.dataset.notSameAs;
      function mark() {
        var who = chosen(form, other);
        box.querySelectorAll("input[type=radio], option").forEach(function (r) {
          var mine = who !== "" && r.value === who;
          r.disabled = mine;
          var pill = r.closest && r.closest(".pill");
          if (pill) pill.classList.toggle("off", mine);
          if (mine && (r.checked || r.selected)) { r.checked = false; r.selected = false; }
        });
      }
      form.addEventListener("change", function (e) { if (e.target.name === other) mark(); });
      mark();
    });
  }

  // A random first dealer/banker: "Draw" picks one of the players and says who.
  function drawLots() {
    document.querySelectorAll(".draw[data-for]").forEach(function (box) {
      var select = document.getElementById(box.dataset.for), said = box.querySelector(".draw-said");
      var button = box.querySelector("button");
      if (!select || !button) return;
      box.hidden = false;
      button.addEventListener("click", function () {
        var names = [].map.call(select.options, function (o) { return o.value; }).filter(Boolean);
        if (!names.length) return;
        var r = new Uint32Array(1);
        if (window.crypto && crypto.getRandomValues) crypto.getRandomValues(r); else r[0] = Math.floor(Math.random() * 4294967296);
        var name = names[r[0] % names.length];
        select.value = name;
        select.dispatchEvent(new Event("change", { bubbles: true }));
        var parts = (box.dataset.said || "{name}").split("{name}"), who = document.createElement("bdi");
        who.textContent = name;
        said.textContent = "";
        said.appendChild(document.createTextNode(parts[0]));
        said.appendChild(who);
        said.appendChild(document.createTextNode(parts.slice(1).join("{name}")));
      });
    });
  }

  // Read-only link fields: select the whole link when tapped (no inline handlers: see the CSP).
  function selectOnFocus() {
    document.querySelectorAll("input.select-on-focus").forEach(function (input) {
      input.addEventListener("focus", function () { input.select(); });
    });
  }

  ready(function () {
    selectOnFocus(); drawLots();
    chips(); sizeLists(); steppers(); choiceRows(); fixedTotals(); localTimes(); fullNames(); bigType(); tapOrder(); exclusiveChoices(); disableOnSubmit(); wakeLock();
  });
  window.addEventListener("pageshow", function (e) {  // back button: forms usable again
    if (e.persisted) document.querySelectorAll("form").forEach(function (f) {
      delete f.dataset.sent;
      f.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
    });
  });
})();
