"""docs/architecture.md's "Apps by layer" diagram is the import graph (issue 23).

The diagram lists the apps from the top down. Read from the doc, each one must import the one
drawn right below it (the arrow "imports ▼" is true), and nothing below may import anything
above it, directly or through other modules (grimp: the graph import-linter builds)."""

import re
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def _diagram_apps() -> list[str]:
    """The app packages of the diagram, top first (the lines that start with a folder)."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## Apps by layer", 1)[1].split("```", 2)[1]
    apps = []
    for line in block.splitlines():
        match = re.match(r"^([a-z_]+(?:/[a-z_]+)*)/\s", line)
        if match and match.group(1) != "kanagame":
            apps.append(match.group(1).replace("/", "."))
    return apps


def test_the_diagram_lists_the_apps_top_down():
    assert _diagram_apps() == [
        "learning.classroom",
        "learning",
        "games",
        "games.engines",
        "kanagame.classes",
        "kanagame.accounts",
    ]


def test_no_app_imports_one_drawn_above_it_and_each_imports_the_next():
    graph = grimp.build_graph("kanagame", "games", "learning")
    apps = _diagram_apps()

    def modules(package: str) -> set[str]:
        inside = {package} | graph.find_descendants(package)
        # learning's own modules are those not in the classroom (drawn above it)
        if package == "learning":
            inside -= {"learning.classroom"} | graph.find_descendants("learning.classroom")
        if package == "games":
            inside -= {"games.engines"} | graph.find_descendants("games.engines")
        return inside

    for high_index, high in enumerate(apps):
        for low in apps[high_index + 1 :]:
            upward = [
                (importer, imported)
                for importer in modules(low)
                for imported in modules(high)
                if graph.direct_import_exists(importer=importer, imported=imported)
            ]
            assert upward == [], f"{low} imports {high}, drawn above it: {upward[:5]}"
    for high, low in zip(apps, apps[1:], strict=False):
        if high == "games.engines":
            high = "games"  # engines import no app: the games app imports the one below
        downward = any(
            graph.direct_import_exists(importer=importer, imported=imported)
            for importer in modules(high)
            for imported in modules(low)
        )
        assert downward, f"the diagram says {high} imports {low}; it does not"
