"""Writing as a production answer: "Write shi (katakana)", the learner draws シ.

When a kana is asked in writing (docs/learning.md, "Writing"): it is asked by recall
(``srs.recall_ready``: its last answer was right), its reading has been typed right at least
once, and its latest recall answer (typed or written) was typed: typing and writing then
alternate (and KanjiVG's drawing of it is installed). ``writing_kinds`` applies that rule
to the kinds ``quiz_kinds`` chose.

A written answer goes through the same ``prompt_answer`` as every prompt (same event, same
FSRS review, not recognition: like typed recall, right is Good whatever the time);
``grade_writing`` grades it with ``learning.writing.check`` and names the confusion when the
drawing is another kana of the same script (``learning.writing.matching``). The verdict
(reason, stroke) is kept in the prompt's ``detail`` so that the page can say what was wrong
after a redirect.
``writing_skip``: "I can't draw here" turns the learner's open written question into typed
recall, recording no answer.
"""

from __future__ import annotations

from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _

from learning import kana_table
from learning import writing as checker
from learning.models import LearningEvent, Prompt
from learning.models.memory import PromptKind, PromptStatus

RECALL_KINDS = (PromptKind.TYPED, PromptKind.WRITE)


class WritingError(Exception):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def writing_due(*, typed_right: int, last_typed, last_written) -> bool:
    """Pure: ask this recall-ready kana in writing? Once its reading was typed right, and
    when its latest recall answer was typed (``last_*``: times, None for never)."""
    if typed_right < 1 or last_typed is None:
        return False
    return last_written is None or last_typed > last_written


def writing_kinds(*, learner, pairs: list[tuple[str, str]], kinds: list[str]) -> list[str]:
    """``kinds`` with typed recall turned into writing where ``writing_due`` says so."""
    asked = [pair for pair, kind in zip(pairs, kinds, strict=True) if kind == PromptKind.TYPED]
    if not asked:
        return list(kinds)
    rows = (
        LearningEvent.objects.filter(
            learner=learner,
            kind="answer",
            answer_kind__in=RECALL_KINDS,
            kana_id__in={k for k, _s in asked},
            script__in={s for _k, s in asked},
        )
        .values("kana_id", "script", "answer_kind")
        .annotate(last=Max("created_at"), right=Count("id", filter=Q(correct=True)))
    )
    seen: dict[tuple[str, str], dict] = {}
    for row in rows:
        seen.setdefault((row["kana_id"], row["script"]), {})[row["answer_kind"]] = row
    out = []
    for pair, kind in zip(pairs, kinds, strict=True):
        found = seen.get(pair, {})
        typed, written = found.get(PromptKind.TYPED), found.get(PromptKind.WRITE)
        out.append(
            writing_kind(
                kind=kind,
                glyph=kana_table.info(*pair).glyph,
                typed_right=typed["right"] if typed else 0,
                last_typed=typed["last"] if typed else None,
                last_written=written["last"] if written else None,
            )
        )
    return out


def writing_kind(*, kind: str, glyph: str, typed_right: int, last_typed, last_written) -> str:
    """Pure: ``kind`` (what ``quiz_kinds`` chose), or ``write`` when it is typed recall, the
    glyph can be drawn (KanjiVG) and ``writing_due`` says so (bench/srs_sim.py calls it)."""
    if (
        kind == PromptKind.TYPED
        and checker.drawable(glyph)
        and writing_due(typed_right=typed_right, last_typed=last_typed, last_written=last_written)
    ):
        return PromptKind.WRITE
    return kind


def grade_writing(prompt: Prompt, kana: kana_table.KanaInfo, answer: str):
    """(what was given, as shown; correct?; confused_with kana id or "") for a drawing
    posted as JSON; the verdict goes into ``prompt.detail``. ``WritingError`` (400) for
    anything that is not a drawing: nothing is recorded then."""
    try:
        drawing = checker.parse_drawing(answer)
    except checker.BadDrawing as error:
        raise WritingError(
            _(
                "This drawing could not be read: draw the kana again, with fewer points "
                "if it is very long."
            ),
            400,
        ) from error
    verdict = checker.check(kana.glyph, drawing)
    confused = ""
    if not verdict.correct:
        others = {
            kana_table.info(k, prompt.script).glyph: k
            for k in kana_table.kana_ids(prompt.script)
            if k != kana.kana_id
        }
        found = checker.matching(drawing, others)
        confused = others.get(found, "")
    prompt.detail = {
        "verdict": {
            "reason": verdict.reason,
            "stroke": verdict.stroke,
            "expected": verdict.expected,
            "drawn": verdict.drawn,
            "instead_of": verdict.instead_of,
            "drawing": checker.in_reference_box(kana.glyph, drawing),  # shown after
        }
    }
    given = kana_table.info(confused, prompt.script).glyph if confused else ""
    return given, verdict.correct, confused


def writing_skip(*, user, prompt_id: int) -> None:
    """ "I can't draw here": the learner's open written question becomes typed recall (no
    answer recorded). ``WritingError``: 404 not this learner's written question, 409 closed."""
    prompt = Prompt.objects.filter(pk=prompt_id, learner=user, kind=PromptKind.WRITE).first()
    if prompt is None:
        raise WritingError(_("No such question."), 404)
    changed = Prompt.objects.filter(
        pk=prompt.pk, status=PromptStatus.OPEN, kind=PromptKind.WRITE
    ).update(kind=PromptKind.TYPED)
    if not changed:
        raise WritingError(_("This question was already answered or has expired."), 409)


def verdict_sentence(verdict: dict) -> str:
    """What the page says about a refused drawing: which stroke, and what is wrong."""
    reason = (verdict or {}).get("reason", "")
    values = {
        "stroke": verdict.get("stroke", 0) if verdict else 0,
        "expected": verdict.get("expected", 0) if verdict else 0,
        "drawn": verdict.get("drawn", 0) if verdict else 0,
        "rank": verdict.get("instead_of", 0) if verdict else 0,
    }
    sentences = {
        checker.MISSING: _(
            "Stroke %(stroke)s is missing (strokes drawn: %(drawn)s of %(expected)s)."
        ),
        checker.EXTRA: _(
            "Stroke %(stroke)s is one too many (strokes drawn: %(drawn)s of %(expected)s)."
        ),
        checker.REVERSED: _("Stroke %(stroke)s is drawn backwards: start it from its other end."),
        checker.ORDER: _("Stroke %(stroke)s is out of order: it is stroke %(rank)s of this kana."),
        checker.SHAPE: _("Stroke %(stroke)s does not have the right shape or place."),
    }
    return sentences[reason] % values if reason in sentences else ""
