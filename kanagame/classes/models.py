"""A teacher's classes and their students (memberships).

The tables keep the names they had in the learning app (``db_table``): the moves learning ->
classroom -> classes touched no row (docs/architecture.md, "The table's class link").
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from kanagame.classes.choices import Script, SyllabusChoice


class Classroom(models.Model):
    """A teacher's class. Students join with `join_code` (kanagame/classes/services.py)."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classrooms_taught"
    )
    name = models.CharField(_("name"), max_length=80)
    level = models.CharField(_("level"), max_length=40, blank=True)
    default_script = models.CharField(
        _("default script"), max_length=8, choices=Script.choices, default=Script.HIRAGANA
    )
    syllabus = models.CharField(
        _("scripts the class learns"),
        max_length=8,
        choices=SyllabusChoice.choices,
        default=SyllabusChoice.BOTH,
        help_text=_(
            "New kana are taught, and games recommended, in these scripts only. Assignments "
            "are played as you set them."
        ),
    )
    join_code = models.CharField(max_length=12, unique=True)
    is_open = models.BooleanField(_("open to new students"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "learning_classroom"  # the table predates the app: no row moved
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def join_code_display(self) -> str:
        """The code as printed for people: ``KMN-7RT`` (typed with or without the dash)."""
        if "-" in self.join_code:
            return self.join_code
        half = len(self.join_code) // 2
        return f"{self.join_code[:half]}-{self.join_code[half:]}"


class Membership(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="memberships")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "learning_membership"
        constraints = [
            models.UniqueConstraint(fields=["classroom", "student"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.student_id} in {self.classroom_id}"
