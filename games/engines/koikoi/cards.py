"""The 48 hanafuda cards, loaded once from ``hanafuda.json`` (copied from ``shared/data``,
sources in ``hanafuda.SOURCES.md`` beside it).

Card ids are the file's ``id`` slugs (``matsu-tsuru``, ``kiku-sakazuki``...). Each card also
gets a bit (``1 << index``): a set of cards is an ``int`` mask, which is how the yaku judge
and the engine count cards quickly (``index.py``-style speed-ups without a separate module:
the masks are the whole trick).

Plant names in kana are the learning content of this game: ``PLANT_KANA_IDS`` maps each
month's plant to the kana ids (Hepburn romaji, as in ``fixtures/kana.json``) of its name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

DATA_PATH = Path(__file__).resolve().parent / "hanafuda.json"
KINDS = ("bright", "animal", "ribbon", "chaff")

# Kana of each plant name (hanafuda.json's plant.kana) as kana ids of fixtures/kana.json.
PLANT_KANA_IDS: dict[str, tuple[str, ...]] = {
    "まつ": ("ma", "tsu"),
    "うめ": ("u", "me"),
    "さくら": ("sa", "ku", "ra"),
    "ふじ": ("fu", "ji"),
    "あやめ": ("a", "ya", "me"),
    "ぼたん": ("bo", "ta", "n"),
    "はぎ": ("ha", "gi"),
    "すすき": ("su", "su", "ki"),
    "きく": ("ki", "ku"),
    "もみじ": ("mo", "mi", "ji"),
    "やなぎ": ("ya", "na", "gi"),
    "きり": ("ki", "ri"),
}


@dataclass(frozen=True)
class Card:
    id: str
    index: int
    month: int
    kind: str
    plant_kana: str
    plant_romaji: str
    plant_kanji: str
    plant_en: str
    name_ja: str
    name_kana: str
    name_romaji: str
    name_en: str
    ribbon_type: str | None  # "poetry" | "blue" | "plain" | None
    ribbon_text: str | None  # the poem on the ribbon (あかよろし, みよしの) where it has one
    flags: frozenset[str]
    bit: int


@dataclass(frozen=True)
class Deck:
    cards: MappingProxyType  # id -> Card
    ids: tuple[str, ...]  # deck order (index 0..47)
    by_month: tuple[tuple[str, ...], ...]  # by_month[m] = the 4 ids of month m (1..12); [0] = ()
    month_of: MappingProxyType  # id -> month
    bit: MappingProxyType  # id -> 1 << index
    month_mask: tuple[int, ...]  # month -> mask of its 4 cards; [0] = 0
    order: MappingProxyType  # id -> index

    def mask(self, ids: Any) -> int:
        bit = self.bit
        return sum(bit[card] for card in ids)

    def ids_of(self, mask: int) -> list[str]:
        return [card for card in self.ids if mask & self.bit[card]]

    def with_flag(self, flag: str) -> str:
        (card,) = [c.id for c in self.cards.values() if flag in c.flags]
        return card


def _build(raw: list[dict]) -> Deck:
    cards = {}
    for entry in raw:
        ribbon = entry.get("ribbon") or {}
        cards[entry["id"]] = Card(
            id=entry["id"],
            index=entry["index"],
            month=entry["month"],
            kind=entry["kind"],
            plant_kana=entry["plant"]["kana"],
            plant_romaji=entry["plant"]["romaji"],
            plant_kanji=entry["plant"]["kanji"],
            plant_en=entry["plant"]["en"],
            name_ja=entry["name_ja"],
            name_kana=entry["name_kana"],
            name_romaji=entry["name_romaji"],
            name_en=entry["name_en"],
            ribbon_type=ribbon.get("type"),
            ribbon_text=ribbon.get("text"),
            flags=frozenset(flag for flag, on in entry["flags"].items() if on),
            bit=1 << entry["index"],
        )
    ids = tuple(sorted(cards, key=lambda card: cards[card].index))
    if [cards[c].index for c in ids] != list(range(48)):
        raise ValueError("hanafuda.json must list 48 cards indexed 0..47")
    by_month = [()] + [tuple(c for c in ids if cards[c].month == m) for m in range(1, 13)]
    if any(len(month) != 4 for month in by_month[1:]):
        raise ValueError("hanafuda.json must hold 4 cards per month")
    unknown = {cards[c].plant_kana for c in ids} - set(PLANT_KANA_IDS)
    if unknown:
        raise ValueError(f"plant names without kana ids: {sorted(unknown)}")
    return Deck(
        cards=MappingProxyType(cards),
        ids=ids,
        by_month=tuple(by_month),
        month_of=MappingProxyType({c: cards[c].month for c in ids}),
        bit=MappingProxyType({c: cards[c].bit for c in ids}),
        month_mask=tuple(sum(cards[c].bit for c in month) for month in by_month),
        order=MappingProxyType({c: cards[c].index for c in ids}),
    )


def load_deck() -> Deck:
    """The deck, read once per process (module import)."""
    return DECK


with DATA_PATH.open(encoding="utf-8") as _handle:
    DECK = _build(json.load(_handle))
del _handle
