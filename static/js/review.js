// Review pages: "copy as text" for the settle-up list, and a print button. The pages work without this.
(function () {
  "use strict";

  function copyText(textarea) {
    var text = textarea.value;
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Plain http on the local network has no clipboard API: select the text and copy it the old way.
    return new Promise(function (resolve, reject) {
      textarea.focus();
      textarea.select();
      textarea.setSelectionRange(0, text.length);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      if (ok) resolve(); else reject(new Error("copy failed"));
    });
  }

  function ready() {
    document.querySelectorAll("button.copy-button[data-copy]").forEach(function (button) {
      var textarea = document.getElementById(button.dataset.copy);
      if (!textarea) return;
      var status = button.parentNode.querySelector(".copy-status");
      button.hidden = false;
      button.addEventListener("click", function () {
        copyText(textarea).then(function () {
          if (status) status.textContent = button.dataset.done || "";
        }, function () {
          textarea.focus();
          textarea.select();
          if (status) status.textContent = button.dataset.failed || "";
        });
      });
    });
    document.querySelectorAll("button.print-button").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
  }

  if (document.readyState !== "loading") ready(); else document.addEventListener("DOMContentLoaded", ready);
})();
