// htmx swaps of a board (#board) or a replay step (#replay): keyboard focus and announcements.
//
// htmx replaces the whole section after a move, a poll or a replay step, which drops the
// focused control and sends keyboard users back to the top of the page. If the focus was
// inside the section, it goes back to the same control when the new section still has it
// (matched by id, by name and value for action buttons, by rel for replay links, or by card id
// for a card focused to show its romaji),
// else to the section's status line, which says what happened. Focus elsewhere is left alone.
//
// A live region inside the swapped section would be replaced, not updated, so screen readers
// may stay silent: the page keeps one live region outside it (#swap-announcer) and this
// script puts in it what the new section announces ([data-announce]) when that text changed
// (the status line, the latest log line, and an open kana question or the answer's feedback).
//
// The kana question (#table-prompts, inside the board) is swapped on its own when answered:
// the focus, if it was in it, goes to the feedback ("Right: …"), from which Tab leads to the
// next question. A question that appears with a move or a poll never takes the focus (the
// player may be on their way to a move); it comes first in the board's Tab order instead.
(function () {
  "use strict";
  var SECTIONS = ["board", "replay", "table-prompts"];
  var REMATCHED = ["board", "replay"]; // the same control is looked for after these swaps
  var pending = null;

  function selectorFor(el) {
    if (el.id) return "#" + CSS.escape(el.id);
    if (el.name && el.value !== undefined && el.value !== "") {
      return el.tagName.toLowerCase() + '[name="' + CSS.escape(el.name) + '"][value="' +
        CSS.escape(el.value) + '"]';
    }
    if (el.getAttribute("rel")) return 'a[rel="' + CSS.escape(el.getAttribute("rel")) + '"]';
    if (el.dataset && el.dataset.card) {
      return '[data-card="' + CSS.escape(el.dataset.card) + '"][tabindex]';
    }
    return null;
  }

  // A move's button is disabled while its request runs (hx-disabled-elt), which blurs it:
  // each request remembers, on its own element, where the focus was when it left, and its
  // swap uses that (a poll never inherits another request's memory).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var active = document.activeElement;
    if (elt) elt.kanagameFocus = active && active !== document.body ? active : null;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    pending = null;
    if (!target || SECTIONS.indexOf(target.id) < 0) return;
    var active = document.activeElement;
    var config = event.detail.requestConfig;
    if ((!active || active === document.body) && config && config.elt) {
      active = config.elt.kanagameFocus;
    }
    if (config && config.elt) config.elt.kanagameFocus = null;
    if (active && active !== target && target.contains(active)) {
      var same = REMATCHED.indexOf(target.id) >= 0 ? selectorFor(active) : null;
      pending = { section: target.id, selector: same };
    }
  });

  var lastAnnounced = null;
  function announce() {
    var region = document.getElementById("swap-announcer");
    if (!region) return;
    var parts = [];
    REMATCHED.forEach(function (id) {
      var section = document.getElementById(id);
      if (!section) return;
      section.querySelectorAll("[data-announce]").forEach(function (el) {
        var text = el.textContent.replace(/\s+/g, " ").trim();
        if (text) parts.push(text);
      });
    });
    var text = parts.join(" ");
    if (lastAnnounced !== null && text !== lastAnnounced) region.textContent = text;
    lastAnnounced = text;
  }
  document.addEventListener("DOMContentLoaded", announce);

  document.addEventListener("htmx:afterSettle", function () {
    announce();
    if (!pending) return;
    var section = document.getElementById(pending.section);
    var wanted = pending.selector && section && section.querySelector(pending.selector);
    pending = null;
    if (!section) return;
    if (!wanted || wanted.disabled) wanted = section.querySelector("[data-focus-fallback]");
    if (!wanted) wanted = section.querySelector("button:not([disabled]), input:not([type=hidden])");
    if (wanted) wanted.focus();
  });
})();
