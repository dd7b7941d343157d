"""Every dotted name of the product that docs/ quotes (`games.…`, `learning.…`, `kanagame.…`)
exists: a module or an attribute of one, a model (`app_label.Model`), a Celery task's
registered name, or a session key the code defines. A rename that leaves the docs behind fails
here (docs/architecture.md's hook tables named functions that had moved)."""

import importlib
import re
from pathlib import Path

import pytest
from django.apps import apps

from kanagame.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[1]
DOTTED = re.compile(r"`((?:games|learning|kanagame)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
# where a quoted string name (a session key, a cache key) must be defined
SOURCES = ("games", "learning", "kanagame")


def _quoted() -> list[tuple[str, str]]:
    return [
        (path.relative_to(ROOT).as_posix(), match.group(1))
        for path in sorted((ROOT / "docs").rglob("*.md"))
        for match in DOTTED.finditer(path.read_text(encoding="utf-8"))
    ]


def _importable(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def _a_model(name: str) -> bool:
    label, _, model = name.partition(".")
    try:
        apps.get_model(label, model)
    except (LookupError, ValueError):
        return False
    return True


def _a_string_in_the_code(name: str) -> bool:
    quoted = (f'"{name}"', f"'{name}'")
    return any(
        any(q in path.read_text(encoding="utf-8") for q in quoted)
        for source in SOURCES
        for path in (ROOT / source).rglob("*.py")
    )


def _exists(name: str) -> bool:
    return (
        _importable(name)
        or _a_model(name)
        or name in celery_app.tasks
        or _a_string_in_the_code(name)
    )


def test_the_docs_quote_names_of_the_product():
    quoted = _quoted()
    assert len(quoted) > 30  # the docs do quote names: the check reads them
    missing = sorted({(doc, name) for doc, name in quoted if not _exists(name)})
    assert missing == [], f"names in docs/ the code no longer has: {missing}"


@pytest.mark.parametrize(
    ("name", "exists"),
    [
        ("games.services.play", True),
        ("learning.classroom.hooks.picker_assignments", True),
        ("games.Table", True),
        ("learning.refresh_summaries_after_game", True),
        ("learning.receivers.picker_assignments", False),
        ("games.services.play.no_such_function", False),
    ],
)
def test_the_check_tells_a_name_that_exists_from_one_that_does_not(name, exists):
    assert _exists(name) is exists
