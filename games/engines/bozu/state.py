"""The state of a Bōzu Mekuri game: a frozen named tuple, and its linked event log."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from games.engines.bozu.effects import Rules

REVEAL, EXTRA, OVER = "reveal", "extra", "over"  # the phases: reveal a card, extra draw, over


class BozuState(NamedTuple):
    players: int
    seed: int
    options: tuple[tuple[str, Any], ...]  # every validated option but ``setup``, by name
    rules: Rules
    hands: tuple[tuple[str, ...], ...]  # per seat, in the order the cards came
    pile: tuple[str, ...]  # pile[0] is revealed next
    common: tuple[str, ...]  # the common pile, oldest first
    turn: int  # the seat to act (the last seat that acted once over)
    phase: str  # reveal | extra | over
    out: tuple[bool, ...]  # eliminated seats
    skips: tuple[bool, ...]  # seats whose next turn is skipped
    log: tuple  # () or (events of one apply, previous log)
    effects: Mapping[str, str]  # card -> effect under ``rules`` (``effect_table``: derived)


def log_groups(log: tuple) -> list[tuple[dict, ...]]:
    """The event groups of a linked log, oldest first."""
    groups = []
    while log:
        groups.append(log[0])
        log = log[1]
    return groups[::-1]


def log_from(groups: list) -> tuple:
    log: tuple = ()
    for group in groups:
        log = (tuple(dict(event) for event in group), log)
    return log


def newest_first(log: tuple) -> Iterator[tuple[dict, ...]]:
    while log:
        yield log[0]
        log = log[1]


def scores_of(hands: tuple, out: tuple) -> list[int]:
    return [-1 if gone else len(hand) for hand, gone in zip(hands, out, strict=True)]
