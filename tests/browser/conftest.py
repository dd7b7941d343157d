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
LIVE_SERVER_MODULES = ("test_browser_play.py",)


def pytest_collection_modifyitems(config, items):
    """A SQLite test database *file* for live-server tests (see tests/games/conftest.py)."""
    import tempfile

    from django.conf import settings

    if not any(item.path.name in LIVE_SERVER_MODULES for item in items):
        return
    database = settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if "sqlite3" not in database["ENGINE"] or test.get("NAME") not in (None, "", ":memory:"):
        return
    test["NAME"] = os.path.join(tempfile.gettempdir(), f"kanagame-test-{os.getpid()}.sqlite3")


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
