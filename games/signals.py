"""What the games app tells the apps above it (imports only point down: ARCHITECTURE §1).

``games`` never imports ``learning`` or the classroom. When something they care about
happens at a table, it sends one of these Django signals; they connect their receivers in
their ``AppConfig.ready()``:

- ``seat_observed`` (sent once after the commit of a deal, a move or a CPU burst, when a
  human seat newly saw something): ``observations`` is a tuple of ``SeatObservation``, one
  per human seat and saved step, in order (a human move saved with its CPU replies gives one
  for the move, then one for the replies). The learning app records the exposures and creates
  the recognition prompts of all of them in one transaction. ``handover`` (a dict, or None
  outside a request that draws a board) is the request's own: a receiver may leave in it,
  under a key of its own, what it read that the board of the same request would read again
  (the learning app: the learner's open prompts at the table, ``learning.receivers``); the
  board's panels get it back (``games.panels.table_panels``). It lives as long as the
  request's call: nothing is kept between requests or shared between workers.
- ``game_finished`` (sent inside the transaction that saved the last move): ``table_id``.
  Receivers that queue work use ``delay_on_commit``. The classroom refreshes its summaries.
- ``table_replayed`` (sent inside the transaction that created the new table of "Play
  again"): ``source`` (the finished table), ``table`` (the new one) and ``user`` (who asked).
  The classroom links the new table to the source's assignment, so the new game counts where
  the first one did.

Receivers get plain data (kana ids and scripts, ids), never an engine or a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

from games.engines.base import CardQuestion

seat_observed = Signal()
game_finished = Signal()
table_replayed = Signal()

KanaPairs = tuple[tuple[str, str], ...]  # (kana id, script) pairs


@dataclass(frozen=True)
class SeatObservation:
    """What one human seat newly saw in its own view after a committed deal or move.

    ``shown``: the kana of cards newly shown face up; ``entered_hand``: the kana of cards
    that entered its hand; ``asked``: the kana the seat named aloud with its own action
    (asking for a card by name) that did not come to its hand. ``prompt_mode`` is the
    table's ``prompts`` option (``off``, ``new`` or ``every``).

    ``cards``: the engine's ``card_question`` for each card newly shown face up that it can
    ask about (plain data, the solution included: the learning app never shows it before
    the answer), empty for games that ask nothing about their cards; ``engine`` names the
    game; ``card_prompts`` is the table's ``card_prompts`` option (ask them or not).
    """

    user: Any
    seat: int
    table_id: int
    move_id: int | None
    shown: KanaPairs
    entered_hand: KanaPairs
    asked: KanaPairs
    prompt_mode: str
    engine: str = ""
    cards: tuple[CardQuestion, ...] = ()
    card_prompts: bool = False
