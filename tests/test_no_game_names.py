"""Generic code names no game (ARCHITECTURE §1, issue 23): a game's name appears only in that
game's own files. Everything else reads names, labels, ranking and static files from the
engine or its presenter (docs/architecture.md, "Display").

Scanned: the product's Python, templates, stylesheets and scripts (``kanagame/``, ``games/``,
``learning/``, ``templates/``, ``static/``), comments and docstrings included, case-insensitive.
Out of scope, on purpose: migrations (history, never edited), demo and load data
(``games/demo.py``, ``learning/classroom/demo.py``, ``learning/demo_learning.py``: they seed
real games by name), fixtures, translations (``locale/``), docs, tests and bench.
"""

import re
from pathlib import Path

import pytest

from games.engines import ENGINES

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("kanagame", "games", "learning", "templates", "static")
SUFFIXES = {".py", ".html", ".txt", ".js", ".css"}
OUT_OF_SCOPE = (
    "games/demo.py",
    "learning/classroom/demo.py",
    "learning/demo_learning.py",
)

# Each game: the words that name it (any case), and its own files (path prefixes).
GAMES = {
    "kazoku": (
        ("kazoku", "家族"),
        (
            "games/engines/kazoku/",
            "games/boards/kazoku",
            "templates/games/boards/kazoku",
            "games/templatetags/games_kazoku",  # its board template's own tags
            "static/css/kazoku",
            "static/js/kazoku",
        ),
    ),
    "koikoi": (
        ("koikoi", "koi-koi", "koi koi", "hanafuda", "こいこい", "花札"),
        (
            "games/engines/koikoi/",
            "games/boards/koikoi",
            "templates/games/boards/koikoi",
            "games/templatetags/games_koikoi",  # its board template's own tags
            "static/css/koikoi",
            "static/js/koikoi",
        ),
    ),
    "bozu": (
        ("bozu", "bōzu", "bouzu", "mekuri", "hyakunin", "坊主", "百人一首"),
        (
            "games/engines/bozu/",
            "games/boards/bozu",
            "templates/games/boards/bozu",
            "games/templatetags/games_bozu",  # its board template's own tags
            "static/css/bozu",
            "static/js/bozu",
        ),
    ),
    "yokai": (
        ("yokai", "yōkai", "妖怪"),
        (
            "games/engines/yokai/",
            "games/boards/yokai",
            "templates/games/boards/yokai",
            "games/templatetags/games_yokai",  # its board template's own tags
            "static/css/yokai",
            "static/js/yokai",
        ),
    ),
}
# The registry is the one place that lists every game: its lines name engine modules.
REGISTRY = "games/engines/__init__.py"
REGISTRY_LINE = re.compile(r'^\s*"[a-z-]+": "games\.engines\.[a-z_.]+",$')


def _product_files() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in SUFFIXES or "/migrations/" in relative:
                continue
            if relative in OUT_OF_SCOPE or "__pycache__" in relative:
                continue
            files.append(path)
    return files


def _pattern(words) -> re.Pattern:
    return re.compile("|".join(re.escape(word) for word in words), re.IGNORECASE)


PATTERNS = {game: _pattern(words) for game, (words, _own) in GAMES.items()}


def game_names_in(relative: str, text: str) -> list[str]:
    """``"path:line: word"`` for each game named in ``text`` outside that game's own files."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if relative == REGISTRY and REGISTRY_LINE.match(line):
            continue
        for game, pattern in PATTERNS.items():
            if relative.startswith(GAMES[game][1]):
                continue
            found += [f"{relative}:{number}: {m.group(0)}" for m in pattern.finditer(line)]
    return found


def test_the_word_list_covers_every_registered_game():
    """A new game must be added here (its words and its own files) to be checked."""
    for name in ENGINES:
        assert any(PATTERNS[game].search(name) for game in GAMES), name


def test_no_generic_file_names_a_game():
    found = []
    for path in _product_files():
        relative = path.relative_to(ROOT).as_posix()
        found += game_names_in(relative, path.read_text(encoding="utf-8"))
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    ("relative", "text"),
    [
        ("templates/learn/dashboard.html", '{% if rec.engine == "kazoku-words" %}'),
        ("games/services/ratings.py", 'RANKED_ENGINES = frozenset({"bozu"})'),
        ("templates/home.html", "<li>Koi-Koi — the classic Hanafuda game</li>"),
        ("static/css/kanagame.css", "/* Bōzu Mekuri board */"),
        ("games/boards/koikoi.py", "from games.engines.yokai import ENGINE"),
        ("games/engines/__init__.py", "# the Yokai engine comes last"),
    ],
)
def test_a_planted_name_is_caught(relative, text):
    assert game_names_in(relative, text) != []


def test_a_game_s_own_files_and_the_registry_may_name_it():
    assert game_names_in("games/boards/koikoi.py", "Koi-Koi, hanafuda") == []
    assert game_names_in("static/js/bozu-speech.js", "// Bōzu Mekuri") == []
    assert game_names_in(REGISTRY, '    "koikoi": "games.engines.koikoi",') == []
