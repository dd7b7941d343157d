// Writing a kana: draw on a <canvas> with a mouse, a finger or a pen (pointer events).
//
// A form marked [data-writing] holds a canvas (.writing-canvas), a hidden field
// (.writing-strokes, named "strokes") and the buttons "Undo stroke", "Clear" and "Check".
// Each stroke is a list of [x, y] points in a box of side 1 (x right, y down), kept in the
// hidden field as JSON after every change, so the form posts them like any field (htmx or a
// plain POST); the server checks them (learning/writing.py). Points closer than MIN_STEP to
// the previous one are dropped and a stroke stops growing at MAX_POINTS, within the server's
// limits. No text is made here: the labels come from the page (data-label, data-empty), so
// they are translated. Forms that htmx swaps in are set up on "htmx:load". No eval, no
// inline script: the CSP allows neither.
(function () {
  "use strict";
  var MIN_STEP = 0.006; // of the box's side
  var MAX_POINTS = 400; // per stroke (the server refuses more than 500)
  var MAX_STROKES = 16; // the server's limit too

  function setUp(form) {
    if (form.dataset.writingReady) return;
    form.dataset.writingReady = "1";
    var canvas = form.querySelector(".writing-canvas");
    var field = form.querySelector(".writing-strokes");
    var count = form.querySelector(".writing-count");
    var undo = form.querySelector(".writing-undo");
    var clear = form.querySelector(".writing-clear");
    var check = form.querySelector(".writing-check");
    if (!canvas || !field || !canvas.getContext) return;
    var ctx = canvas.getContext("2d");
    var strokes = [];
    var current = null;
    var side = 300;

    function resize() {
      if (!canvas.isConnected) return; // swapped out by htmx
      var rect = canvas.getBoundingClientRect();
      var ratio = window.devicePixelRatio || 1;
      side = Math.max(1, Math.round(rect.width));
      canvas.width = Math.round(side * ratio);
      canvas.height = Math.round(side * ratio);
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      redraw();
    }

    function guide() {
      ctx.strokeStyle = "#d9dde6";
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(side / 2, 0);
      ctx.lineTo(side / 2, side);
      ctx.moveTo(0, side / 2);
      ctx.lineTo(side, side / 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }

    function drawStroke(points) {
      if (!points.length) return;
      ctx.beginPath();
      ctx.moveTo(points[0][0] * side, points[0][1] * side);
      for (var i = 1; i < points.length; i++) {
        ctx.lineTo(points[i][0] * side, points[i][1] * side);
      }
      if (points.length === 1) ctx.lineTo(points[0][0] * side + 0.1, points[0][1] * side);
      ctx.stroke();
    }

    function redraw() {
      ctx.clearRect(0, 0, side, side);
      guide();
      ctx.strokeStyle = "#1d2433";
      ctx.lineWidth = Math.max(3, side / 40);
      ctx.lineCap = "round";
      ctx.lineJoin = "round";
      strokes.forEach(drawStroke);
      if (current) drawStroke(current);
    }

    function changed() {
      field.value = strokes.length ? JSON.stringify(strokes) : "";
      if (count) {
        var label = count.dataset.label || "";
        // a full-width colon (Japanese) carries its own space
        count.textContent = label + (/[：]$/.test(label) ? "" : " ") + strokes.length;
      }
      if (undo) undo.disabled = strokes.length === 0;
      if (clear) clear.disabled = strokes.length === 0;
      redraw();
    }

    function at(event) {
      var rect = canvas.getBoundingClientRect();
      var x = (event.clientX - rect.left) / (rect.width || 1);
      var y = (event.clientY - rect.top) / (rect.height || 1);
      x = Math.min(1, Math.max(0, x));
      y = Math.min(1, Math.max(0, y));
      return [Math.round(x * 10000) / 10000, Math.round(y * 10000) / 10000];
    }

    canvas.addEventListener("pointerdown", function (event) {
      if (event.button !== undefined && event.button > 0) return;
      if (strokes.length >= MAX_STROKES) return;
      event.preventDefault();
      if (canvas.setPointerCapture) canvas.setPointerCapture(event.pointerId);
      current = [at(event)];
      redraw();
    });
    canvas.addEventListener("pointermove", function (event) {
      if (!current || current.length >= MAX_POINTS) return;
      event.preventDefault();
      var point = at(event);
      var last = current[current.length - 1];
      if (Math.hypot(point[0] - last[0], point[1] - last[1]) < MIN_STEP) return;
      current.push(point);
      redraw();
    });
    function end(event) {
      if (!current) return;
      if (event && event.type === "pointerup") {
        var point = at(event);
        var last = current[current.length - 1];
        if (current.length < MAX_POINTS && (point[0] !== last[0] || point[1] !== last[1])) {
          current.push(point);
        }
      }
      strokes.push(current);
      current = null;
      changed();
    }
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);

    if (undo) undo.addEventListener("click", function () {
      strokes.pop();
      changed();
    });
    if (clear) clear.addEventListener("click", function () {
      strokes = [];
      changed();
    });
    function nothingDrawn() {
      if (count && count.dataset.empty) count.textContent = count.dataset.empty;
    }
    // "Check" submits only a drawing: a plain button here (a submit button without script),
    // so that no listener order (htmx's or ours) can post an empty answer.
    if (check) {
      check.type = "button";
      check.addEventListener("click", function () {
        if (!strokes.length) {
          nothingDrawn();
          return;
        }
        if (form.requestSubmit) form.requestSubmit();
        else form.submit();
      });
    }
    form.addEventListener("submit", function (event) {
      if (strokes.length) return;
      event.preventDefault();
      nothingDrawn();
    });
    window.addEventListener("resize", resize);
    resize();
    changed();
  }

  function setUpAll(root) {
    var scope = root && root.querySelectorAll ? root : document;
    if (scope.matches && scope.matches("form[data-writing]")) setUp(scope);
    scope.querySelectorAll("form[data-writing]").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setUpAll(document); });
  } else {
    setUpAll(document);
  }
  document.addEventListener("htmx:load", function (event) { setUpAll(event.target); });
})();
