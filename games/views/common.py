"""Helpers shared by the game pages: the public table info and the board context.

Templates never receive a ``Table`` (its ``state`` and ``seed`` hold hidden cards): they get
``TableInfo`` (public fields) and the presenter's data built from ``eng.view(state, seat)``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.boards import presenter_for
from games.boards.common import BoardContext, Player
from games.display import game_blurb, game_title
from games.engines import ENGINES, action_key, get_engine
from games.models import BotLevel, Seat, Table, TableStatus
from games.tokens import opaque
from kanagame.classes.selectors import class_names as classes_named

# each choice's (lazy) label by value: ``get_FOO_display()`` builds this dict again on every
# call, hashing (so translating) every label of the field's choices
_STATUS_LABELS = dict(TableStatus.choices)
_LEVEL_LABELS = dict(BotLevel.choices)


def engine_name(engine: str) -> str:
    """The engine's translated ``title`` (``games.display.game_title``)."""
    return game_title(engine)


def engine_blurb(engine: str) -> str:
    """The engine's translated one-sentence ``blurb`` for the lobby."""
    return game_blurb(engine)


def engines_offered() -> list[str]:
    """The registered engines the lobby offers: those with a ``title``, registry order."""
    return [name for name in ENGINES if get_engine(name).title]


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
    ranked: bool = False
    forfeit_seat: int | None = None  # a ranked game's forfeiter (games.services.ratings)

    @classmethod
    def of(cls, table: Table, class_names: Mapping[int, str] | None = None) -> TableInfo:
        """The table's public facts; ``class_names`` (id -> name) saves a query per table."""
        if class_names is None and table.classroom_id is not None:
            class_names = classes_named(classroom_ids=[table.classroom_id])
        options = {k: v for k, v in table.options.items() if k != "setup"}
        return cls(
            code=table.code,
            engine=table.engine,
            engine_name=engine_name(table.engine),
            version=table.version,
            status=table.status,
            status_label=str(_STATUS_LABELS.get(table.status, table.status)),
            romaji=options.get("romaji", "always"),
            script=options.get("script", "hiragana"),
            timer=table.timer,
            turn_due_at=table.turn_due_at,
            created_by_id=table.created_by_id,
            classroom_name=(class_names or {}).get(table.classroom_id, ""),
            url=table.get_absolute_url(),
            options=options,
            ranked=table.ranked,
            forfeit_seat=table.forfeit_seat,
        )

    # The board's poll and leave URLs, from the table's own (``games/urls.py`` nests them
    # under it; tests/games/test_board_tags.py checks them against ``reverse``): a board is
    # drawn on every poll that finds a change, and a reversal costs more than the rest of it.
    @property
    def poll_url(self) -> str:
        return f"{self.url}poll/"

    @property
    def leave_url(self) -> str:
        return f"{self.url}leave/"

    @property
    def stylesheets(self) -> tuple[str, ...]:
        """The static stylesheets this game's board declares (its presenter's)."""
        return presenter_for(self.engine).stylesheets

    @property
    def scripts(self) -> tuple[str, ...]:
        """The static scripts this game's board declares (its presenter's)."""
        return presenter_for(self.engine).scripts

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def is_playing(self) -> bool:
        return self.status == "playing"

    @property
    def is_finished(self) -> bool:
        return self.status == "finished"


def players_of(table: Table, me: int | None, seats: Iterable[Seat] | None = None) -> list[Player]:
    """The players of ``table`` by seat; ``seats`` (with their users' profiles) when the
    caller has read them."""
    if seats is None:
        seats = table.seats.select_related("user__profile").order_by("index")
    else:
        seats = sorted(seats, key=lambda seat: seat.index)
    return [seat_player(seat, me) for seat in seats]


def seat_player(seat: Seat, me: int | None) -> Player:
    if seat.is_bot:
        name = _("CPU %(number)s (%(level)s)") % {
            "number": seat.index + 1,
            "level": _LEVEL_LABELS.get(seat.bot_level, seat.bot_level),
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
    romaji: str | None = None,
) -> BoardContext:
    """The presenter's board for ``seat`` (``None``: spectator) from the view only.

    ``actions=False`` (a replay): the presenter gets no legal actions, so no engine's board
    offers a move. ``view``: the seat's view of ``state`` when the caller already has it.
    ``romaji``: overrides the table's romaji mode (``never`` while a kana question is open).
    """
    eng = get_engine(table.engine)
    state = eng.from_json(table.state) if state is None else state
    me = seat.index if seat is not None else None
    view = eng.view(state, me) if view is None else view
    playing = actions and me is not None and not seat.autoplay
    legal = eng.legal_actions(state, me) if playing else []
    players = players_of(table, me) if players is None else players
    board = presenter_for(table.engine).build(
        view=view,
        legal=legal,
        players=players,
        me=me,
        romaji=romaji or table.options.get("romaji", "always"),
    )
    # no card id or action key reaches the page: they spell readings (games.tokens)
    board.data = opaque(board.data, table_id=table.pk, keys={action_key(a) for a in legal})
    return board


def new_token() -> str:
    """A fresh client token for the action forms of one rendered board."""
    return secrets.token_urlsafe(12)
