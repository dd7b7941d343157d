// Site-wide behaviour that used to sit in inline attributes, kept here so that the
// Content-Security-Policy allows no inline script at all (docs/security.md §7).
//
// - [data-print] buttons print the page (the login cards).
// - Inside [data-swap-client-errors], htmx swaps 4xx answers like successes: those forms
//   answer a refusal with the block to show (a wrong prompt answer, a stale question).
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) {
      event.preventDefault();
      window.print();
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (status >= 400 && status < 500 && event.target.closest("[data-swap-client-errors]")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
