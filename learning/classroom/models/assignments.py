"""Assignments: what a teacher asks a class to play, by when, and how much.

A goal is counted from real play (see learning/classroom/selectors.py): finished games,
minutes at the table, or kana reviews (answers recorded as LearningEvent rows).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from kanagame.classes.models import Classroom
from kanagame.db.fields import JSONField

RECOMMENDED = "recommended"


class AssignmentScript(models.TextChoices):
    HIRAGANA = "hiragana", _("Hiragana")
    KATAKANA = "katakana", _("Katakana")
    MIXED = "mixed", _("Mixed")


class GoalKind(models.TextChoices):
    GAMES = "games", _("games finished")
    MINUTES = "minutes", _("minutes played")
    REVIEWS = "reviews", _("kana reviews")


class Assignment(models.Model):
    """A class's homework: a variant (or "recommended by the picker"), a script and a goal.

    `engine` is an engine name from games.engines.ENGINES, or "recommended" when the picker
    chooses for each student; `options` holds the engine and table options of the lobby's
    create-table form (empty when recommended).
    """

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    title = models.CharField(_("title"), max_length=120, blank=True)
    engine = models.CharField(_("game"), max_length=40, default=RECOMMENDED)
    options = JSONField(_("options"), default=dict, blank=True)
    script = models.CharField(
        _("script"),
        max_length=8,
        choices=AssignmentScript.choices,
        default=AssignmentScript.HIRAGANA,
    )
    due_at = models.DateTimeField(pgettext_lazy("date an assignment is due", "due"))
    goal_kind = models.CharField(
        _("goal"), max_length=10, choices=GoalKind.choices, default=GoalKind.GAMES
    )
    goal_value = models.PositiveIntegerField(_("goal amount"), default=3)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "learning_assignment"  # the table predates the classroom app
        ordering = ["due_at", "id"]
        indexes = [models.Index(fields=["classroom", "due_at"], name="assignment_class_due")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(goal_value__gte=1), name="assignment_goal_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.title or f"{self.engine} ({self.script})"

    @property
    def is_recommended(self) -> bool:
        return self.engine == RECOMMENDED


class AssignmentTable(models.Model):
    """The table a student opened for an assignment: the classroom's link to a games table.

    games.Table knows its class (a real foreign key down to kanagame.classes) but not the
    assignment, which sits above games; the classroom owns this row instead. Deleting the
    assignment or the table deletes the link, never the other side: the game is kept.
    """

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="assignment_link"
    )

    def __str__(self) -> str:
        return f"table {self.table_id} of assignment {self.assignment_id}"
