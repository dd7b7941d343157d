"""Questions about the cards themselves: sightings counted, a question once a card is known.

Some games can ask a learner about a card they have seen often (the engine's optional
``card_question``; a game of poem cards: the poem's first half shown, which kana begins the
second half?). The games service sends, with each observation of a learner's seat, the question of
every card its view newly shows face up (``SeatObservation.cards``), whether or not the table
asks them; this module

- counts the sightings: one ``CardSighting`` row per (learner, engine, card), ``seen`` + 1
  each time the card newly shows in the learner's own view (two statements per observation:
  an ``INSERT ... ON CONFLICT DO NOTHING`` and an ``UPDATE``; three with the questions on);
- when the table's ``card_prompts`` option is on, creates a ``card`` prompt for a card the
  learner had already seen at least ``question.after_seen`` times before this sighting, at
  most ``CARD_PROMPTS_OPEN`` open per table (and within ``play.MAX_OPEN_PROMPTS`` in all).

Nothing here knows a game: the engine's question is plain data (kana ids, texts). Answers
are graded by ``play.prompt_answer`` like every prompt (an ``answer`` event of kind ``card``,
the kana's memory reviewed as a pick among the choices).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.engines.base import CardQuestion
from learning import kana_table
from learning.models import CardSighting, Prompt
from learning.models.memory import PromptKind, PromptStatus
from learning.services.play import MAX_OPEN_PROMPTS, PROMPT_TTL, is_learner, prompts_expire

CARD_PROMPTS_OPEN = 1  # one card question at a time per table: the next card shown waits


def cards_observed(
    *,
    user,
    table_id: int,
    move_id: int | None,
    engine: str,
    questions: Sequence[CardQuestion],
    ask: bool,
    at: datetime | None = None,
) -> Prompt | None:
    """Count the sightings of the cards a learner's view newly shows; with ``ask``, ask about
    one the learner had already seen often enough. Returns the prompt created, if any."""
    if not questions or not is_learner(user):
        return None
    at = at or timezone.now()
    with transaction.atomic():
        seen_before = sightings_record(
            learner=user,
            engine=engine,
            cards=[question.card for question in questions],
            at=at,
            read=ask,
        )
        if not ask:
            return None
        known = [q for q in questions if seen_before.get(q.card, 0) >= q.after_seen]
        return card_prompt_create(
            learner=user, engine=engine, questions=known, table_id=table_id, move_id=move_id, at=at
        )


def sightings_record(
    *, learner, engine: str, cards: Sequence[str], at: datetime, read: bool = False
) -> dict[str, int]:
    """Each card of ``cards`` seen once more by ``learner``. With ``read``, returns how many
    times each had been seen before (one more statement); else an empty dict."""
    cards = list(dict.fromkeys(cards))
    CardSighting.objects.bulk_create(
        [CardSighting(learner=learner, engine=engine, card=card) for card in cards],
        ignore_conflicts=True,
    )
    rows = CardSighting.objects.filter(learner=learner, engine=engine, card__in=cards)
    before = dict(rows.values_list("card", "seen")) if read else {}
    rows.update(seen=F("seen") + 1, last_seen_at=at)
    return before


def sightings_for(*, learner, engine: str, cards: Sequence[str] | None = None) -> dict[str, int]:
    """How many times ``learner`` has seen each card of ``engine`` (cards never seen: absent)."""
    rows = CardSighting.objects.filter(learner=learner, engine=engine)
    if cards is not None:
        rows = rows.filter(card__in=list(cards))
    return dict(rows.values_list("card", "seen"))


def card_prompt_create(
    *,
    learner,
    engine: str,
    questions: Sequence[CardQuestion],
    table_id: int,
    move_id: int | None,
    at: datetime,
) -> Prompt | None:
    """A ``card`` prompt for the first of ``questions`` whose answer the kana catalog knows,
    unless the table already has a card question open or ``MAX_OPEN_PROMPTS`` prompts."""
    asked = next((q for q in questions if (q.answer, q.script) in kana_table.catalog()), None)
    if asked is None:
        return None
    prompts_expire(learner=learner, table_id=table_id, at=at)
    open_kinds = list(
        Prompt.objects.filter(
            learner=learner, table_id=table_id, status=PromptStatus.OPEN
        ).values_list("kind", flat=True)
    )
    if len(open_kinds) >= MAX_OPEN_PROMPTS or open_kinds.count(PromptKind.CARD) >= (
        CARD_PROMPTS_OPEN
    ):
        return None
    return Prompt.objects.create(
        learner=learner,
        source="prompt",
        table_id=table_id,
        move_id=move_id,
        kind=PromptKind.CARD,
        kana_id=asked.answer,
        script=asked.script,
        choices=list(asked.choices),
        card=asked.card,
        detail={
            "engine": engine,
            "ask": asked.ask,
            "clue": asked.clue,
            "solution": asked.solution,
        },
        shown_at=at,
        expires_at=at + PROMPT_TTL,
    )
