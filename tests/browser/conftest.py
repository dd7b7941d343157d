"""Browser tests: Playwright's sync API drives Debian's Chromium against a live server."""

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
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
