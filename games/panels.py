"""Panels that apps above ``games`` add to its pages, without ``games`` importing them.

An app registers a provider in its ``AppConfig.ready()``:

    table_panel_register(provider)   # provider(*, user, table_id, handover) -> template context

``table_panels`` merges what the providers return into the board page's context (the learning
app adds the learner's open recognition ``prompts`` and ``prompts_template``, the template the
board includes to show them). Providers are registered once at start-up;
nothing is stored per request. ``handover``: what the receivers of ``games.signals.seat_observed``
left for the board in the same request (a move's), or None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TablePanel = Callable[..., dict[str, Any]]
_TABLE_PANELS: list[TablePanel] = []


def table_panel_register(provider: TablePanel) -> None:
    """Add ``provider`` to the board page (idempotent: a provider is registered once)."""
    if provider not in _TABLE_PANELS:
        _TABLE_PANELS.append(provider)


def table_panels(*, user: Any, table_id: int, handover: dict | None = None) -> dict[str, Any]:
    """The context every registered provider adds for ``user`` at table ``table_id``."""
    context: dict[str, Any] = {}
    for provider in _TABLE_PANELS:
        context.update(provider(user=user, table_id=table_id, handover=handover))
    return context
