"""Helpers shared by the game pages: the public table info and the board context.

Templates never receive a ``Table`` (its ``state`` and ``seed`` hold hidden cards): they get
``TableInfo`` (public fields) and the presenter's data built from ``eng.view(state, seat)``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engines import get_engine
from games.models import Seat, Table
from games.views.boards import presenter_for
from games.views.boards.common import BoardContext, Player

ENGINE_NAMES = {
    "kazoku-families": _("Kazoku: happy families"),
    "kazoku-words": _("Kazoku: the word game"),
    "koikoi": _("Koi-Koi (hanafuda)"),
}
ENGINE_BLURBS = {
    "kazoku-families": _("Ask the others for the kana you miss and lay whole families."),
    "kazoku-words": _("Collect kana and form the words printed on your cards."),
    "koikoi": _(
        "Two players capture flower cards by month to form yaku; "
        "learn the kana of the twelve plants."
    ),
}


def engine_name(engine: str) -> str:
    return str(ENGINE_NAMES.get(engine, engine))


@dataclass(frozen=True)
class TableInfo:
    """The public face of a table (what every page may show)."""

    code: str
    engine: str
    engine_name: str
    version: int
    status: str
    status_label: str
    romaji: str
    script: str
    timer: int
    turn_due_at: datetime | None
    created_by_id: int
    classroom_name: str
    url: str
    options: dict[str, Any]

    @classmethod
    def of(cls, table: Table) -> TableInfo:
        options = {k: v for k, v in table.options.items() if k != "setup"}
        return cls(
            code=table.code,
            engine=table.engine,
            engine_name=engine_name(table.engine),
            version=table.version,
            status=table.status,
            status_label=str(table.get_status_display()),
            romaji=options.get("romaji", "always"),
            script=options.get("script", "hiragana"),
            timer=table.timer,
            turn_due_at=table.turn_due_at,
            created_by_id=table.created_by_id,
            classroom_name=table.classroom.name if table.classroom_id else "",
            url=table.get_absolute_url(),
            options=options,
        )

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def is_playing(self) -> bool:
        return self.status == "playing"

    @property
    def is_finished(self) -> bool:
        return self.status == "finished"


def players_of(table: Table, me: int | None) -> list[Player]:
    players = []
    for seat in table.seats.select_related("user__profile").order_by("index"):
        players.append(seat_player(seat, me))
    return players


def seat_player(seat: Seat, me: int | None) -> Player:
    if seat.is_bot:
        name = _("CPU %(number)s (%(level)s)") % {
            "number": seat.index + 1,
            "level": seat.get_bot_level_display(),
        }
        kind = "bot"
    elif seat.is_human:
        profile = getattr(seat.user, "profile", None)
        name = profile.name if profile else seat.user.username
        kind = "human"
    else:
        name, kind = _("Open seat"), "open"
    return Player(
        index=seat.index,
        name=str(name),
        kind=kind,
        is_me=seat.index == me,
        away=seat.is_human and seat.autoplay,
        level=seat.bot_level,
    )


def board_for(
    *,
    table: Table,
    seat: Seat | None,
    state: Any = None,
    players: list[Player] | None = None,
    actions: bool = True,
    view: Any = None,
) -> BoardContext:
    """The presenter's board for ``seat`` (``None``: spectator) from the view only.

    ``actions=False`` (a replay): the presenter gets no legal actions, so no engine's board
    offers a move. ``view``: the seat's view of ``state`` when the caller already has it.
    """
    eng = get_engine(table.engine)
    state = eng.from_json(table.state) if state is None else state
    me = seat.index if seat is not None else None
    view = eng.view(state, me) if view is None else view
    playing = actions and me is not None and not seat.autoplay
    legal = eng.legal_actions(state, me) if playing else []
    players = players_of(table, me) if players is None else players
    return presenter_for(table.engine).build(
        view=view,
        legal=legal,
        players=players,
        me=me,
        romaji=table.options.get("romaji", "always"),
    )


def new_token() -> str:
    """A fresh client token for the action forms of one rendered board."""
    return secrets.token_urlsafe(12)
