"""Learning memory: what each learner saw, answered and remembers (ARCHITECTURE §4).

- ``LearningEvent``: one row per exposure (a kana newly shown in the learner's own view of a
  game) or answer (a recognition prompt in play, or a quiz question).
- ``KanaMemory``: one row per (learner, kana, script), the ``fsrs`` card state plus counters.
- ``Prompt``: a recognition question waiting for the learner (in play or in the quiz); the
  response time is measured server-side from ``displayed_at``. A ``card`` prompt asks about
  a card the learner has seen often (the engine's ``card_question``).
- ``CardSighting``: how many times a learner has seen each card of a game turned face up
  (the ``card`` prompts wait for a few sightings).
- ``LearnerSettings``: daily goal, the scripts learned (``syllabus``) and the learner's fitted
  FSRS parameters, if any.
- ``DailySession``: one per learner and day (warm-up, game, summary).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Table, TableStatus
from kanagame.classes.choices import SyllabusChoice
from kanagame.db.fields import JSONField

from .kana import Script


class EventKind(models.TextChoices):
    EXPOSURE = "exposure", _("Exposure")
    ANSWER = "answer", pgettext_lazy("learning event kind", "Answer")


class EventSource(models.TextChoices):
    PLAY = "play", pgettext_lazy("where a learning event comes from", "Play")
    QUIZ = "quiz", _("Quiz")
    PROMPT = "prompt", _("Prompt in play")
    LESSON = "lesson", _("Lesson")  # a new kana introduced (reading, sound, strokes)


class LearningEventQuerySet(models.QuerySet):
    def settled(self) -> LearningEventQuerySet:
        """Events of quizzes and of finished games: a table still being played shows nowhere
        until it ends (docs/security.md §3, §10), so nobody reads a hand through them."""
        return self.exclude(
            table_id__in=Table.objects.exclude(status=TableStatus.FINISHED).values("id")
        )

    def confusions(self) -> LearningEventQuerySet:
        """Wrong answers that name the kana picked or typed instead: one glyph taken for
        another. Answers to ``card`` prompts are left out: picking あ for the kana that begins
        a poem's second half is the poem misremembered, not あ mixed up with the right glyph."""
        return (
            self.filter(kind="answer", correct=False)
            .exclude(confused_with="")
            .exclude(answer_kind="card")
        )


class LearningEvent(models.Model):
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="learning_events"
    )
    kana_id = models.CharField(max_length=4)
    script = models.CharField(max_length=8, choices=Script.choices)
    kind = models.CharField(max_length=8, choices=EventKind.choices)
    correct = models.BooleanField(null=True, blank=True)
    confused_with = models.CharField(max_length=4, blank=True)
    response_ms = models.PositiveIntegerField(null=True, blank=True)
    # answers: the prompt kind (reading, glyph, typed, write); "" for exposures and older rows
    answer_kind = models.CharField(max_length=8, blank=True, default="")
    # answers: P(correct) the memory model predicted just before it (srs.predict); None for
    # exposures and older rows. bench/srs_predict.py scores these predictions.
    predicted = models.FloatField(null=True, blank=True)
    source = models.CharField(max_length=8, choices=EventSource.choices)
    table_id = models.BigIntegerField(null=True, blank=True)
    move_id = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(db_index=True)

    objects = LearningEventQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["learner", "kind", "created_at"], name="event_learner_kind_at"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.kana_id}/{self.script} by {self.learner_id}"


class KanaMemory(models.Model):
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="kana_memories"
    )
    kana_id = models.CharField(max_length=4)
    script = models.CharField(max_length=8, choices=Script.choices)
    card = JSONField(default=dict)  # fsrs.Card.to_dict(); empty until the first review
    due = models.DateTimeField(null=True, blank=True, db_index=True)
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    reps = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)
    exposures = models.PositiveIntegerField(default=0)
    errors = models.PositiveIntegerField(default=0)
    last_review = models.DateTimeField(null=True, blank=True)
    # the last answer was right: the kana is asked by recall (typed or written) from then on,
    # by four buttons while new or failing (srs.recall_ready); None before any answer
    last_correct = models.BooleanField(null=True, blank=True)
    # when a lesson card first showed it (reading, sound, stroke order); None: never taught
    introduced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["learner", "kana_id", "script"], name="kanamemory_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kana_id}/{self.script} of {self.learner_id}"


class PromptKind(models.TextChoices):
    READING = "reading", _("Name the kana")  # glyph shown, pick its reading
    GLYPH = "glyph", _("Pick the glyph")  # reading shown, pick its glyph
    TYPED = "typed", _("Type the reading")  # glyph shown, type the romaji
    WRITE = "write", _("Write the kana")  # romaji shown, draw the glyph (learning.writing)
    # a card seen often: its clue shown (e.g. a poem's first half), pick the kana asked for
    # (e.g. the first kana of the second half) among glyphs; ``Prompt.card`` / ``detail`` say more
    CARD = "card", _("Recall a card")


class PromptStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("question status", "Open")
    ANSWERED = "answered", _("Answered")
    EXPIRED = "expired", _("Expired")


class Prompt(models.Model):
    """A recognition question. ``choices`` holds kana ids (the right one among them)."""

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="prompts"
    )
    source = models.CharField(max_length=8, choices=EventSource.choices)
    table_id = models.BigIntegerField(null=True, blank=True)
    move_id = models.BigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=8, choices=PromptKind.choices)
    kana_id = models.CharField(max_length=4)
    script = models.CharField(max_length=8, choices=Script.choices)
    choices = JSONField(default=list)
    status = models.CharField(max_length=8, choices=PromptStatus.choices, default=PromptStatus.OPEN)
    shown_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # when the board first displayed the prompt (prompts_pending): response time runs from here
    displayed_at = models.DateTimeField(null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answer = models.CharField(max_length=8, blank=True)
    correct = models.BooleanField(null=True, blank=True)
    # card prompts: the card asked about, and the engine's question as plain data
    # ({"engine", "ask", "clue", "solution"}); the solution is shown only once answered
    card = models.CharField(max_length=16, blank=True, default="")
    detail = JSONField(default=dict, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["learner", "status", "table_id"], name="prompt_learner_open"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.kana_id}/{self.script} for {self.learner_id}"


class CardSighting(models.Model):
    """How many times ``learner`` has seen ``card`` of ``engine`` turned face up in their own
    view of a game (counted by the learning hook, once per time the card newly shows)."""

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_sightings"
    )
    engine = models.CharField(max_length=32)
    card = models.CharField(max_length=16)
    seen = models.PositiveIntegerField(default=0)
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["learner", "engine", "card"], name="cardsighting_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.engine}/{self.card} seen {self.seen}x by {self.learner_id}"


class DailyGoalKind(models.TextChoices):
    MINUTES = "minutes", _("Minutes of practice")
    REVIEWS = "reviews", _("Kana reviews")


class LearnerSettings(models.Model):
    learner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="learner_settings"
    )
    syllabus = models.CharField(
        max_length=8, choices=SyllabusChoice.choices, default=SyllabusChoice.BOTH
    )
    goal_kind = models.CharField(
        max_length=8, choices=DailyGoalKind.choices, default=DailyGoalKind.REVIEWS
    )
    goal_value = models.PositiveSmallIntegerField(default=20)
    fsrs_parameters = JSONField(null=True, blank=True)  # None: library defaults
    parameters_fitted_at = models.DateTimeField(null=True, blank=True)
    parameters_note = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"settings of {self.learner_id}"


class DailySession(models.Model):
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_sessions"
    )
    day = models.DateField()
    started_at = models.DateTimeField()
    warmup_done_at = models.DateTimeField(null=True, blank=True)
    table_id = models.BigIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # the game before the warm-up today (``daily.daily_play_first``), decided when the day's
    # session is created and kept for the day
    play_first = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["learner", "day"], name="dailysession_unique_day"),
        ]

    def __str__(self) -> str:
        return f"daily {self.day} of {self.learner_id}"
