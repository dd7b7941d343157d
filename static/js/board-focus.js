// Keyboard focus across htmx swaps of a board (#board) or a replay step (#replay).
//
// htmx replaces the whole section after a move, a poll or a replay step, which drops the
// focused control and sends keyboard users back to the top of the page. If the focus was
// inside the section, it goes back to the same control when the new section still has it
// (matched by id, or by name and value for action buttons, or by rel for replay links),
// else to the section's status line, which says what happened. Focus elsewhere is left alone.
(function () {
  "use strict";
  var SECTIONS = ["board", "replay"];
  var pending = null;

  function selectorFor(el) {
    if (el.id) return "#" + CSS.escape(el.id);
    if (el.name && el.value !== undefined && el.value !== "") {
      return el.tagName.toLowerCase() + '[name="' + CSS.escape(el.name) + '"][value="' +
        CSS.escape(el.value) + '"]';
    }
    if (el.getAttribute("rel")) return 'a[rel="' + CSS.escape(el.getAttribute("rel")) + '"]';
    return null;
  }

  // A move's button is disabled while its request runs (hx-disabled-elt), which blurs it:
  // remember where the focus was when the request left.
  var focusedAtRequest = null;
  document.addEventListener("htmx:beforeRequest", function () {
    focusedAtRequest = document.activeElement;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    pending = null;
    if (!target || SECTIONS.indexOf(target.id) < 0) return;
    var active = document.activeElement;
    if (!active || active === document.body) active = focusedAtRequest;
    focusedAtRequest = null;
    if (active && active !== target && target.contains(active)) {
      pending = { section: target.id, selector: selectorFor(active) };
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!pending) return;
    var section = document.getElementById(pending.section);
    var wanted = pending.selector && section && section.querySelector(pending.selector);
    pending = null;
    if (!section) return;
    if (!wanted || wanted.disabled) wanted = section.querySelector("[data-focus-fallback]");
    if (wanted) wanted.focus();
  });
})();
