"""The variant picker (ARCHITECTURE §4, contract): which game should this learner play next?

``recommend(learner, now=None) -> list[Recommendation]`` (best first) reads the learner's
memory; the ranking itself, ``rank(...)``, is pure (no Django), so bench/srs_sim.py runs the
very same code on simulated learners.

The picker knows no game. It asks every engine of ``games.engines.ENGINES`` for its
``practice_presets()`` and scores each preset by what ``practice(preset)`` makes a player read
(and, when the engine says how play groups those kana, by its ``practice_groups``), against
the learner's needs. The script a preset shows is its ``options["script"]`` (``hiragana``,
``katakana`` or ``mixed``; absent: hiragana). docs/learning.md has the worked examples.

- Each kana of a script has a *need*: due 1.0, weak 1.0 + (1 - retrievability), new 0.5,
  learning 0.25, mastered 0.
- A game that groups its kana (families by consonant row, by vowel column...) drills a group
  together: score = sum over groups of need(group)^2 / size(group), so need concentrated in a
  few of its groups scores high.
- A game that reads its kana ungrouped, in context (words): score = 0.1 x its total need +
  6 x (share of its kana that are mastered or learning and not weak)^2: it leads when little
  need is left, keeping solid kana fresh.
- ``mixed`` script: both scripts at once, 0.55 x (hiragana + katakana) scores, so it wins
  only when both scripts need about the same work.
- Coverage (issue 27): while one script of the learner's syllabus has more kana never
  answered than the other (``syllabus.weaker_script``), the presets that show that script
  come first (their own order kept), so the script behind is brought in instead of starving.
  Presets of a script outside the syllabus are left out.

Open assignments come first: whoever provides them (the classroom) registers a source with
``assignments_source_register`` (in its ``AppConfig.ready()``); the picker imports no
classroom code. An assignment of "recommended" takes the best preset in its script.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, pgettext

from games.engines import ENGINES, get_engine
from learning import kana_table, syllabus
from learning.selectors import kana_statuses_for
from learning.services.syllabus import scripts_for
from learning.srs import KanaStatus

SCRIPTS = ("hiragana", "katakana")


def gettext_noop(message: str) -> str:
    """Marks a message for translation (makemessages) without translating it here."""
    return message


REASONS = {
    # the kana a game drills, named, and why, in plain words (issue 25: no "groups (HA, NA)")
    "due": gettext_noop("This game practises %(kana)s, which are due for review today."),
    "weak": gettext_noop("This game practises %(kana)s, which you often get wrong."),
    "learning": gettext_noop("This game practises %(kana)s, which you are still learning."),
    "new": gettext_noop("This game shows you kana you have not met yet: %(kana)s."),
    "mixed": gettext_noop(
        "Both scripts need about the same work: mixed cards practise hiragana and katakana "
        "together."
    ),
    "context_strong": gettext_noop(
        "You know most %(script)s kana well: this game reads them in context and keeps them fresh."
    ),
    "context": gettext_noop("This game practises %(script)s kana in context."),
    "coverage": gettext_noop(
        "%(count)s %(script)s kana have never been asked yet, more than in the other script, "
        "so this game brings them in."
    ),
    "assigned": gettext_noop("Assigned by your teacher, due %(due)s."),
    "assigned_recommended": gettext_noop(
        "Assigned by your teacher, due %(due)s; this variant practises your weakest kana."
    ),
}

NEED = {"due": 1.0, "new": 0.5, "learning": 0.25, "mastered": 0.0}
MIXED_FACTOR = 0.55
CONTEXT_NEED_FACTOR = 0.1
CONTEXT_MASTERY_BONUS = 6.0


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


def need_of(status: KanaStatus | None) -> float:
    if status is None:
        return NEED["new"]
    if status.weak:
        return 1.0 + (1.0 - status.retrievability)
    return NEED.get(status.state, 0.0)


@dataclass(frozen=True)
class Preset:
    """One option set of one engine, as the picker sees it: the kana it practises, by script."""

    engine: str
    options: Mapping[str, Any]
    scripts: tuple[str, ...]
    groups: tuple[tuple[str, tuple[str, ...]], ...]  # (label, kana) in the engine's order
    kana: tuple[str, ...]


def presets_of(engines: Iterable[str]) -> list[Preset]:
    """Every practice preset of the named engines (only kana the catalog knows)."""
    known = {kana_id for kana_id, _script in kana_table.catalog()}
    presets = []
    for name in engines:
        eng = get_engine(name)
        for options in eng.practice_presets():
            script = options.get("script", "hiragana")
            groups = tuple(
                (label, tuple(sorted(kana & known)))
                for label, kana in eng.practice_groups(options).items()
            )
            presets.append(
                Preset(
                    engine=name,
                    options=dict(options),
                    scripts=SCRIPTS if script == "mixed" else (script,),
                    groups=tuple(group for group in groups if group[1]),
                    kana=tuple(sorted(eng.practice(options) & known)),
                )
            )
    return presets


def _needs(statuses, kana: Iterable[str], script: str) -> dict[str, float]:
    return {k: need_of(statuses.get((k, script))) for k in kana}


def _group_score(
    groups: Sequence[tuple[str, tuple[str, ...]]], needs: Mapping[str, float]
) -> tuple[float, list[str]]:
    score, hot = 0.0, []
    for label, members in groups:
        total = sum(needs[k] for k in members)
        score += total * total / len(members)
        if total >= 1.0 and label:
            hot.append((total, label))
    hot.sort(reverse=True)
    return score, [label for _, label in hot]


def _solid_share(statuses, kana: Sequence[str], script: str) -> float:
    solid = sum(
        1
        for k in kana
        if (s := statuses.get((k, script))) and s.state in ("mastered", "learning") and not s.weak
    )
    return solid / len(kana)


def _neediest(needs_by_script: Mapping[str, Mapping[str, float]], limit: int = 10):
    ranked = sorted(
        ((need, k, s) for s, needs in needs_by_script.items() for k, need in needs.items()),
        key=lambda item: (-item[0], item[2], kana_table.info(item[1], item[2]).order),
    )
    return tuple((k, s) for need, k, s in ranked[:limit] if need > 0)


KANA_NAMED = 3  # kana a reason names


def _kind_of(status: KanaStatus | None) -> str:
    if status is None or status.state == "new":
        return "new"
    if status.weak:
        return "weak"
    return "due" if status.state == "due" else "learning"


def _kana_reason(neediest: Sequence[tuple[str, str]], statuses) -> tuple[str, dict[str, str]]:
    """Why: the neediest kana's kind (due, often wrong, still learning, new) and up to three
    kana of that kind, as glyphs ("ス, ナ, ハ"; the separator is translated on display)."""
    if not neediest:
        return "context", {"script": "hiragana"}
    kind = _kind_of(statuses.get(neediest[0]))
    named = [pair for pair in neediest if _kind_of(statuses.get(pair)) == kind][:KANA_NAMED]
    return kind, {"kana": ", ".join(kana_table.info(*pair).glyph for pair in named)}


def _never_met(statuses, kana: Iterable[str], script: str) -> bool:
    return all(_kind_of(statuses.get((k, script))) == "new" for k in kana)


def _candidate(preset: Preset, statuses) -> Recommendation | None:
    if not preset.kana:
        return None
    if len(preset.scripts) > 1 and any(
        _never_met(statuses, preset.kana, s) for s in preset.scripts
    ):
        return None  # mixed cards only once both scripts have been met (issue 25)
    needs = {script: _needs(statuses, preset.kana, script) for script in preset.scripts}
    grouped = len(preset.groups) > 1
    scores, solid = {}, 0.0
    for script in preset.scripts:
        if grouped:
            scores[script], _hot = _group_score(preset.groups, needs[script])
        else:
            solid = _solid_share(statuses, preset.kana, script)
            scores[script] = (
                CONTEXT_NEED_FACTOR * sum(needs[script].values())
                + CONTEXT_MASTERY_BONUS * solid * solid
            )
    fields: dict[str, Any] = {"engine": preset.engine, "options": dict(preset.options)}
    fields["kana"] = _neediest(needs)
    if len(preset.scripts) > 1:
        score = MIXED_FACTOR * sum(scores.values())
        return _rec(**fields, reason_key="mixed", score=round(score, 3))
    script = preset.scripts[0]
    if grouped:
        reason_key, args = _kana_reason(fields["kana"], statuses)
    else:
        reason_key = "context_strong" if solid >= 0.5 else "context"
        args = {"script": script}
    return _rec(**fields, reason_key=reason_key, reason_args=args, score=round(scores[script], 3))


def rank(
    *,
    statuses: Mapping[tuple[str, str], KanaStatus],
    engines: Iterable[str] | None = None,
    assignments: Sequence[AssignmentInfo] = (),
    scripts: Sequence[str] = SCRIPTS,
) -> list[Recommendation]:
    """Pure ranking: assignments first, then every engine's presets by score (ties: stable
    order), those of the script behind in coverage first. ``engines``: names from
    ``ENGINES`` (default: all of them); ``scripts``: the learner's syllabus."""
    names = list(ENGINES) if engines is None else [name for name in engines if name in ENGINES]
    every = presets_of(names)
    scored = [(p, rec) for p in every if (rec := _candidate(p, statuses)) is not None]
    scored.sort(key=lambda pair: -pair[1].score)
    allowed = set(scripts)
    presets = [p for p in every if set(p.scripts) <= allowed]
    candidates = [rec for p, rec in scored if set(p.scripts) <= allowed]
    candidates = _covering_first(candidates, presets, statuses)
    # an assignment in a script outside the syllabus still comes first: the teacher set it
    anyway = [rec for _p, rec in scored]
    assigned = [_for_assignment(a, candidates) or _for_assignment(a, anyway) for a in assignments]
    return [rec for rec in assigned if rec is not None] + candidates


def _covering_first(
    candidates: list[Recommendation], presets: Sequence[Preset], statuses
) -> list[Recommendation]:
    """Coverage (module docstring): the presets showing the script with more kana never
    answered come first, with a reason that says so."""
    scripts = sorted({s for p in presets for s in p.scripts})
    answered = {pair for pair, st in statuses.items() if st is not None and st.state != "new"}
    never = syllabus.never_answered(syllabus.syllabus(scripts), answered)
    weaker = syllabus.weaker_script(never)
    if weaker is None:
        return candidates
    first, rest = [], []
    for rec in candidates:
        shows = rec.options.get("script", "hiragana")
        if shows == weaker:
            args = {"count": str(never[weaker]), "script": weaker}
            rec = _rec(**_fields(rec), reason_key="coverage", reason_args=args)
            first.append(rec)
        elif shows == "mixed":
            first.append(rec)
        else:
            rest.append(rec)
    return first + rest


def _fields(rec: Recommendation) -> dict[str, Any]:
    return {"engine": rec.engine, "options": rec.options, "kana": rec.kana, "score": rec.score}


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


AssignmentsSource = Callable[..., Iterable[AssignmentInfo]]
_ASSIGNMENT_SOURCES: list[AssignmentsSource] = []


def assignments_source_register(source: AssignmentsSource) -> None:
    """Register ``source(*, learner, now) -> AssignmentInfo list`` (the classroom's open
    assignments of a student, earliest due first); their recommendations come first."""
    if source not in _ASSIGNMENT_SOURCES:
        _ASSIGNMENT_SOURCES.append(source)


def recommend(
    learner, now: datetime | None = None, *, statuses=None, scripts=None
) -> list[Recommendation]:
    """Contract: the learner's recommendations, best first (see the module docstring).

    ``statuses`` (from ``learning.selectors.kana_statuses_for``) and ``scripts`` (from
    ``learning.services.syllabus.scripts_for``) save queries when the caller has them already.
    """
    now = now or timezone.now()
    if statuses is None:
        statuses = kana_statuses_for(learner=learner, now=now)
    assignments = [
        info for source in _ASSIGNMENT_SOURCES for info in source(learner=learner, now=now)
    ]
    ranked = rank(
        statuses=statuses,
        engines=ENGINES.keys(),
        assignments=assignments,
        scripts=scripts_for(learner) if scripts is None else scripts,
    )
    return [_with_labels(rec) for rec in ranked]


def _with_labels(rec: Recommendation) -> Recommendation:
    """Glyphs for display, and the reason in the active language."""
    labels = tuple(kana_table.info(k, s).glyph for k, s in rec.kana)
    args = dict(rec.reason_args)
    if "script" in args:
        args["script"] = gettext(args["script"])
    if "kana" in args:
        args["kana"] = pgettext("between kana in a list", ", ").join(args["kana"].split(", "))
    reason = gettext(REASONS[rec.reason_key]) % args
    return Recommendation(**{**rec.__dict__, "kana_labels": labels, "reason": reason})
