"""The 100 poet cards of the Ogura Hyakunin Isshu, from ``fixtures/hyakunin_isshu.json``.

A copy of ``shared/data/hyakunin_isshu.json`` (sources and checks in
``fixtures/hyakunin_isshu.SOURCES.md``), read once per process. Card id = the poem number on
three digits with a ``p``: ``"p001"`` (Tenji Tennō) .. ``"p100"`` (Juntoku-in); Semimaru is
``"p010"``.

Kana ids are those of the kana catalog (``fixtures/kana.json``: Hepburn romaji, ``"shi"``,
``"tsu"``, ``"n"``, ``"wo"``, ``"di"``). The catalog has no small kana: a small ゃ ゅ ょ っ
counts as its full-size kana (ya, yu, yo, tsu) — the same glyph, written smaller.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

DATA_PATH = Path(__file__).resolve().parents[3] / "fixtures" / "hyakunin_isshu.json"
CATEGORIES = ("noble", "lady", "monk", "semimaru")
SEMIMARU = "p010"

_ROWS = (
    ("あいうえお", ("a", "i", "u", "e", "o")),
    ("かきくけこ", ("ka", "ki", "ku", "ke", "ko")),
    ("さしすせそ", ("sa", "shi", "su", "se", "so")),
    ("たちつてと", ("ta", "chi", "tsu", "te", "to")),
    ("なにぬねの", ("na", "ni", "nu", "ne", "no")),
    ("はひふへほ", ("ha", "hi", "fu", "he", "ho")),
    ("まみむめも", ("ma", "mi", "mu", "me", "mo")),
    ("やゆよ", ("ya", "yu", "yo")),
    ("らりるれろ", ("ra", "ri", "ru", "re", "ro")),
    ("わをん", ("wa", "wo", "n")),
    ("がぎぐげご", ("ga", "gi", "gu", "ge", "go")),
    ("ざじずぜぞ", ("za", "ji", "zu", "ze", "zo")),
    ("だぢづでど", ("da", "di", "du", "de", "do")),
    ("ばびぶべぼ", ("ba", "bi", "bu", "be", "bo")),
    ("ぱぴぷぺぽ", ("pa", "pi", "pu", "pe", "po")),
    ("ゃゅょっ", ("ya", "yu", "yo", "tsu")),  # small kana: no catalog entry of their own
)
KANA_ID: MappingProxyType = MappingProxyType(
    {glyph: kana for glyphs, ids in _ROWS for glyph, kana in zip(glyphs, ids, strict=True)}
)


@dataclass(frozen=True)
class Poet:
    """One card: the poet (name in kanji, kana, romaji), the Bōzu Mekuri class, the poem."""

    id: str
    number: int
    name: str  # kanji
    kana: str  # modern hiragana reading of the name
    romaji: str
    category: str  # noble | lady | monk | semimaru
    emperor: bool
    nyudo: bool
    imperial_family: bool
    upper: str  # kami no ku, kanji and kana
    upper_kana: str  # historical spelling (as printed on cards)
    upper_yomi: str  # modern reading
    lower: str
    lower_kana: str
    lower_yomi: str

    @property
    def name_kana_ids(self) -> tuple[str, ...]:
        """The catalog kana of the name, each once, in reading order."""
        return tuple(dict.fromkeys(KANA_ID[c] for c in self.kana if c in KANA_ID))

    @property
    def lower_first(self) -> str:
        """The first kana of the second half (the karuta's decisive syllable), as printed."""
        return self.lower_kana[0]


@dataclass(frozen=True)
class Poets:
    ids: tuple[str, ...]  # p001..p100, poem order
    cards: MappingProxyType  # id -> Poet


def card_id(number: int) -> str:
    return f"p{number:03d}"


def _poet(row: dict[str, Any]) -> Poet:
    if row["category"] not in CATEGORIES:
        raise ValueError(f"poem {row['number']}: unknown category {row['category']!r}")
    return Poet(
        id=card_id(row["number"]),
        number=row["number"],
        name=row["poet"],
        kana=row["poet_kana"],
        romaji=row["poet_romaji"],
        category=row["category"],
        emperor=bool(row["emperor"]),
        nyudo=bool(row["nyudo"]),
        imperial_family=bool(row["imperial_family"]),
        upper=row["kami_no_ku"],
        upper_kana=row["kami_no_ku_kana"],
        upper_yomi=row["kami_no_ku_yomi"],
        lower=row["shimo_no_ku"],
        lower_kana=row["shimo_no_ku_kana"],
        lower_yomi=row["shimo_no_ku_yomi"],
    )


@lru_cache(maxsize=1)
def load_poets() -> Poets:
    """The 100 cards, read from the fixture once per process."""
    with DATA_PATH.open(encoding="utf-8") as handle:
        rows = json.load(handle)
    poets = [_poet(row) for row in sorted(rows, key=lambda row: row["number"])]
    if [p.number for p in poets] != list(range(1, 101)):
        raise ValueError("hyakunin_isshu.json must hold poems 1 to 100, each once")
    return Poets(ids=tuple(p.id for p in poets), cards=MappingProxyType({p.id: p for p in poets}))
