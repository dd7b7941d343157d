"""The scripts a class is set in: the vocabulary shared by classes and the learning app.

A class has a default script and a syllabus (the scripts its students learn), so the choices
live at the bottom of the layers, with the class; ``learning.models`` reuses them
(``Script`` for the kana catalogue and events, ``SyllabusChoice`` for a learner's own
setting). One definition, one set of translated labels.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Script(models.TextChoices):
    HIRAGANA = "hiragana", _("Hiragana")
    KATAKANA = "katakana", _("Katakana")


class SyllabusChoice(models.TextChoices):
    """The scripts a learner is taught (issue 27: both unless the learner or teacher chose)."""

    BOTH = "both", _("Hiragana and katakana")
    HIRAGANA = "hiragana", _("Hiragana only")
    KATAKANA = "katakana", _("Katakana only")
