"""The variant picker (ARCHITECTURE §4, contract): which game should this learner play next?

``recommend(learner, now=None) -> list[Recommendation]`` (best first) reads the learner's
memory and open assignments; the ranking itself, ``rank(...)``, is pure (no Django), so
bench/srs_sim.py runs the very same code on simulated learners.

How a candidate is scored (docs/learning.md has the worked examples):

- Each kana of a script has a *need*: due 1.0, weak 1.0 + (1 - retrievability), new 0.5,
  learning 0.25, mastered 0.
- Kazoku families, ``kana`` variant (families = consonant rows): the game is played by asking
  for a row's members, so it practises kana row by row. Score = sum over rows of
  need(row)^2 / size(row): need concentrated in a few rows scores high.
- ``gojuon`` variant (families = vowel columns): the same over columns.
- ``mixed`` script: both scripts at once, 0.55 x (hiragana + katakana) scores of the variant,
  so it wins only when both scripts need about the same work.
- Kazoku words (``kazoku-words``): reading whole words is the next step once single kana are
  solid. Score = 0.3 x (need of the kana in the 45 words) / 3 + 6 x (share of the script's
  kana that are mastered or learning and not weak)^2; it leads when little need is left.
- ``themed`` families practise kana without structure: never recommended over the others.

Open assignments come first, earliest due first (an assignment of "recommended" takes the
best variant in the assignment's script). Only engines registered in the games app are
recommended; the Kazoku engines have no deck-subset option yet, so none is proposed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from learning import kana_table

DECK_PATH = Path(__file__).resolve().parents[1] / "fixtures" / "kazoku_deck.json"
SCRIPTS = ("hiragana", "katakana")
FAMILIES_ENGINE = "kazoku-families"
WORDS_ENGINE = "kazoku-words"


def gettext_noop(message: str) -> str:
    """Marks a message for translation (makemessages) without importing Django here."""
    return message


REASONS = {
    "rows": gettext_noop(
        "Your %(script)s kana that most need practice sit in a few consonant rows%(groups)s: "
        "collecting families row by row drills them."
    ),
    "columns": gettext_noop(
        "Your %(script)s kana that most need practice share vowels across rows%(groups)s: "
        "gojūon families set them side by side."
    ),
    "mixed": gettext_noop(
        "Both scripts need about the same work: mixed cards practise hiragana and katakana "
        "together."
    ),
    "words_strong": gettext_noop(
        "You know most %(script)s kana well: forming words reads them in context and keeps "
        "them fresh."
    ),
    "words": gettext_noop("Forming %(script)s words practises kana in context."),
    "assigned": gettext_noop("Assigned by your teacher, due %(due)s."),
    "assigned_recommended": gettext_noop(
        "Assigned by your teacher, due %(due)s; this variant practises your weakest kana."
    ),
}

NEED = {"due": 1.0, "new": 0.5, "learning": 0.25, "mastered": 0.0}
MIXED_FACTOR = 0.55
WORDS_NEED_FACTOR = 0.3
WORDS_MASTERY_BONUS = 6.0


@dataclass(frozen=True)
class KanaStatus:
    """What the picker needs to know about one (kana, script) of a learner."""

    state: str  # new | learning | due | mastered
    retrievability: float = 0.0
    weak: bool = False


@dataclass(frozen=True)
class Recommendation:
    engine: str
    options: Mapping[str, str]
    kana: tuple[tuple[str, str], ...]  # (kana_id, script) it practises, neediest first
    reason: str
    score: float = 0.0
    assignment_id: int | None = None
    kana_labels: tuple[str, ...] = field(default=())  # glyphs, for display
    reason_key: str = ""
    reason_args: Mapping[str, str] = field(default_factory=dict)


def _rec(*, reason_key: str, reason_args: Mapping[str, str] | None = None, **fields):
    """A recommendation whose English ``reason`` is built from ``REASONS``."""
    args = dict(reason_args or {})
    return Recommendation(
        reason=REASONS[reason_key] % args, reason_key=reason_key, reason_args=args, **fields
    )


@dataclass(frozen=True)
class AssignmentInfo:
    id: int
    engine: str  # an engine name or "recommended"
    options: Mapping[str, str]
    script: str
    due_label: str
    title: str = ""


@lru_cache(maxsize=1)
def deck() -> dict:
    """Card ids, the kana/gojūon families and the kana of each word (fixtures/kazoku_deck.json)."""
    data = json.loads(DECK_PATH.read_text(encoding="utf-8"))
    return {
        "cards": tuple(card["id"] for card in data["cards"]),
        "rows": tuple((f["id"], tuple(f["cards"])) for f in data["kana_families"]),
        "columns": tuple((f["id"], tuple(f["cards"])) for f in data["gojuon_families"]),
        # kana of the words that the catalog knows (small ゃゅょっ are not studied alone)
        "word_kana": tuple(
            k
            for card in data["cards"]
            for k in card["word"]["kana_ids"]
            if (k, "hiragana") in kana_table.catalog()
        ),
    }


def need_of(status: KanaStatus | None) -> float:
    if status is None:
        return NEED["new"]
    if status.weak:
        return 1.0 + (1.0 - status.retrievability)
    return NEED.get(status.state, 0.0)


def _group_score(
    groups: Sequence[tuple[str, tuple[str, ...]]], needs: Mapping[str, float]
) -> tuple[float, list[str]]:
    score, hot = 0.0, []
    for group_id, members in groups:
        total = sum(needs[k] for k in members)
        score += total * total / len(members)
        if total >= 1.0:
            hot.append((total, group_id))
    hot.sort(reverse=True)
    return score, [group_id for _, group_id in hot]


def _needs(statuses: Mapping[tuple[str, str], KanaStatus], script: str) -> dict[str, float]:
    return {k: need_of(statuses.get((k, script))) for k in deck()["cards"]}


def _neediest(needs_by_script: Mapping[str, Mapping[str, float]], limit: int = 10):
    ranked = sorted(
        ((need, k, s) for s, needs in needs_by_script.items() for k, need in needs.items()),
        key=lambda item: (-item[0], item[2], kana_table.info(item[1], item[2]).order),
    )
    return tuple((k, s) for need, k, s in ranked[:limit] if need > 0)


def _group_names(groups: list[str]) -> str:
    shown = [g.upper() for g in groups[:3]]
    return f" ({', '.join(shown)})" if shown else ""


def _family_candidates(statuses, engines) -> list[Recommendation]:
    if FAMILIES_ENGINE not in engines:
        return []
    candidates = []
    needs = {script: _needs(statuses, script) for script in SCRIPTS}
    for variant, kind in (("kana", "rows"), ("gojuon", "columns")):
        per_script = {}
        for script in SCRIPTS:
            score, hot = _group_score(deck()[kind], needs[script])
            per_script[script] = score
            candidates.append(
                _rec(
                    engine=FAMILIES_ENGINE,
                    options={"variant": variant, "script": script},
                    kana=_neediest({script: needs[script]}),
                    reason_key=kind,
                    reason_args={"script": script, "groups": _group_names(hot)},
                    score=round(score, 3),
                )
            )
        candidates.append(
            _rec(
                engine=FAMILIES_ENGINE,
                options={"variant": variant, "script": "mixed"},
                kana=_neediest(needs),
                reason_key="mixed",
                score=round(MIXED_FACTOR * sum(per_script.values()), 3),
            )
        )
    return candidates


def _words_candidates(statuses, engines) -> list[Recommendation]:
    if WORDS_ENGINE not in engines:
        return []
    candidates = []
    word_kana = deck()["word_kana"]
    for script in SCRIPTS:
        needs = {k: need_of(statuses.get((k, script))) for k in set(word_kana)}
        word_need = sum(needs[k] for k in word_kana) / 3.0  # ~3 kana a word
        solid = sum(
            1
            for k in deck()["cards"]
            if (s := statuses.get((k, script)))
            and s.state in ("mastered", "learning")
            and not s.weak
        ) / len(deck()["cards"])
        score = WORDS_NEED_FACTOR * word_need + WORDS_MASTERY_BONUS * solid * solid
        candidates.append(
            _rec(
                engine=WORDS_ENGINE,
                options={"script": script},
                kana=_neediest({script: needs}),
                reason_key="words_strong" if solid >= 0.5 else "words",
                reason_args={"script": script},
                score=round(score, 3),
            )
        )
    return candidates


def rank(
    *,
    statuses: Mapping[tuple[str, str], KanaStatus],
    engines: Iterable[str] = (FAMILIES_ENGINE, WORDS_ENGINE),
    assignments: Sequence[AssignmentInfo] = (),
) -> list[Recommendation]:
    """Pure ranking: assignments first, then candidates by score (ties: stable order)."""
    engines = set(engines)
    candidates = _family_candidates(statuses, engines) + _words_candidates(statuses, engines)
    candidates.sort(key=lambda rec: -rec.score)
    assigned = [_for_assignment(a, candidates) for a in assignments]
    return [rec for rec in assigned if rec is not None] + candidates


def _for_assignment(
    assignment: AssignmentInfo, candidates: Sequence[Recommendation]
) -> Recommendation | None:
    due = {"due": assignment.due_label}
    if assignment.engine == "recommended":
        fitting = [c for c in candidates if c.options.get("script") == assignment.script]
        if not fitting:
            return None
        best = fitting[0]
        return _rec(
            engine=best.engine,
            options=dict(best.options),
            kana=best.kana,
            reason_key="assigned_recommended",
            reason_args=due,
            score=best.score,
            assignment_id=assignment.id,
        )
    options = {**assignment.options, "script": assignment.script}
    return _rec(
        engine=assignment.engine,
        options=options,
        kana=(),
        reason_key="assigned",
        reason_args=due,
        assignment_id=assignment.id,
    )


def recommend(learner, now: datetime | None = None, *, statuses=None) -> list:
    """Contract: the learner's recommendations, best first (see the module docstring).

    ``statuses`` (from ``learning.selectors.kana_statuses_for``) saves a query when the
    caller has them already.
    """
    from django.utils import formats, timezone

    from games.engines import ENGINES
    from learning.selectors import kana_statuses_for

    now = now or timezone.now()
    if statuses is None:
        statuses = kana_statuses_for(learner=learner, now=now)
    assignments = []
    try:
        from learning.classroom.selectors import assignments_open_for
    except ImportError:  # the classroom side is optional for self-learners' installs
        assignments_open_for = None
    if assignments_open_for is not None:
        for a in assignments_open_for(student=learner, now=now):
            assignments.append(
                AssignmentInfo(
                    id=a.pk,
                    engine=a.engine,
                    options=dict(a.options or {}),
                    script=a.script,
                    due_label=formats.date_format(timezone.localtime(a.due_at), "DATE_FORMAT"),
                    title=a.title,
                )
            )
    ranked = rank(statuses=statuses, engines=ENGINES.keys(), assignments=assignments)
    return [_with_prediction(_with_labels(rec), statuses) for rec in ranked]


def _with_labels(rec: Recommendation) -> Recommendation:
    """Glyphs for display, and the reason in the active language."""
    from django.utils.translation import gettext

    labels = tuple(kana_table.info(k, s).glyph for k, s in rec.kana)
    args = dict(rec.reason_args)
    if "script" in args:
        args["script"] = gettext(args["script"])
    reason = gettext(REASONS[rec.reason_key]) % args
    return Recommendation(**{**rec.__dict__, "kana_labels": labels, "reason": reason})


# --- the reason cites the memory model's prediction (issue 16) ------------------------------

PREDICTION_REASON = gettext_noop(
    "Your predicted chance of recalling %(glyph)s today: %(percent)d%%."
)


def _with_prediction(rec: Recommendation, statuses: Mapping) -> Recommendation:
    """Add to the reason the predicted recall of the neediest kana the game practises that
    the learner has answered before (``KanaStatus.retrievability``: srs.recall_probability)."""
    from django.utils.translation import gettext

    for pair in rec.kana:
        status = statuses.get(tuple(pair))
        if status is not None and status.state != "new":
            sentence = gettext(PREDICTION_REASON) % {
                "glyph": kana_table.info(*pair).glyph,
                "percent": round(100 * status.retrievability),
            }
            return Recommendation(**{**rec.__dict__, "reason": f"{rec.reason} {sentence}"})
    return rec
