"""`make test`: the suite in two pytest runs at once, so the browser tests' waits overlap work.

The browser tests (marker ``browser``: Chromium through Playwright against a live server)
spend most of their time waiting for pages, timers and polls; the other tests keep a core
busy from start to end. Run one after the other, the waits were wall time with an idle core
(docs/bench.md, "Fast feedback"). Here both runs start together:

- the browser tests, on ``BROWSER_WORKERS`` processes of their own, each with one Chromium for
  all its tests (``KANAGAME_ONE_BROWSER``, tests/browser/conftest.py); their output is kept
  and printed after the other run's, so the two never interleave;
  the tests marked ``live`` (threads against a live server or racing clients) run there too:
  like the browser tests they need a SQLite database file, and any one of them in a run
  turned the whole run's in-memory test database into a file (~10 % more CPU);
- every other test (``OTHERS``) on ``-n TEST_WORKERS``, on an in-memory SQLite database.

Both take the same extra arguments (``make test PYTEST_ARGS=...``). The exit status is the
worse of the two; pytest's 5 ("no tests collected") counts as success for one run only when
the other ran tests (``PYTEST_ARGS=tests/games`` selects no browser test).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

NOT_COLLECTED = 5
# the browser tests and the few that run threads against one database (marker ``live``): both
# need a SQLite test database *file* (tests/conftest.py), so the others keep the in-memory one
BESIDE = "(browser or live) and not slow and not journey"
OTHERS = "not slow and not journey and not browser and not live"


def _pytest(args: list[str], env: dict[str, str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pytest", *args], env=env, **kwargs)


def main(extra: list[str]) -> int:
    workers = os.environ.get("TEST_WORKERS", "auto")
    browser_workers = os.environ.get("BROWSER_WORKERS", "2")
    env = dict(os.environ)
    # pytest-django's own switch for runs that share a database server: the browser run's
    # PostgreSQL test databases get their own names (test_<name>_browser_gw0, ...).
    browser_env = dict(env, KANAGAME_ONE_BROWSER="1", TOX_PARALLEL_ENV="browser")
    with tempfile.TemporaryFile(mode="w+") as browser_log:
        browser = _pytest(
            ["-n", browser_workers, "-m", BESIDE, *extra],
            browser_env,
            stdout=browser_log,
            stderr=subprocess.STDOUT,
        )
        try:
            rest = _pytest(["-n", workers, "-m", OTHERS, *extra], env).wait()
            codes = [rest, browser.wait()]
        except KeyboardInterrupt:
            browser.terminate()
            raise
        browser_log.seek(0)
        print("\n== the browser tests (run beside the others)\n", flush=True)
        sys.stdout.write(browser_log.read())
    ran = [code for code in codes if code != NOT_COLLECTED]
    if not ran:
        return NOT_COLLECTED
    return max(ran)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
