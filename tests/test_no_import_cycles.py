"""No import cycle anywhere in the product (issue 23): two modules that import each other, even
through a function-level import, make the load order matter and hide a dependency.

The module graph is grimp's (import-linter's engine: it reads every import statement of every
module, inside functions too). One cycle is known and listed, to be removed by the issue's
"one way to plug in" work: the test fails on any other cycle, and on the listed one once it
is gone (so the list cannot go stale).
"""

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kanagame", "games", "learning")
KNOWN_CYCLES = [
    # services queue the Celery tasks, the tasks call the services (issue 23, "one way to plug in")
    ["games.services.play", "games.tasks"],
]


def import_cycles(graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in graph.modules:
                continue  # a library
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return sorted(found)


def _graph():
    sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def test_no_module_imports_itself_through_others():
    assert import_cycles(_graph()) == KNOWN_CYCLES


def test_a_cycle_hidden_in_a_function_is_found(tmp_path, monkeypatch):
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "cards.py").write_text("DECK = ()\n")
    (package / "rules.py").write_text("from planted import cards, state\n")
    (package / "state.py").write_text(
        "def replay():\n    from planted.rules import cards  # the rules import this module\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("planted", cache_dir=None)
    assert import_cycles(graph) == [["planted.rules", "planted.state"]]
