// Review pages: "Share as picture". Draws what the server wrote into #share-picture's data-picture (the
// standings, points, money and the fewest transfers, every word already in the page's language)
// on a canvas with the phone's own fonts, in the page's direction (right to left in Arabic), as a
// PNG; shares it with the phone's share sheet (Web Share with files) where it has one, downloads it
// otherwise. Nothing is computed here: only laid out. The picture is made when the page opens, so
// the tap shares at once (Safari allows a share only right after the tap). Without this script
// the button stays hidden.
(function () {
  "use strict";

  var SCALE = 2, WIDTH = 600, PAD = 28, ROW = 40, GAP = 18;

  function colours() {
    var style = getComputedStyle(document.body);
    var bg = style.backgroundColor;
    if (!bg || bg === "transparent" || /rgba\(.*,\s*0\)$/.test(bg)) bg = getComputedStyle(document.documentElement).backgroundColor;
    if (!bg || bg === "transparent" || /rgba\(.*,\s*0\)$/.test(bg)) bg = "#ffffff";
    var heading = document.querySelector("main h2, main h1");  // the page's own heading colour
    return { bg: bg, fg: style.color, accent: heading ? getComputedStyle(heading).color : style.color,
             font: style.fontFamily || "sans-serif" };
  }

  // Cut a text to a width with an ellipsis (a long name stays on its line).
  function fit(ctx, text, width) {
    if (ctx.measureText(text).width <= width) return text;
    var chars = Array.from ? Array.from(text) : text.split("");
    while (chars.length > 1 && ctx.measureText(chars.join("") + "…").width > width) chars.pop();
    return chars.join("") + "…";
  }

  // Lines of at most ``width``: by words where there are spaces, by characters where there are none (中文).
  function wrap(ctx, text, width) {
    var lines = [], line = "";
    var parts = text.split(/(\s+)/);
    parts.forEach(function (part) {
      var tryLine = line + part;
      if (ctx.measureText(tryLine).width <= width || !line.trim()) { line = tryLine; }
      else { lines.push(line.trim()); line = part.trim() ? part : ""; }
      while (ctx.measureText(line).width > width) {  // one word wider than the line: cut by characters
        var chars = Array.from ? Array.from(line) : line.split(""), head = "";
        while (chars.length && ctx.measureText(head + chars[0]).width <= width) head += chars.shift();
        if (!head) head = chars.shift();
        lines.push(head);
        line = chars.join("");
      }
    });
    if (line.trim()) lines.push(line.trim());
    return lines;
  }

  function draw(data, rtl) {
    var c = colours();
    var canvas = document.createElement("canvas");
    var ctx = canvas.getContext("2d");
    var inner = WIDTH - 2 * PAD;
    function font(size, bold) { ctx.font = (bold ? "bold " : "") + size + "px " + c.font; }
    // x of a column's edge, mirrored in a right-to-left page
    function x(at) { return rtl ? WIDTH - at : at; }
    function text(str, at, y, align, direction) {
      ctx.direction = direction || (rtl ? "rtl" : "ltr");
      var side = align === "start" ? (rtl ? "right" : "left") : (rtl ? "left" : "right");
      ctx.textAlign = side;
      ctx.fillText(str, x(at), y);
    }
    var cols = data.headers.length, numWidth = cols > 2 ? 120 : 140;
    var nameWidth = inner - numWidth * (cols - 1) - 12;
    font(18, false);
    var transferLines = [];
    data.transfers.forEach(function (t) { transferLines = transferLines.concat(wrap(ctx, t, inner)); });
    var noteLines = data.note ? wrap(ctx, data.note, inner) : [];
    var height = PAD + 40 + GAP + ROW * (data.rows.length + 1) + GAP + 34 + 28 * (transferLines.length + noteLines.length) + GAP + 30 + PAD;

    canvas.width = WIDTH * SCALE;
    canvas.height = height * SCALE;
    ctx.scale(SCALE, SCALE);
    ctx.fillStyle = c.bg;
    ctx.fillRect(0, 0, WIDTH, height);
    ctx.textBaseline = "middle";

    var y = PAD + 20;
    ctx.fillStyle = c.fg;
    font(28, true);
    text(fit(ctx, data.title, inner), PAD, y, "start");
    y += 20 + GAP;

    // the standings: name, points, money
    function row(cells, bold, shade) {
      if (shade) { ctx.fillStyle = shade; ctx.globalAlpha = 0.08; ctx.fillRect(PAD - 8, y, inner + 16, ROW); ctx.globalAlpha = 1; }
      ctx.fillStyle = c.fg;
      font(bold ? 17 : 20, bold);
      var mid = y + ROW / 2;
      text(fit(ctx, cells[0], nameWidth), PAD, mid, "start");
      for (var i = 1; i < cells.length; i++) {
        var edge = PAD + nameWidth + 12 + numWidth * i;  // the number's far edge (right in ltr, left in rtl)
        font(bold ? 17 : 20, bold);
        text(fit(ctx, cells[i], numWidth - 8), edge, mid, "end", bold ? undefined : "ltr");
      }
      y += ROW;
    }
    row(data.headers, true);
    ctx.fillStyle = c.fg;
    ctx.fillRect(PAD - 8, y - 1, inner + 16, 1);
    data.rows.forEach(function (cells, i) { row(cells, false, i % 2 ? null : c.fg); });
    y += GAP;

    // the fewest transfers
    font(22, true);
    ctx.fillStyle = c.accent;
    text(data.transfers_title, PAD, y + 17, "start");
    y += 34;
    ctx.fillStyle = c.fg;
    font(18, false);
    transferLines.concat(noteLines).forEach(function (line) { text(line, PAD, y + 14, "start"); y += 28; });
    y += GAP;
    font(14, false);
    ctx.globalAlpha = 0.6;
    text(data.footer, PAD, y + 15, "start");
    ctx.globalAlpha = 1;
    return canvas;
  }

  function download(blob, name) {
    var url = URL.createObjectURL(blob), a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(url); a.remove(); }, 1000);
  }

  function ready() {
    var button = document.getElementById("share-picture");
    if (!button || !button.dataset.picture || !window.HTMLCanvasElement) return;
    var status = document.getElementById("share-picture-status");
    var data;
    try { data = JSON.parse(button.dataset.picture); } catch (e) { return; }
    var rtl = (document.documentElement.dir || "").toLowerCase() === "rtl";
    var made = null;
    function make() {
      made = new Promise(function (resolve, reject) {
        var canvas = draw(data, rtl);
        if (!canvas.toBlob) { reject(new Error("no toBlob")); return; }
        canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error("no picture")); }, "image/png");
      });
      made["catch"](function () {});
    }
    function failed() { if (status) status.textContent = button.dataset.failed || ""; }
    function share(blob) {
      var file = null;
      try { file = new File([blob], data.filename, { type: "image/png" }); } catch (e) { file = null; }
      if (file && navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
        navigator.share({ files: [file], title: data.title })["catch"](function (e) {
          if (e && e.name !== "AbortError") download(blob, data.filename);
        });
      } else {
        download(blob, data.filename);
      }
    }
    var ready = null;
    button.addEventListener("click", function () {
      if (status) status.textContent = "";
      if (ready) { share(ready); return; }  // made already: shared within the tap
      made.then(share, failed);
    });
    function remake() { ready = null; make(); made.then(function (blob) { ready = blob; }, function () {}); }
    (document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve()).then(remake, remake);
    if (window.matchMedia) {
      var scheme = window.matchMedia("(prefers-color-scheme: dark)");
      if (scheme.addEventListener) scheme.addEventListener("change", remake);
    }
    make();
    button.hidden = false;
  }

  if (document.readyState !== "loading") ready(); else document.addEventListener("DOMContentLoaded", ready);
})();
