"""The state of a Bōzu Mekuri game.

What never changes during a game is its ``Deal`` (players, seed, settings, the pile in the
order it is revealed), shared by all its states. A ``BozuState`` holds what moves change:
how many cards were drawn (``deal.pile[drawn]`` is revealed next), whose turn it is and in
which phase, the cards before each player and the common pile (``zones``, as ropes: see
``index``), who is out or skips a turn (``standing``), and the state it was played from.

The public log is not copied from state to state either: a state knows its ``previous``
state, and the events of the move between them (``apply`` being a pure function, the same
move from the same state gives the same events) are worked out again the first time a view or
``to_json`` needs them, then kept. A first state (a new game, a game read from JSON) holds
its whole log so far. (Keeping the events ``apply`` made instead costs the random games of
docs/bench.md 13%: the copies handed out, and the garbage collector's work on the events
kept.)

States are immutable: ``__init__`` sets every field once; the only later writes fill two
memos (the events; the zones as plain tuples), always with the same values. ``hands``, ``pile``,
``common``, ``out`` and ``skips`` give the zones as plain tuples, and two states are equal
when they would give the same ``to_json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from games.engines.bozu.effects import Rules
from games.engines.bozu.index import EMPTY, Rope, cards, rope

REVEAL, EXTRA, OVER = "reveal", "extra", "over"  # the phases: reveal a card, extra draw, over
PLAYS, SKIPS, OUT = 0, 1, 2  # a seat's standing: plays, skips its next turn, eliminated

Group = tuple[dict, ...]  # the events of one move


class Deal(NamedTuple):
    """What one game's states share."""

    players: int
    seed: int
    options: tuple[tuple[str, Any], ...]  # every validated option but ``setup``, by name
    rules: Rules
    cards: Mapping[str, tuple[str, Callable]]  # card -> (its effect under ``rules``, the
    # rules' function for that effect)
    after: tuple[int, ...]  # the seat that follows each seat
    pile: tuple[str, ...]  # the cards in the order they are revealed
    # the rules' ``play(state, seat, kind) -> (state, events)``: a state works out its log
    # again with it (``added_log``), so this module needs no import of the rules
    play: Callable[[Any, int, str], tuple[Any, list[dict]]]


class BozuState:
    # ``_cards``: the zones as plain tuples, set when first asked for (``zone_cards``)
    __slots__ = (
        "deal",
        "drawn",
        "turn",
        "phase",
        "zones",
        "standing",
        "previous",
        "_log",
        "_cards",
    )

    def __init__(
        self,
        deal: Deal,
        drawn: int,
        turn: int,
        phase: str,
        zones: tuple[Rope, ...],
        standing: tuple[int, ...],
        previous: BozuState | None,
        log: tuple[Group, ...] | None = None,
    ) -> None:
        self.deal = deal
        self.drawn = drawn  # cards revealed from ``deal.pile``
        self.turn = turn  # the seat to act (the last seat that acted once over)
        self.phase = phase  # REVEAL | EXTRA | OVER
        self.zones = zones  # each seat's cards, then the common pile (ropes, oldest first)
        self.standing = standing  # PLAYS | SKIPS | OUT, per seat
        self.previous = previous  # the state this one was played from; None for a first state
        # the log groups this state adds to its previous one's; a first state's whole log
        self._log = log

    # -- the game as plain data --

    players = property(lambda self: self.deal.players)
    seed = property(lambda self: self.deal.seed)
    options = property(lambda self: self.deal.options)
    rules = property(lambda self: self.deal.rules)

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]:
        """The cards before each seat, in the order they came."""
        return zone_cards(self)[:-1]

    @property
    def common(self) -> tuple[str, ...]:
        """The common pile, oldest first."""
        return zone_cards(self)[-1]

    @property
    def pile(self) -> tuple[str, ...]:
        """The cards still face down, ``pile[0]`` revealed next."""
        return self.deal.pile[self.drawn :]

    @property
    def out(self) -> tuple[bool, ...]:
        """Eliminated seats."""
        return tuple(standing == OUT for standing in self.standing)

    @property
    def skips(self) -> tuple[bool, ...]:
        """Seats whose next turn is skipped."""
        return tuple(standing == SKIPS for standing in self.standing)

    def _replace(self, **changes: Any) -> BozuState:
        """This state with some of ``hands``, ``pile``, ``common``, ``turn``, ``phase``,
        ``out``, ``skips`` changed (tests shuffle the pile with it); same log."""
        fields = {
            name: getattr(self, name)
            for name in ("hands", "pile", "common", "turn", "phase", "out", "skips")
        }
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"BozuState has no field(s) {sorted(unknown)}")
        fields.update(changes)
        deal = self.deal._replace(pile=self.deal.pile[: self.drawn] + tuple(fields["pile"]))
        return BozuState(
            deal,
            self.drawn,
            fields["turn"],
            fields["phase"],
            zones_of(fields["hands"], fields["common"]),
            standing_of(fields["out"], fields["skips"]),
            self.previous,
            self._log,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BozuState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # equal states may be built differently

    def _key(self) -> tuple:
        return (
            self.players,
            self.seed,
            self.options,
            self.hands,
            self.pile,
            self.common,
            self.turn,
            self.phase,
            self.standing,
            log_groups(self),
        )

    def __repr__(self) -> str:
        return (
            f"<BozuState {self.players} players, {len(self.pile)} cards face down, "
            f"seat {self.turn} {self.phase}>"
        )


def zones_of(hands: Any, common: Any) -> tuple[Rope, ...]:
    return (*(rope(hand) if hand else EMPTY for hand in hands), rope(common))


def standing_of(out: Any, skips: Any) -> tuple[int, ...]:
    return tuple(
        OUT if gone else SKIPS if skipped else PLAYS
        for gone, skipped in zip(out, skips, strict=True)
    )


def zone_cards(state: BozuState) -> tuple[tuple[str, ...], ...]:
    """The cards of every zone (each seat's, then the common pile) as plain tuples: worked out
    once per state, from its previous state's when they are known (a move changes a zone or
    two, and mostly adds to it)."""
    known = getattr(state, "_cards", None)  # the slot is unset until then
    if known is None:
        previous = state.previous
        before = getattr(previous, "_cards", None)
        if before is None:
            known = tuple(map(cards, state.zones))
        else:
            ropes = {id(rope): held for rope, held in zip(previous.zones, before, strict=True)}
            known = tuple(
                was if zone is old else cards(zone, ropes)
                for zone, old, was in zip(state.zones, previous.zones, before, strict=True)
            )
        state._cards = known
    return known


# -- the log --


def added_log(state: BozuState) -> tuple[Group, ...]:
    """The log groups ``state`` adds to its previous state's (all of them for a first state)."""
    log = state._log
    if log is None:
        previous = state.previous
        kind = "draw" if state.drawn > previous.drawn else "stop"
        _, events = previous.deal.play(previous, previous.turn, kind)
        log = state._log = (tuple(events),)
    return log


def log_groups(state: BozuState) -> list[Group]:
    """The event groups of ``state``'s log, oldest first."""
    chain = []
    while state is not None:
        chain.append(state)
        state = state.previous
    return [group for past in reversed(chain) for group in added_log(past)]


def scores_of(hands: tuple[Rope, ...], standing: tuple[int, ...]) -> list[int]:
    """Cards in hand per seat; -1 for an eliminated seat, so that it ranks last."""
    return [-1 if gone == OUT else held[0] for held, gone in zip(hands, standing, strict=False)]
