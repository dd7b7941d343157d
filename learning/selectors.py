"""Reading kana memory: states, due/weak/mastered kana, confusions, history, streaks.

Every selector takes ``now`` (defaults to the wall clock) so pages and tests agree on time.
Queries are few and aggregated in the database: the dashboard of a learner with 50,000
events costs a handful of queries (tests/learning/test_dashboard.py counts them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db.models import Count, Max, Q
from django.db.models.functions import TruncDate
from django.utils import timezone
from fsrs import Scheduler

from games.engines import ENGINES, get_engine
from games.models import Table, TableStatus
from learning import kana_table, srs
from learning.models import KanaMemory, LearnerSettings, LearningEvent
from learning.srs import KanaStatus


@dataclass(frozen=True)
class KanaCell:
    """One kana of the dashboard grid."""

    kana_id: str
    script: str
    glyph: str
    romaji: str
    row: str
    column: str
    state: str
    weak: bool
    retrievability: float  # fsrs' own curve (srs.retrievability): weak, need, quiz order
    predicted_recall: float  # the prediction shown to the learner (srs.predicted_recall)
    reps: int
    exposures: int
    errors: int
    due: datetime | None
    last_correct: bool | None = None  # the last answer (srs.recall_ready); None: never answered
    introduced_at: datetime | None = None  # when a lesson card taught it; None: never
    last_review: datetime | None = None  # the last answer's time (srs.recently_right)


# --- Exposures of games still in play (docs/security.md §3) ------------------------------
# An exposure is a kana that entered a learner's own view; while the game runs, a count a
# human could diff would reveal the learner's hidden hand. Every page and export subtracts the
# exposures of tables not finished yet; they count once the game ends.


def tables_in_play():
    """Ids of the tables not finished yet, as a subquery."""
    return Table.objects.exclude(status=TableStatus.FINISHED).values("id")


def exposures_in_play(*, learner_ids: Iterable[int]) -> dict[tuple[int, str, str], int]:
    """(learner id, kana, script) -> exposures recorded by games still in play. One query."""
    rows = (
        LearningEvent.objects.filter(
            kind="exposure", learner_id__in=list(learner_ids), table_id__in=tables_in_play()
        )
        .values("learner_id", "kana_id", "script")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {(r["learner_id"], r["kana_id"], r["script"]): r["n"] for r in rows}


def exposures_settled(memory, in_play: dict[tuple[int, str, str], int]) -> int:
    """A KanaMemory's exposure count without the games still in play."""
    if memory is None:
        return 0
    key = (memory.learner_id, memory.kana_id, memory.script)
    return max(0, memory.exposures - in_play.get(key, 0))


_READ = object()  # a settings row not passed in: read it


def scheduler_for(*, learner, settings_row=_READ) -> Scheduler:
    """The learner's scheduler: fitted parameters if the optimiser produced some, else defaults.

    Fuzzing follows ``settings.LEARNING_FSRS_FUZZING`` (on by default, off in tests).
    ``settings_row``: the learner's ``LearnerSettings`` (or None), when the caller has it.
    """
    fuzzing = getattr(settings, "LEARNING_FSRS_FUZZING", True)
    row = settings_row
    if row is _READ:
        row = LearnerSettings.objects.filter(learner=learner).only("fsrs_parameters").first()
    parameters = row.fsrs_parameters if row else None
    return srs.scheduler_build(parameters=parameters, fuzzing=fuzzing)


def _memories(*, learner, script: str | None = None):
    rows = KanaMemory.objects.filter(learner=learner)
    if script:
        rows = rows.filter(script=script)
    return rows


def kana_prediction_for(
    *,
    learner,
    kana_id: str,
    script: str,
    choices: int = 0,
    now: datetime | None = None,
    scheduler: Scheduler | None = None,
    kind: str = "",
) -> float:
    """P(correct) of the learner's next answer about (kana, script) at ``now``: typed
    (``choices`` 0) or picked among ``choices`` buttons, of answer kind ``kind`` (its
    calibration; "" : typed, or a pick with choices). The value ``memory_review`` stores
    on the answer (``srs.predict``: predicted recall calibrated per kind, guessing folded in,
    clipped); a kana never answered gets ``srs.TAUGHT_RECALL`` once a lesson card taught it,
    else ``srs.SEEN_RECALL`` once seen in play, else ``srs.UNSEEN_RECALL`` (plus the guess).
    One query (two without ``scheduler``)."""
    now = now or timezone.now()
    scheduler = scheduler or scheduler_for(learner=learner)
    memory = (
        _memories(learner=learner, script=script)
        .filter(kana_id=kana_id)
        .only("card", "introduced_at", "exposures")
        .first()
    )
    card = srs.card_from_json(memory.card) if memory is not None and memory.card else None
    taught = memory is not None and memory.introduced_at is not None
    seen = memory is not None and memory.exposures > 0
    return srs.predict(
        scheduler=scheduler, card=card, now=now, choices=choices, kind=kind, taught=taught,
        seen=seen,
    )  # fmt: skip


def kana_cells_for(
    *, learner, now: datetime | None = None, memories=None, settings_row=_READ
) -> list[KanaCell]:
    """All 142 kana (both scripts, catalog order) with the learner's state for each."""
    now = now or timezone.now()
    scheduler = scheduler_for(learner=learner, settings_row=settings_row)
    rows = memories if memories is not None else list(_memories(learner=learner))
    by_pair = {(m.kana_id, m.script): m for m in rows}
    cells = []
    for (kana_id, script), info in kana_table.catalog().items():
        memory = by_pair.get((kana_id, script))
        card = srs.card_from_json(memory.card) if memory and memory.card else None
        state = (
            srs.state_of(reps=memory.reps, due=memory.due, stability=memory.stability, now=now)
            if memory
            else "new"
        )
        cells.append(
            KanaCell(
                kana_id=kana_id,
                script=script,
                glyph=info.glyph,
                romaji=info.romaji,
                row=info.row,
                column=info.column,
                state=state,
                weak=srs.is_weak(scheduler=scheduler, card=card, now=now),
                retrievability=srs.retrievability(scheduler=scheduler, card=card, now=now),
                predicted_recall=srs.predicted_recall(scheduler=scheduler, card=card, now=now),
                reps=memory.reps if memory else 0,
                # the raw counter: the picker's input, never rendered (docs/security.md §3)
                exposures=memory.exposures if memory else 0,
                errors=memory.errors if memory else 0,
                due=memory.due if memory else None,
                last_correct=memory.last_correct if memory else None,
                introduced_at=memory.introduced_at if memory else None,
                last_review=memory.last_review if memory else None,
            )
        )
    return cells


def kana_states_for(*, learner, script: str, now: datetime | None = None) -> dict[str, str]:
    """Contract (INTERFACES.md): kana_id -> "new" | "learning" | "due" | "mastered"."""
    now = now or timezone.now()
    states = {kana_id: "new" for kana_id in kana_table.kana_ids(script)}
    for memory in _memories(learner=learner, script=script).only(
        "kana_id", "reps", "due", "stability"
    ):
        if memory.kana_id in states:
            states[memory.kana_id] = srs.state_of(
                reps=memory.reps, due=memory.due, stability=memory.stability, now=now
            )
    return states


def kana_states_for_learners(
    *, learners: Iterable, script: str, now: datetime | None = None
) -> dict[int, dict[str, str]]:
    """``kana_states_for`` for many learners in one query (class dashboards)."""
    now = now or timezone.now()
    ids = [getattr(learner, "pk", learner) for learner in learners]
    blank = {kana_id: "new" for kana_id in kana_table.kana_ids(script)}
    result = {pk: dict(blank) for pk in ids}
    rows = KanaMemory.objects.filter(learner_id__in=ids, script=script).only(
        "learner_id", "kana_id", "reps", "due", "stability"
    )
    for memory in rows:
        if memory.kana_id in blank:
            result[memory.learner_id][memory.kana_id] = srs.state_of(
                reps=memory.reps, due=memory.due, stability=memory.stability, now=now
            )
    return result


def kana_statuses_for(
    *, learner, now: datetime | None = None, cells: list[KanaCell] | None = None
) -> dict[tuple[str, str], KanaStatus]:
    """The picker's view of the learner: state, retrievability and weakness per kana."""
    cells = cells if cells is not None else kana_cells_for(learner=learner, now=now)
    return {
        (c.kana_id, c.script): KanaStatus(
            state=c.state,
            retrievability=c.retrievability,
            weak=c.weak,
            predicted_recall=c.predicted_recall,
        )
        for c in cells
    }


def kana_due_for(
    *, learner, now: datetime | None = None, limit: int = 20, script: str | None = None
) -> list[tuple[str, str]]:
    """(kana_id, script) whose review is due, most overdue first."""
    now = now or timezone.now()
    rows = _memories(learner=learner, script=script).filter(reps__gt=0, due__lte=now)
    return list(rows.order_by("due", "id").values_list("kana_id", "script")[:limit])


def kana_due_count_for(*, learner, now: datetime | None = None) -> int:
    now = now or timezone.now()
    return _memories(learner=learner).filter(reps__gt=0, due__lte=now).count()


def kana_weak_for(*, learner, now: datetime | None = None) -> list[KanaCell]:
    """Reviewed kana whose retrievability has dropped (srs.WEAK_RETRIEVABILITY), weakest first."""
    cells = [c for c in kana_cells_for(learner=learner, now=now) if c.weak]
    return sorted(cells, key=lambda c: c.retrievability)


def kana_mastered_for(*, learner, now: datetime | None = None) -> list[KanaCell]:
    return [c for c in kana_cells_for(learner=learner, now=now) if c.state == "mastered"]


@dataclass(frozen=True)
class Confusion:
    kana_id: str
    script: str
    glyph: str
    confused_with: str
    confused_glyph: str
    count: int
    last_at: datetime


def confusions_for(*, learner, since: datetime | None = None, limit: int = 10) -> list[Confusion]:
    """The learner's most frequent confusion pairs (a kana answered as another one)."""
    rows = LearningEvent.objects.settled().confusions().filter(learner=learner)  # no card answers
    if since is not None:
        rows = rows.filter(created_at__gte=since)
    grouped = (
        rows.values("kana_id", "script", "confused_with")
        .annotate(n=Count("id"), last_at=Max("created_at"))
        .order_by("-n", "-last_at")[:limit]
    )
    found = []
    for row in grouped:
        catalog = kana_table.catalog()
        mine = catalog.get((row["kana_id"], row["script"]))
        other = catalog.get((row["confused_with"], row["script"]))
        if not mine or not other:
            continue
        found.append(
            Confusion(
                kana_id=row["kana_id"],
                script=row["script"],
                glyph=mine.glyph,
                confused_with=row["confused_with"],
                confused_glyph=other.glyph,
                count=row["n"],
                last_at=row["last_at"],
            )
        )
    return found


@dataclass(frozen=True)
class DayCount:
    day: date
    reviews: int
    correct: int


def reviews_per_day_for(*, learner, days: int = 30, now: datetime | None = None) -> list[DayCount]:
    """Answers per UTC day over the last ``days`` days (oldest first, zero days included)."""
    now = now or timezone.now()
    today = now.date()
    start = today - timedelta(days=days - 1)
    rows = (
        LearningEvent.objects.settled()
        .filter(
            learner=learner,
            kind="answer",
            created_at__gte=datetime.combine(start, datetime.min.time(), tzinfo=now.tzinfo),
        )
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(n=Count("id"), ok=Count("id", filter=Q(correct=True)))
    )
    found = {row["day"]: row for row in rows}
    series = []
    for offset in range(days):
        day = start + timedelta(days=offset)
        row = found.get(day)
        series.append(
            DayCount(day=day, reviews=row["n"] if row else 0, correct=row["ok"] if row else 0)
        )
    return series


def streak_for(*, learner, now: datetime | None = None, max_days: int = 366) -> int:
    """Consecutive days with at least one answer, ending today (or yesterday if none today)."""
    now = now or timezone.now()
    today = now.date()
    start = today - timedelta(days=max_days)
    days = set(
        LearningEvent.objects.settled()
        .filter(
            learner=learner,
            kind="answer",
            created_at__gte=datetime.combine(start, datetime.min.time(), tzinfo=now.tzinfo),
        )
        .annotate(day=TruncDate("created_at"))
        .values_list("day", flat=True)
        .distinct()
    )
    cursor = today if today in days else today - timedelta(days=1)
    streak = 0
    while cursor in days:
        streak += 1
        cursor -= timedelta(days=1)
    return streak


def state_counts(cells: Iterable[KanaCell]) -> dict[str, dict[str, int]]:
    """Per script: how many kana are new, learning, due, mastered (and weak)."""
    counts: dict[str, dict[str, int]] = {}
    for cell in cells:
        per = counts.setdefault(
            cell.script, {"new": 0, "learning": 0, "due": 0, "mastered": 0, "weak": 0}
        )
        per[cell.state] += 1
        per["weak"] += int(cell.weak)
    return counts


def answers_count_for(*, learner, since: datetime) -> int:
    return (
        LearningEvent.objects.settled()
        .filter(learner=learner, kind="answer", created_at__gte=since)
        .count()
    )


# --- the learner dashboard ----------------------------------------------------------------

GRID_COLUMNS = ("a", "i", "u", "e", "o")


@dataclass(frozen=True)
class GridRow:
    row: str
    cells: tuple[KanaCell | None, ...]


@dataclass(frozen=True)
class ScriptGrid:
    script: str
    rows: tuple[GridRow, ...]
    counts: dict[str, int]


def grids_from(cells: list[KanaCell]) -> list[ScriptGrid]:
    """Cells laid out as the gojūon table, one grid per script (ん under the "a" column)."""
    counts = state_counts(cells)
    grids = []
    for script in kana_table.SCRIPTS:
        rows: dict[str, list[KanaCell | None]] = {}
        for cell in cells:
            if cell.script != script:
                continue
            slots = rows.setdefault(cell.row, [None] * len(GRID_COLUMNS))
            index = GRID_COLUMNS.index(cell.column) if cell.column in GRID_COLUMNS else 0
            slots[index] = cell
        grids.append(
            ScriptGrid(
                script=script,
                rows=tuple(GridRow(row=row, cells=tuple(slots)) for row, slots in rows.items()),
                counts=counts.get(script, {}),
            )
        )
    return grids


TO_KATAKANA = {code: code + 0x60 for code in range(0x3041, 0x3097)}


@dataclass(frozen=True)
class KanaWord:
    kana: str
    romaji: str
    meaning: str


@dataclass(frozen=True)
class KanaDetail:
    cell: KanaCell
    words: list[KanaWord]
    confused_with: list[Confusion]


def kana_detail_for(
    *, learner, kana_id: str, script: str, lang: str = "en", now: datetime | None = None
) -> KanaDetail:
    """One kana of the learner: its state, the games' words that use it (in its script, with
    their meaning in ``lang``; none in Japanese) and what the learner read it as.
    ``KeyError`` for a kana not in the catalog."""
    kana_table.info(kana_id, script)
    memories = list(_memories(learner=learner).filter(kana_id=kana_id, script=script))
    cells = kana_cells_for(learner=learner, now=now, memories=memories)
    cell = next(c for c in cells if c.kana_id == kana_id and c.script == script)
    confused = [
        c for c in confusions_for(learner=learner, limit=50)
        if c.kana_id == kana_id and c.script == script
    ]  # fmt: skip
    return KanaDetail(cell=cell, words=_words_with(kana_id, script, lang), confused_with=confused)


def _words_with(kana_id: str, script: str, lang: str) -> list[KanaWord]:
    """The words the games' cards print that use the kana (``eng.word_examples``), each once,
    in ``script``, with its meaning in ``lang`` (English when the game has none in it)."""
    words, seen = [], set()
    for name in ENGINES:
        for example in get_engine(name).word_examples(kana_id):
            if (example.kana, example.romaji) in seen:
                continue
            seen.add((example.kana, example.romaji))
            kana = example.kana.translate(TO_KATAKANA) if script == "katakana" else example.kana
            meanings = example.meanings
            meaning = "" if lang == "ja" else meanings.get(lang) or meanings.get("en", "")
            words.append(KanaWord(kana=kana, romaji=example.romaji, meaning=meaning))
    return words
