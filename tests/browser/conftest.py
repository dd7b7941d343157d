"""Browser tests: Playwright's sync API drives Debian's Chromium against a live server."""

import os

import pytest

# Debian's headless shell when it is installed (.ci/run installs it): the browser Playwright
# itself runs for headless tests, about a fifth less CPU than the full Chromium for the same
# run (docs/bench.md, "Fast feedback", session 12). The journeys keep the full browser.
CHROMIUM = next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
     if os.path.exists(path)),
    "/usr/bin/chromium",
)  # fmt: skip
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _browser_scope(fixture_name, config) -> str:
    """One Chromium per test process when the process runs browser tests only (``make test``
    runs them apart, with ``KANAGAME_ONE_BROWSER`` set: tests/run_fast.py): a launch costs about
    a second of CPU. Elsewhere one per test: Playwright's sync API leaves its event loop set in
    the thread between calls, and a later test of another kind calling ``async_to_sync`` in
    that process would be refused."""
    return "session" if os.environ.get("KANAGAME_ONE_BROWSER") else "function"


@pytest.fixture(scope=_browser_scope)
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"browser test skipped: {CHROMIUM} is missing (apt-get install chromium)")
    # Playwright's sync API runs an event loop in this thread; the ORM calls of the test
    # itself are still synchronous.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def results_dir(request):
    path = os.path.join("test-results", request.node.name)
    os.makedirs(path, exist_ok=True)
    return path


@pytest.fixture(autouse=True)
def _contexts_closed_after_each_test(request):
    """A shared Chromium starts each test without the windows an earlier one left open (a board
    left open keeps polling the live server)."""
    yield
    if browser := request.node.funcargs.get("browser"):
        for context in browser.contexts:
            context.close()
