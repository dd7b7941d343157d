"""Where the apps above `games` plug in, so that `games` never imports them.

`games` sits below `learning` and the classroom (docs/architecture.md). When a games page or
rule needs something only a higher app knows, it asks here; the higher app answers by
registering from its `AppConfig.ready()`:

- **class scope** (`register_class_scope`): which classes a user studies in or teaches, who
  teaches whom, and a user's assignment by id. Table access, the lobby lists and the
  create-table form ask it. Registered by the classroom (learning/classroom/hooks.py).
  Without one, nobody is in a class: every table is a table without a class.
- **lobby panels** (`register_lobby_panel`): blocks shown at the top of the lobby, e.g. the
  student's open assignments. A panel is a function of the user returning a template name and
  its context, or None to show nothing; `{% lobby_panels %}` (games_panels tags) renders them.
- **result panels** (`register_result_panel`): blocks shown under a finished game's result,
  e.g. "back to today's session" (learning) or whether the game counted for an assignment
  (classroom). A panel is a function of (user, table) returning (template, context) or None;
  `{% result_panels %}` renders them.
- **signals** (games/signals.py): `game_finished`, sent when a table's game ends.

Registration happens once at start-up in every process (web and Celery alike), so nothing is
request-scoped or process-local state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol


class ClassScope(Protocol):
    """The questions `games` asks about classes. Classes are opaque objects with ``pk`` and
    ``name``; assignments are opaque objects with ``pk``, ``classroom``, ``options``, ``script``.
    """

    def classes_of(self, user) -> Iterable[Any]:
        """The classes ``user`` belongs to (student) or teaches (teacher)."""

    def in_class(self, user, class_id: int) -> bool:
        """Whether ``user`` teaches the class or is one of its students."""

    def teaches(self, user, class_id: int) -> bool:
        """Whether ``user`` teaches the class."""

    def students_of(self, teacher) -> Iterable[int]:
        """The ids of the students of every class ``teacher`` teaches (may be a subquery)."""

    def assignment_for(self, user, assignment_id: int) -> Any | None:
        """The assignment if it belongs to one of ``user``'s classes, else None."""

    def class_names(self, class_ids: Iterable[int]) -> dict[int, str]:
        """The names of these classes (a table shows the name of its class)."""


class NoClasses:
    """The scope when no app registered one: there are no classes."""

    def classes_of(self, user) -> list:
        return []

    def in_class(self, user, class_id: int) -> bool:
        return False

    def teaches(self, user, class_id: int) -> bool:
        return False

    def students_of(self, teacher) -> list[int]:
        return []

    def assignment_for(self, user, assignment_id: int) -> None:
        return None

    def class_names(self, class_ids: Iterable[int]) -> dict[int, str]:
        return {}


LobbyPanel = Callable[[Any], "tuple[str, dict] | None"]

ResultPanel = Callable[[Any, Any], "tuple[str, dict] | None"]

_registry: dict[str, Any] = {"class_scope": NoClasses(), "lobby_panels": [], "result_panels": []}


def register_class_scope(scope: ClassScope) -> None:
    """Install the class scope (the classroom app calls this from its ready())."""
    _registry["class_scope"] = scope


def class_scope() -> ClassScope:
    return _registry["class_scope"]


def register_lobby_panel(panel: LobbyPanel) -> None:
    """Add a lobby panel; registering the same function twice keeps one."""
    if panel not in _registry["lobby_panels"]:
        _registry["lobby_panels"].append(panel)


def lobby_panels(user) -> list[tuple[str, dict]]:
    """The (template, context) of every registered panel that has something for ``user``."""
    return [shown for panel in _registry["lobby_panels"] if (shown := panel(user)) is not None]


def register_result_panel(panel: ResultPanel) -> None:
    """Add a result panel (a function of user and finished table); once per function."""
    if panel not in _registry["result_panels"]:
        _registry["result_panels"].append(panel)


def result_panels(user, table) -> list[tuple[str, dict]]:
    """The (template, context) of every registered result panel with something to say."""
    return [
        shown for panel in _registry["result_panels"] if (shown := panel(user, table)) is not None
    ]
