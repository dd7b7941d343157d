// The board's poll, fast while the tab is visible and slow while it is hidden, without eval.
//
// The Content-Security-Policy forbids eval, so htmx cannot evaluate a trigger filter such as
// `every 2s [document.visibilityState === 'visible']` (it logs htmx:evalDisallowedError and
// polls regardless). The board says both intervals (data-poll-fast, data-poll-hidden, in
// seconds, from the server); this script sets `hx-trigger` to the one that fits before htmx
// reads it (a new page, a board swapped in) and again when the tab is hidden or shown; htmx
// re-reads a changed trigger when the element is processed again. A tab that shows again
// polls at once (the `kanagame:poll` event). A whole class's background tabs then cost the
// server one poll each every 15 s instead of every 2 s.
(function () {
  "use strict";

  function wanted(board) {
    var seconds = document.visibilityState === "hidden" ? board.dataset.pollHidden : board.dataset.pollFast;
    return "every " + seconds + "s, kanagame:poll";
  }

  function polling(element) {
    return element && element.dataset && element.dataset.pollHidden ? element : null;
  }

  document.addEventListener("htmx:beforeProcessNode", function (event) {
    var board = polling(event.target);
    if (board) board.setAttribute("hx-trigger", wanted(board));
  });

  document.addEventListener("visibilitychange", function () {
    var board = polling(document.querySelector("[data-poll-hidden]"));
    if (!board || !window.htmx) return;
    var trigger = wanted(board);
    if (board.getAttribute("hx-trigger") !== trigger) {
      board.setAttribute("hx-trigger", trigger);
      window.htmx.process(board);
    }
    if (document.visibilityState === "visible") window.htmx.trigger(board, "kanagame:poll");
  });
})();
