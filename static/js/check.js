// Card keyboard for the rule checker: big buttons that type cards into the focused card field.
// The page works without this script; it only adds the buttons.
(function () {
  "use strict";
  var form = document.getElementById("check-form");
  var template = document.getElementById("card-keys-template");
  var slot = document.getElementById("card-keys-slot");
  if (!form || !template || !slot || !("content" in template)) { return; }

  var fields = [document.getElementById("previous"), document.getElementById("play"),
                document.getElementById("hand")].filter(function (f) { return f; });
  var labels = document.getElementById("card-keys-labels");
  var target = (!fields[0].value && !fields[1].value) ? fields[0] : fields[1];
  var phoneKeyboard = false;

  slot.appendChild(template.content.cloneNode(true));
  var targetNote = document.getElementById("card-keys-target");

  function setTarget(field) {
    target = field;
    fields.forEach(function (f) { f.classList.toggle("focused-field", f === field); });
    if (labels && targetNote) {
      targetNote.textContent = labels.getAttribute("data-" + field.id);
    }
  }

  function setPhoneKeyboard(on) {
    // while the card keys are in use, the phone's own keyboard stays closed (inputmode=none)
    phoneKeyboard = on;
    fields.forEach(function (f) { f.setAttribute("inputmode", on ? "text" : "none"); });
    var toggle = slot.querySelector('[data-action="keyboard"]');
    if (toggle) { toggle.setAttribute("aria-pressed", on ? "true" : "false"); }
  }

  function emit(field) { field.dispatchEvent(new Event("input", { bubbles: true })); }

  function addCard(text) {
    var value = target.value.replace(/\s+$/, "");
    target.value = value ? value + " " + text : text;
    emit(target);
  }

  function addSuit(symbol) {
    // a suit belongs to the card just typed (replacing its suit); jokers take none
    var value = target.value.replace(/\s+$/, "");
    var last = value.match(/\S+$/);
    if (!last) { return; }
    var card = last[0].match(/^(10|[2-9JQKA])([♠♥♣♦SHCD])?$/i);
    if (!card) { return; }
    target.value = value.slice(0, value.length - last[0].length) + card[1] + symbol;
    emit(target);
  }

  function backspace() {
    var value = target.value.replace(/\s+$/, "");
    if (/[♠♥♣♦]$/.test(value)) {
      value = value.slice(0, -1);
    } else {
      value = value.replace(/\S+$/, "");
    }
    target.value = value.replace(/\s+$/, "");
    emit(target);
  }

  fields.forEach(function (f) {
    f.addEventListener("focus", function () { setTarget(f); });
  });

  var keys = slot.querySelector(".card-keys");
  // keep the focus (and the caret) in the field: the buttons never take it
  keys.addEventListener("mousedown", function (event) { event.preventDefault(); });
  keys.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) { return; }
    if (button.dataset.card) {
      addCard(button.dataset.card);
    } else if (button.dataset.suit) {
      addSuit(button.dataset.suit);
    } else if (button.dataset.action === "backspace") {
      backspace();
    } else if (button.dataset.action === "clear") {
      target.value = "";
      emit(target);
    } else if (button.dataset.action === "next") {
      setTarget(fields[(fields.indexOf(target) + 1) % fields.length]);
    } else if (button.dataset.action === "keyboard") {
      setPhoneKeyboard(!phoneKeyboard);
      target.focus();
      return;
    }
  });

  // House rules: offer only the chosen game's presets.
  var game = document.getElementById("game");
  var preset = document.getElementById("preset");
  function filterPresets() {
    if (!game || !preset) { return; }
    Array.prototype.forEach.call(preset.querySelectorAll("optgroup"), function (group) {
      var other = group.getAttribute("data-game") !== game.value;
      group.hidden = other;
      group.disabled = other;
      if (other && group.contains(preset.options[preset.selectedIndex])) { preset.value = ""; }
    });
  }
  if (game) { game.addEventListener("change", filterPresets); }
  filterPresets();

  setPhoneKeyboard(false);
  setTarget(target);
})();
