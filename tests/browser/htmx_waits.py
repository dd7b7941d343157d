"""What the browser tests wait for after htmx has work to do."""

# htmx has nothing in flight (a request sent as the page loads, a poll) and no swap settling.
SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
