from django.db import models

# The scripts are the vocabulary of classes too, so they are defined at the bottom of the
# layers, with the class (kanagame/classes/choices.py), and reused here.
from kanagame.classes.choices import Script

__all__ = ["Kana", "Script"]


class Kana(models.Model):
    """One glyph of the catalog (fixtures/kana.json, loaded by a data migration).

    `kana_id` is the stable id shared by both scripts: the Hepburn romaji as the rules write
    it (shi, chi, tsu, fu, n), except ぢ/づ whose Hepburn (ji, zu) collides with じ/ず: their
    ids are "di"/"du" while `romaji` stays the Hepburn reading (see docs/architecture.md).
    """

    kana_id = models.CharField(max_length=4)
    script = models.CharField(max_length=8, choices=Script.choices)
    glyph = models.CharField(max_length=2)
    romaji = models.CharField(max_length=4)
    row = models.CharField(max_length=2)  # a, ka, sa, ..., wa, n, ga, za, da, ba, pa
    column = models.CharField(max_length=1)  # a, i, u, e, o, n
    voicing = models.CharField(max_length=10, default="plain")  # plain, dakuten, handakuten
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["script", "order"]
        constraints = [
            models.UniqueConstraint(fields=["kana_id", "script"], name="kana_unique_id_script"),
            models.UniqueConstraint(fields=["glyph"], name="kana_unique_glyph"),
        ]

    def __str__(self) -> str:
        return f"{self.glyph} ({self.romaji})"
