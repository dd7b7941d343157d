"""Where the apps above `games` plug in, so that `games` never imports them.

`games` sits below `learning` and the classroom (docs/architecture.md). When a games page or
rule needs something only a higher app knows, it asks here; the higher app answers by
registering from its `AppConfig.ready()`:

- **lobby panels** (`register_lobby_panel`): blocks shown at the top of the lobby, e.g. the
  student's open assignments. A panel is a function of the user returning a template name and
  its context, or None to show nothing; `{% lobby_panels %}` (games_panels tags) renders them.
- **result panels** (`register_result_panel`): blocks shown under a finished game's result,
  e.g. "back to today's session" (learning) or whether the game counted for an assignment
  (classroom). A panel is a function of (user, table) returning (template, context) or None;
  `{% result_panels %}` renders them.
- **signals** (games/signals.py): `game_finished`, sent when a table's game ends, and
  `table_replayed`, sent when "Play again" made a new table of a finished one.

Classes are not asked here: they sit below games (`kanagame.classes`), and games reads them
directly (a table's class is a real foreign key).

Registration happens once at start-up in every process (web and Celery alike), so nothing is
request-scoped or process-local state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LobbyPanel = Callable[[Any], "tuple[str, dict] | None"]

ResultPanel = Callable[[Any, Any], "tuple[str, dict] | None"]

_registry: dict[str, Any] = {"lobby_panels": [], "result_panels": []}


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
