"""Learning from play: exposures and recognition prompts at the table (INTERFACES.md).

The games service calls ``play_observed`` after every committed move (and at the deal) for
each human learner seat. It must stay cheap: one bulk insert of exposure events, two
statements for the exposure counters, and (only when prompts are on and cards entered the
hand) a few more to create prompts. Prompts never block anybody: they live beside the
game and expire after ``PROMPT_TTL``.

Prompt modes (table option ``prompts``):

- ``off``: exposures only;
- ``new``: a prompt for each card entering the hand whose kana needs work: never answered
  (srs state ``new``), ``due``, or weak (srs.is_weak) — a kana reviewed recently and still
  well remembered is not asked again (asking it would add little: docs/learning.md);
- ``seen``: a prompt for every card newly shown in the learner's own view (laid, shown, or
  entering the hand), not only those entering the hand, whatever its kana's state: a kana
  still well remembered is asked too (``ASK_REMEMBERED``): the daily session's table, where
  the warm-up has just asked the kana that need work (issue 27, session 19: docs/bench.md);
- ``every``: a prompt for each card entering the hand.

In ``new`` and ``seen``, a kana answered right less than ``srs.RECENT_RIGHT`` ago is not
asked again (``srs.recently_right``).

At most ``MAX_OPEN_PROMPTS`` prompts stay open per table; when more arrive (a deal of seven
cards) the weakest kana are asked first and the rest are not created. A kana whose memory
was last answered right (``srs.recall_ready``: one right pick is enough) is asked as typed
romaji instead of four choices; four buttons are for kana never answered or just failed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache

from django.db import connection, transaction
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from kanagame.accounts.rows import Columns, column, sql_once, table_name
from kanagame.accounts.rows import fetch as rows_fetch
from kanagame.accounts.rows import insert_sql as rows_insert_sql
from learning import kana_table, srs
from learning.models import KanaMemory, LearningEvent, Prompt
from learning.models.memory import PromptKind, PromptStatus
from learning.services.memory import memory_review, scheduler_for
from learning.services.writing import WritingError, grade_writing

PROMPT_MODES = ("off", "new", "seen", "every")
# modes that ask about every card newly shown in the learner's view, not only those entering
# the hand (the daily session's table: issue 27, more retrieval per minute of play)
ASK_SHOWN = frozenset({"seen"})
# modes that ask about a kana whatever its state once it was not answered right recently, not
# only when it needs work (new, due or weak: ``srs.worth_asking``); tuned on the development
# seeds of bench/srs_sim.py (``Rules.play_ask_below``; docs/bench.md, "Session 19")
ASK_REMEMBERED = frozenset({"seen"})
PROMPT_TTL = timedelta(minutes=2)
MAX_OPEN_PROMPTS = 3
CHOICES = 4


def is_learner(user) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_learner)


def _pairs(items: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Known (kana_id, script) pairs, deduplicated, in order."""
    seen: dict[tuple[str, str], None] = {}
    for kana_id, script in items:
        pair = (str(kana_id), str(script))
        if pair in kana_table.catalog():
            seen[pair] = None
    return list(seen)


def _pair_filter(pairs: list[tuple[str, str]]) -> Q:
    query = Q()
    for kana_id, script in pairs:
        query |= Q(kana_id=kana_id, script=script)
    return query


def play_observed(
    *,
    user,
    table_id: int,
    move_id: int | None,
    shown: list[tuple[str, str]],
    entered_hand: list[tuple[str, str]],
    prompt_mode: str,
    at: datetime | None = None,
) -> None:
    """Record what a learner's own view newly shows, and ask about cards entering the hand."""
    if prompt_mode not in PROMPT_MODES:
        raise ValueError(f"prompt_mode must be one of {PROMPT_MODES}, not {prompt_mode!r}")
    if not is_learner(user):
        return
    exposed = _pairs([*shown, *entered_hand])
    if not exposed:
        return
    at = at or timezone.now()
    with transaction.atomic():
        exposures_record(learner=user, pairs=exposed, table_id=table_id, move_id=move_id, at=at)
        if prompt_mode != "off":
            prompts_create(
                learner=user,
                pairs=_pairs([*entered_hand, *shown] if prompt_mode in ASK_SHOWN else entered_hand),
                mode=prompt_mode,
                table_id=table_id,
                move_id=move_id,
                at=at,
            )


def exposures_record(
    *,
    learner,
    pairs: list[tuple[str, str]],
    table_id: int | None,
    move_id: int | None,
    at: datetime,
) -> None:
    """One bulk insert of exposure events, and the KanaMemory exposure counters bumped."""
    _exposure_events_insert(learner=learner, steps=[(move_id, pairs)], table_id=table_id, at=at)
    KanaMemory.objects.bulk_create(
        [KanaMemory(learner=learner, kana_id=k, script=s) for k, s in pairs],
        ignore_conflicts=True,
    )
    KanaMemory.objects.filter(_pair_filter(pairs), learner=learner).update(
        exposures=F("exposures") + 1
    )


def exposures_record_steps(
    *,
    learner,
    steps: list[tuple[int | None, list[tuple[str, str]]]],
    table_id: int | None,
    at: datetime,
) -> None:
    """``exposures_record`` for several steps (``(move_id, pairs)``, each pair once per step)
    in two statements: one insert of every step's events, and one upsert of the memories (the
    missing ones created, each counter bumped once per step that showed its kana)."""
    _exposure_events_insert(learner=learner, steps=steps, table_id=table_id, at=at)
    bumps = Counter(pair for _move_id, pairs in steps for pair in pairs)
    _exposures_upsert(learner=learner, bumps=bumps)


def _exposures_and_open_prompts(
    *,
    learner,
    steps: list[tuple[int | None, list[tuple[str, str]]]],
    table_id: int,
    at: datetime,
    read: bool,
) -> list[Prompt] | None:
    """``exposures_record_steps`` (when ``steps``), then the learner's open prompts at the
    table when ``read`` (``_open_prompts``; else None).

    On PostgreSQL the two writes and the read go in one statement, the writes as data-
    modifying ``WITH`` clauses (run once, to completion, whatever the main query reads; the
    read sees the prompts as they were, and the writes touch no prompt): one round trip
    where SQLite, which cannot put an INSERT in a WITH, makes up to three."""
    if connection.vendor != "postgresql" or not steps:
        if steps:
            exposures_record_steps(learner=learner, steps=steps, table_id=table_id, at=at)
        return _open_prompts(learner=learner, table_id=table_id) if read else None
    events_sql, events_params = _exposure_events_sql(
        learner=learner, steps=steps, table_id=table_id, at=at
    )
    if not events_params:  # steps without pairs: nothing to write
        return _open_prompts(learner=learner, table_id=table_id) if read else None
    bumps = Counter(pair for _move_id, pairs in steps for pair in pairs)
    upsert_sql, upsert_params = _exposures_upsert_sql(learner=learner, bumps=bumps)
    if not read:
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH exposed AS ({events_sql}) {upsert_sql}", events_params + upsert_params
            )
        return None
    rows = rows_fetch(
        f"WITH exposed AS ({events_sql}), bumped AS ({upsert_sql}) {_open_prompts_sql()}",
        [*events_params, *upsert_params, *_open_prompts_params(learner, table_id)],
        [_PROMPT],
    )
    return [prompt for (prompt,) in rows]


def _exposure_events_insert(
    *, learner, steps: list[tuple[int | None, list[tuple[str, str]]]], table_id, at: datetime
) -> None:
    """One INSERT of the exposure events of every step (``kanagame.accounts.rows.insert_sql``)."""
    sql, params = _exposure_events_sql(learner=learner, steps=steps, table_id=table_id, at=at)
    if params:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def _exposure_events_sql(
    *, learner, steps: list[tuple[int | None, list[tuple[str, str]]]], table_id, at: datetime
) -> tuple[str, list]:
    """The INSERT of ``_exposure_events_insert`` (no parameters: nothing to insert)."""
    rows = [
        {
            "learner_id": learner.pk,
            "kana_id": kana_id,
            "script": script,
            "kind": "exposure",
            "source": "play",
            "table_id": table_id,
            "move_id": move_id,
            "created_at": at,
        }
        for move_id, pairs in steps
        for kana_id, script in pairs
    ]
    if not rows:
        return "", []
    return rows_insert_sql(LearningEvent, rows)


def _exposures_upsert(*, learner, bumps: Counter) -> None:
    """``INSERT ... ON CONFLICT (learner, kana, script) DO UPDATE SET exposures = exposures +
    excluded.exposures``: new memories start at their bump, the others add it. One statement
    where the ORM needs two (insert-or-ignore, then an UPDATE per distinct bump); SQLite and
    PostgreSQL both read this syntax."""
    sql, params = _exposures_upsert_sql(learner=learner, bumps=bumps)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _exposures_upsert_sql(*, learner, bumps: Counter) -> tuple[str, list]:
    """The statement of ``_exposures_upsert``."""
    rows = [
        {"learner_id": learner.pk, "kana_id": kana_id, "script": script, "exposures": bump}
        for (kana_id, script), bump in bumps.items()
    ]
    sql, params = rows_insert_sql(KanaMemory, rows)
    quote = connection.ops.quote_name
    table, exposures = quote(KanaMemory._meta.db_table), quote("exposures")
    key = ", ".join(quote(column) for column in ("learner_id", "kana_id", "script"))
    sql += (
        f" ON CONFLICT ({key}) DO UPDATE SET {exposures} = {table}.{exposures} + "
        f"excluded.{exposures}"
    )
    return sql, params


def confusions_for(*, learner, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], list[str]]:
    """Per (kana, script): the kana the learner mixes it up with, most frequent first.

    Symmetric: reading シ as "tsu" counts for シ (against ツ) and for ツ (against シ), since a
    learner who takes one for the other has not told the two apart yet. Wrong answers to
    ``card`` prompts do not count: picking あ for the kana that begins a poem's second half
    is a lapse of the poem, not a confusion of あ with the right glyph.
    """
    reverse = Q()
    for kana_id, script in pairs:
        reverse |= Q(confused_with=kana_id, script=script)
    rows = (
        LearningEvent.objects.filter(_pair_filter(pairs) | reverse)
        .confusions()  # card answers left out: a poem misremembered, not two glyphs mixed up
        .filter(learner=learner)
        .values("kana_id", "script", "confused_with")
        .annotate(n=Count("id"))
    )
    wanted = set(pairs)
    counts: dict[tuple[str, str], Counter] = {}
    for row in rows:
        kana_id, other, script = row["kana_id"], row["confused_with"], row["script"]
        if (kana_id, script) in wanted:
            counts.setdefault((kana_id, script), Counter())[other] += row["n"]
        if (other, script) in wanted:
            counts.setdefault((other, script), Counter())[kana_id] += row["n"]
    return {
        pair: [k for k, _ in sorted(found.items(), key=lambda item: (-item[1], item[0]))]
        for pair, found in counts.items()
    }


def _prompt_kind(memory: KanaMemory | None) -> str:
    """Typed recall once the kana's last answer was right, four readings before."""
    if memory and srs.recall_ready(last_correct=memory.last_correct):
        return PromptKind.TYPED
    return PromptKind.READING


def prompt_choices(
    *, kana_id: str, script: str, learned: list[str], rng: random.Random
) -> list[str]:
    """The right kana and three distractors, shuffled."""
    choices = [
        kana_id,
        *kana_table.distractors(
            kana_id=kana_id, script=script, learned=learned, count=CHOICES - 1, rng=rng
        ),
    ]
    rng.shuffle(choices)
    return choices


def prompts_create(
    *,
    learner,
    pairs: list[tuple[str, str]],
    mode: str,
    table_id: int | None,
    move_id: int | None,
    at: datetime,
    kind: str | None = None,
) -> list[Prompt]:
    """Create recognition prompts for kana entering the hand (see the module docstring)."""
    if not pairs:
        return []
    room = prompts_room(learner=learner, table_id=table_id, at=at)
    return _prompts_make(
        learner=learner,
        pairs=pairs,
        mode=mode,
        table_id=table_id,
        move_id=move_id,
        at=at,
        kind=kind,
        room=room,
    )


def prompts_room(
    *, learner, table_id: int | None, at: datetime, opened: list[Prompt] | None = None
) -> int:
    """Expire the learner's open prompts at this table past their time; how many more may
    open (``MAX_OPEN_PROMPTS`` at most stay open). One read (none when the caller gives the
    ``opened`` prompts it read), plus an UPDATE when some expired.
    """
    if table_id is None:  # prompts outside a table: expire them all, count the table-less
        prompts_expire(learner=learner, at=at)
        open_count = Prompt.objects.filter(
            learner=learner, table_id=None, status=PromptStatus.OPEN
        ).count()
        return MAX_OPEN_PROMPTS - open_count
    if opened is None:
        opened = _open_prompts(learner=learner, table_id=table_id)
    expired = [p.pk for p in opened if p.expires_at <= at]
    if expired:
        Prompt.objects.filter(pk__in=expired, status=PromptStatus.OPEN).update(
            status=PromptStatus.EXPIRED
        )
    return MAX_OPEN_PROMPTS - (len(opened) - len(expired))


_PROMPT = Columns(Prompt, "p")
_open_prompts_sql = sql_once(
    lambda: (
        f"SELECT {_PROMPT.sql()} FROM {table_name(Prompt)} p "
        f"WHERE p.{column(Prompt, 'learner')} = %s AND p.{column(Prompt, 'table_id')} = %s "
        f"AND p.{column(Prompt, 'status')} = %s "
        f"ORDER BY p.{column(Prompt, 'shown_at')}, p.{column(Prompt, 'id')}"
    )
)


def _open_prompts(*, learner, table_id: int) -> list[Prompt]:
    """The learner's open prompts at a table, oldest first, expired or not yet marked so:
    ``Prompt.objects.filter(...).order_by("shown_at", "id")`` in SQL without the ORM's
    compiler (``kanagame.accounts.rows``), since every move and every board reads them."""
    rows = rows_fetch(_open_prompts_sql(), _open_prompts_params(learner, table_id), [_PROMPT])
    return [prompt for (prompt,) in rows]


def _open_prompts_params(learner, table_id: int) -> list:
    return [learner.pk, table_id, PromptStatus.OPEN.value]


def _prompts_make(
    *,
    learner,
    pairs: list[tuple[str, str]],
    mode: str,
    table_id: int | None,
    move_id: int | None,
    at: datetime,
    kind: str | None,
    room: int,
) -> list[Prompt]:
    """Up to ``room`` prompts for ``pairs`` (``prompts_create`` once the room is known)."""
    return _prompts_make_many(
        learner=learner, asks=[(pairs, move_id, kind)], mode=mode, table_id=table_id, at=at,
        room=room,
    )  # fmt: skip


Ask = tuple[list[tuple[str, str]], int | None, str | None]  # pairs, move id, prompt kind


def _prompts_make_many(
    *, learner, asks: list[Ask], mode: str, table_id: int | None, at: datetime, room: int
) -> list[Prompt]:
    """The prompts of several asks in order (a move's own step, then its CPU replies'), each
    taking what ``room`` it leaves: the same prompts as one ``_prompts_make`` per ask, with
    one read of the memories, one of the confusions and one INSERT for them all."""
    every_pair = _pairs(pair for pairs, _move, _kind in asks for pair in pairs)
    if room <= 0 or not every_pair:
        return []
    memories = {
        (m.kana_id, m.script): m
        for m in KanaMemory.objects.filter(_pair_filter(every_pair), learner=learner)
    }
    scheduler = None

    def wanted(pair: tuple[str, str]) -> bool:
        nonlocal scheduler
        memory = memories.get(pair)
        if mode == "every" or memory is None:
            return True
        if srs.recently_right(
            last_correct=memory.last_correct, last_review=memory.last_review, now=at
        ):
            return False
        if mode in ASK_REMEMBERED:
            return True
        state = srs.state_of(reps=memory.reps, due=memory.due, stability=memory.stability, now=at)
        if state in ("new", "due"):
            return True
        if scheduler is None:
            scheduler = scheduler_for(learner=learner)
        card = srs.card_from_json(memory.card) if memory.card else None
        return srs.worth_asking(
            state=state, weak=srs.is_weak(scheduler=scheduler, card=card, now=at)
        )

    def weakness(pair: tuple[str, str]) -> tuple[float, int]:
        memory = memories.get(pair)
        return ((memory.stability or 0.0) if memory else 0.0, -(memory.errors if memory else 0))

    chosen: list[Ask] = []
    for pairs, move_id, kind in asks:
        if room <= 0:
            break
        asked = sorted((p for p in pairs if wanted(p)), key=weakness)[:room]
        if asked:
            chosen.append((asked, move_id, kind))
            room -= len(asked)
    if not chosen:
        return []
    learned = confusions_for(
        learner=learner, pairs=_pairs(pair for asked, _move, _kind in chosen for pair in asked)
    )
    prompts = []
    for asked, move_id, kind in chosen:
        rng = random.Random(f"{learner.pk}:{table_id}:{move_id}:{at.isoformat()}")
        prompts += [
            Prompt(
                learner=learner,
                source="prompt",
                table_id=table_id,
                move_id=move_id,
                kind=kind or _prompt_kind(memories.get(pair)),
                kana_id=pair[0],
                script=pair[1],
                choices=prompt_choices(
                    kana_id=pair[0], script=pair[1], learned=learned.get(pair, []), rng=rng
                ),
                shown_at=at,
                expires_at=at + PROMPT_TTL,
            )
            for pair in asked
        ]
    return Prompt.objects.bulk_create(prompts)


def ask_observed(
    *,
    user,
    table_id: int,
    move_id: int | None,
    asked: list[tuple[str, str]],
    prompt_mode: str,
    at: datetime | None = None,
) -> None:
    """Optional hook: the learner asked for a card by name; ask them to pick its glyph."""
    if prompt_mode == "off" or not is_learner(user):
        return
    pairs = _pairs(asked)
    if not pairs:  # nothing to ask (the card came to the hand): no empty transaction
        return
    at = at or timezone.now()
    with transaction.atomic():
        prompts_create(
            learner=user,
            pairs=pairs,
            mode=prompt_mode,
            table_id=table_id,
            move_id=move_id,
            at=at,
            kind=PromptKind.GLYPH,
        )


@dataclass(frozen=True)
class SeenStep:
    """What a learner's own view newly showed at one saved step of a table (a move, or the
    CPU replies saved with it): the kana shown, those that entered the hand, those asked for
    by name that did not come to the hand. See ``plays_observed``."""

    move_id: int | None
    shown: tuple[tuple[str, str], ...] = ()
    entered_hand: tuple[tuple[str, str], ...] = ()
    asked: tuple[tuple[str, str], ...] = ()


def plays_observed(
    *,
    user,
    table_id: int,
    prompt_mode: str,
    steps: list[SeenStep],
    at: datetime | None = None,
) -> list[Prompt] | None:
    """What one commit at a table showed a learner: for each step in order, the same rows as
    ``ask_observed`` then ``play_observed``, in one transaction and fewer statements (every
    step's exposures in one insert, the open prompts read once).

    Returns the learner's open prompts at the table as the transaction leaves them, oldest
    first, when it read them and opened none (``prompts_pending(opened=...)`` then needs no
    second read); None otherwise."""
    if prompt_mode not in PROMPT_MODES:
        raise ValueError(f"prompt_mode must be one of {PROMPT_MODES}, not {prompt_mode!r}")
    if not is_learner(user):
        return None
    exposures, asks = [], []
    for step in steps:
        exposed = _pairs([*step.shown, *step.entered_hand])
        if exposed:
            exposures.append((step.move_id, exposed))
        if prompt_mode == "off":
            continue
        # Exposures only create memories still "new": the prompts come out as if each step's
        # exposures had been written just before them.
        if asked := _pairs(step.asked):
            asks.append((asked, step.move_id, PromptKind.GLYPH))
        wanted = (
            [*step.entered_hand, *step.shown] if prompt_mode in ASK_SHOWN else step.entered_hand
        )
        if exposed and (entered := _pairs(wanted)):
            asks.append((entered, step.move_id, None))
    if not exposures and not asks:
        return None
    at = at or timezone.now()
    with transaction.atomic():
        opened = _exposures_and_open_prompts(
            learner=user, steps=exposures, table_id=table_id, at=at, read=bool(asks)
        )
        room = prompts_room(learner=user, table_id=table_id, at=at, opened=opened) if asks else 0
        made = _prompts_make_many(
            learner=user, asks=asks, mode=prompt_mode, table_id=table_id, at=at, room=room
        )
    if opened is None or made:
        return None
    return [prompt for prompt in opened if prompt.expires_at > at]  # prompts_room expired the rest


def prompts_expire(*, learner, table_id: int | None = None, at: datetime) -> int:
    """Mark the learner's open prompts past their time as expired (never graded)."""
    rows = Prompt.objects.filter(learner=learner, status=PromptStatus.OPEN, expires_at__lte=at)
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    return rows.update(status=PromptStatus.EXPIRED)


@dataclass(frozen=True)
class Choice:
    value: str  # what the form posts: the choice's position ("0".."3"), never a reading
    label: str  # what the button shows: a reading or a glyph


@dataclass(frozen=True)
class PromptView:
    """What a template needs to show one prompt (no hidden answer inside)."""

    id: int
    kind: str
    question: str  # the glyph (reading/typed), the romaji (glyph), the clue (card prompts)
    script: str
    choices: tuple[Choice, ...]
    expires_at: datetime
    table_id: int | None = None
    ask: str = ""  # card prompts: the question sentence, translated
    # What the page around the question must not name while it is open (never rendered):
    # the asked kana and every kana of the same reading, both scripts (し, シ; じ, ぢ...).
    # The board hides them from its log, family names and listen buttons (issue 27).
    hides: frozenset[str] = frozenset()


@cache
def _same_reading() -> dict[str, frozenset[str]]:
    """Reading -> the glyphs of every kana read so, in both scripts."""
    glyphs: dict[str, set[str]] = {}
    for kana_id, script in kana_table.catalog():
        info = kana_table.info(kana_id, script)
        glyphs.setdefault(info.romaji, set()).add(info.glyph)
    return {reading: frozenset(found) for reading, found in glyphs.items()}


def prompt_view(prompt: Prompt) -> PromptView:
    kana = kana_table.info(prompt.kana_id, prompt.script)
    # Buttons post their position, not the kana id: a glyph button whose value is "ki" under
    # "Which kana is “ki”?" would answer it (issue 27; ``choice_given`` maps it back).
    if prompt.kind == PromptKind.CARD:  # the clue and glyphs: neither the answer's reading
        question = str(prompt.detail.get("clue", ""))  # nor the solution
        label = "glyph"
    elif prompt.kind == PromptKind.GLYPH:
        question = kana.romaji
        label = "glyph"
    else:
        question = kana.glyph
        label = "romaji"
    choices = tuple(
        Choice(str(index), getattr(kana_table.info(k, prompt.script), label))
        for index, k in enumerate(prompt.choices)
    )
    if prompt.kind == PromptKind.WRITE:  # "write shi": the reading shown, the glyph drawn
        question = kana.romaji
    if prompt.kind in (PromptKind.TYPED, PromptKind.WRITE):
        choices = ()
    return PromptView(
        id=prompt.pk,
        kind=prompt.kind,
        question=question,
        script=prompt.script,
        choices=choices,
        expires_at=prompt.expires_at,
        table_id=prompt.table_id,
        ask=_(prompt.detail["ask"]) if prompt.kind == PromptKind.CARD else "",
        hides=frozenset()
        if prompt.kind == PromptKind.CARD  # its answer begins a text the board never shows
        else _same_reading().get(kana.romaji, frozenset({kana.glyph})),
    )


def prompts_pending(
    *, user, table_id: int, at: datetime | None = None, opened: list[Prompt] | None = None
) -> list[PromptView]:
    """The learner's open prompts at this table, oldest first (expired ones are left out).

    ``opened``: those prompts as the learning hook of the same request left them
    (``plays_observed``), instead of reading them again."""
    if not getattr(user, "is_authenticated", False):
        return []
    at = at or timezone.now()
    if opened is None:
        opened = _open_prompts(learner=user, table_id=table_id)
    rows = [p for p in opened if p.expires_at > at]
    if rows:  # the board shows the first one: its response time starts now
        prompt_displayed(prompt=rows[0], at=at)
    return [prompt_view(p) for p in rows]


def prompt_displayed(*, prompt: Prompt, at: datetime) -> None:
    """Record when a prompt was first put on screen (one UPDATE, only the first time)."""
    if prompt.displayed_at is None:
        Prompt.objects.filter(pk=prompt.pk, displayed_at__isnull=True).update(displayed_at=at)
        prompt.displayed_at = at


class PromptError(Exception):
    """A refused answer; ``status`` is the HTTP status a view should answer with."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class AnswerResult:
    prompt_id: int
    correct: bool
    kana_id: str
    script: str
    glyph: str
    romaji: str
    given: str  # what the learner chose or typed, as shown to them
    table_id: int | None
    solution: str = ""  # card prompts: what the answer was about (a poem's second half)
    # written answers: the checker's verdict (reason, stroke...: services.writing)
    verdict: dict = field(default_factory=dict)


def _normalise_romaji(text: str) -> str:
    return "".join(text.split()).lower()


def choice_given(prompt: Prompt, answer: str) -> str:
    """The kana id a posted answer names: a button posts its position among the choices
    (``PromptView.choices``); a kana id is taken as it is (typed answers, older pages)."""
    text = (answer or "").strip()
    if prompt.kind != PromptKind.TYPED and text.isascii() and text.isdigit():
        index = int(text)
        if index < len(prompt.choices):
            return prompt.choices[index]
    return answer


def prompt_answer(*, user, prompt_id: int, answer: str, at: datetime | None = None) -> AnswerResult:
    """Grade an answer to one of the learner's prompts and review the kana with FSRS.

    Response time is measured here, server-side: from the moment the page first displayed
    the prompt (``displayed_at``, set by ``prompt_displayed``) to this answer; unknown (None)
    for a prompt never displayed. Game moves made before the prompt was on screen do not count.
    Raises ``PromptError``: 404 not this learner's prompt, 409 already answered or expired,
    400 an answer that is not one of the choices (or empty).
    """
    at = at or timezone.now()
    # Expire first, outside the grading transaction, so the expiry sticks when we refuse.
    Prompt.objects.filter(
        pk=prompt_id, learner=user, status=PromptStatus.OPEN, expires_at__lte=at
    ).update(status=PromptStatus.EXPIRED)
    with transaction.atomic():
        prompt = Prompt.objects.select_for_update().filter(pk=prompt_id, learner=user).first()
        if prompt is None:
            raise PromptError(_("No such question."), 404)
        if prompt.status != PromptStatus.OPEN:
            raise PromptError(_("This question was already answered or has expired."), 409)
        kana = kana_table.info(prompt.kana_id, prompt.script)
        answer = choice_given(prompt, answer)
        given, correct, confused = _grade(prompt, kana, answer)
        response_ms = None  # never displayed (a forged or replayed POST): time unknown
        if prompt.displayed_at is not None:
            response_ms = max(0, int((at - prompt.displayed_at).total_seconds() * 1000))
        prompt.status = PromptStatus.ANSWERED
        prompt.answered_at = at
        prompt.answer = answer.strip()[:8]
        if prompt.kind == PromptKind.WRITE:  # the kana the drawing was, not its points
            prompt.answer = prompt.kana_id if correct else confused
        prompt.correct = correct
        prompt.save(update_fields=["status", "answered_at", "answer", "correct", "detail"])
        memory_review(
            learner=user,
            kana_id=prompt.kana_id,
            script=prompt.script,
            correct=correct,
            response_ms=response_ms,
            source=prompt.source,
            confused_with=confused,
            table_id=prompt.table_id,
            move_id=prompt.move_id,
            at=at,
            answer_kind=prompt.kind,
            choices=0
            if prompt.kind in (PromptKind.TYPED, PromptKind.WRITE)
            else len(prompt.choices),
        )
    return AnswerResult(
        prompt_id=prompt.pk,
        correct=correct,
        kana_id=kana.kana_id,
        script=kana.script,
        glyph=kana.glyph,
        romaji=kana.romaji,
        given=given,
        table_id=prompt.table_id,
        solution=_solution(prompt),
        verdict=_verdict(prompt),
    )


def _verdict(prompt: Prompt) -> dict:
    return dict(prompt.detail.get("verdict") or {}) if prompt.kind == PromptKind.WRITE else {}


def _solution(prompt: Prompt) -> str:
    return str(prompt.detail.get("solution", "")) if prompt.kind == PromptKind.CARD else ""


def _shows_glyph(prompt: Prompt) -> bool:
    """Prompts answered by picking a glyph (the answer given is shown as one)."""
    return prompt.kind in (PromptKind.GLYPH, PromptKind.CARD, PromptKind.WRITE)


# Typed readings right besides the kana's Hepburn romaji: を is pronounced o today (typing
# "o" for it is no confusion with お; "wo" stays right).
TYPED_ALSO_RIGHT: dict[str, frozenset[str]] = {"wo": frozenset({"o"})}


def _grade(prompt: Prompt, kana: kana_table.KanaInfo, answer: str) -> tuple[str, bool, str]:
    """(what was given, as shown; correct?; confused_with kana id or "")."""
    if prompt.kind == PromptKind.WRITE:  # strokes posted as JSON (learning.writing)
        try:
            return grade_writing(prompt, kana, answer)
        except WritingError as error:
            raise PromptError(error.message, error.status) from None
    if prompt.kind == PromptKind.TYPED:
        typed = _normalise_romaji(answer)
        if not typed or len(typed) > 4:
            raise PromptError(_("Type the reading in romaji (for example: shi)."), 400)
        if typed == kana.romaji or typed in TYPED_ALSO_RIGHT.get(kana.kana_id, ()):
            return typed, True, ""
        confused = next(
            (
                k
                for k in kana_table.kana_ids(prompt.script)
                if kana_table.info(k, prompt.script).romaji == typed
            ),
            "",
        )
        return typed, False, confused
    choice = answer.strip()
    if choice not in prompt.choices:
        raise PromptError(_("Pick one of the choices shown."), 400)
    chosen = kana_table.info(choice, prompt.script)
    given = chosen.glyph if _shows_glyph(prompt) else chosen.romaji
    if choice == prompt.kana_id:
        return given, True, ""
    return given, False, choice


def feedback_reveals(*, user, result: AnswerResult, at: datetime | None = None) -> bool:
    """Would the feedback of ``result`` ("し is shi", "you answered tsu") give away the
    answer of the learner's next open question where it is shown (same table, or the quiz)?
    Then the page says only right or wrong."""
    at = at or timezone.now()
    rows = Prompt.objects.filter(learner=user, status=PromptStatus.OPEN, expires_at__gt=at)
    if result.table_id is not None:
        rows = rows.filter(table_id=result.table_id)
    else:
        rows = rows.filter(source="quiz")
    following = rows.order_by("shown_at", "id").first()
    if following is None:
        return False
    kana = kana_table.info(following.kana_id, following.script)
    shown = {result.romaji, result.glyph, result.given}
    return kana.romaji in shown or kana.glyph in shown


def prompt_result(prompt: Prompt) -> AnswerResult:
    """The result of an answered prompt, rebuilt from the row (feedback after a redirect)."""
    kana = kana_table.info(prompt.kana_id, prompt.script)
    given = prompt.answer
    if prompt.kind != PromptKind.TYPED and (given, prompt.script) in kana_table.catalog():
        chosen = kana_table.info(given, prompt.script)
        given = chosen.glyph if _shows_glyph(prompt) else chosen.romaji
    return AnswerResult(
        prompt_id=prompt.pk,
        correct=bool(prompt.correct),
        kana_id=kana.kana_id,
        script=kana.script,
        glyph=kana.glyph,
        romaji=kana.romaji,
        given=given,
        table_id=prompt.table_id,
        solution=_solution(prompt),
        verdict=_verdict(prompt),
    )
