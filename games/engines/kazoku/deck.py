"""The Kazoku deck, loaded from ``fixtures/kazoku_deck.json`` (the single source of truth).

45 cards, one per basic kana; card id = the kana's Hepburn romaji (``"shi"``, ``"tsu"``,
``"n"``). Each card carries its hiragana and katakana, its gojūon row and column, its themed
family and member. This module turns the file into plain immutable data:

- ``load_deck()`` -> ``KazokuDeck`` (cached: the file is read once per process);
- ``deck.families[variant]``: the families of ``themed`` / ``kana`` / ``gojuon``, in order;
- ``deck.family_of[variant][card_id]``: the family a card belongs to in that variant;
- ``glyph(card, script)`` and ``deal_scripts(...)``: which kana a card shows.

Scripts: ``hiragana``, ``katakana`` or ``mixed``. With ``mixed``, each card's script is drawn
once per game from the game's seeded RNG at the deal (see ``deal_scripts``) and kept in the
state, so every view of that game shows the same glyph for the same card.

Pure Python, no Django.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from games.engines.base import Option, gettext_noop

DECK_PATH = Path(__file__).resolve().parents[3] / "fixtures" / "kazoku_deck.json"
VARIANTS = ("themed", "kana", "gojuon")
SCRIPTS = ("hiragana", "katakana", "mixed")
CARD_SCRIPTS = ("hiragana", "katakana")
# The script option, the same for every Kazoku engine.
SCRIPT_OPTION = Option(
    "script",
    "choice",
    "hiragana",
    gettext_noop("Script"),
    choices=SCRIPTS,
    choice_labels=(
        gettext_noop("Hiragana"),
        gettext_noop("Katakana"),
        gettext_noop("Mixed (each card drawn at the deal)"),
    ),
)
# Who plays first, the same in every Kazoku game: the rules say the youngest player, whose seat
# the table chooses (``first``); or a random seat, drawn after the deal.
START_OPTION = Option(
    "start",
    "choice",
    "youngest",
    gettext_noop("Who plays first"),
    choices=("youngest", "random"),
    choice_labels=(
        gettext_noop("The youngest player (seat chosen at the table)"),
        gettext_noop("A random player"),
    ),
)
FIRST_OPTION = Option(
    "first", "int", 0, gettext_noop("Seat of the youngest player"), min=0, max=5, seat=True
)


def first_seat(options: Mapping[str, Any], players: int, rng: random.Random) -> int:
    """The seat that plays first in a dealt game (``START_OPTION``, ``FIRST_OPTION``)."""
    if options["start"] == "random":
        return rng.randrange(players)
    if options["first"] >= players:
        raise ValueError(f"option 'first' must be a seat between 0 and {players - 1}")
    return options["first"]


SCRIPT_OF_LETTER = {"h": "hiragana", "k": "katakana"}  # the letters of ``deal_scripts``
_CARD_FIELDS = ("id", "hiragana", "katakana", "row", "column", "theme", "member")


@dataclass(frozen=True)
class Card:
    id: str
    hiragana: str
    katakana: str
    row: str
    column: str
    theme: str
    member: str
    extra: Mapping[str, Any]  # any further field of the fixture (e.g. the word-game ``word``)

    def glyph(self, script: str) -> str:
        """The kana this card shows in ``script`` (``hiragana`` or ``katakana``)."""
        if script == "hiragana":
            return self.hiragana
        if script == "katakana":
            return self.katakana
        raise ValueError(f"a card shows hiragana or katakana, not {script!r}")


@dataclass(frozen=True)
class Family:
    id: str
    cards: tuple[str, ...]  # members in the order the rules list them
    labels: Mapping[str, str]  # {"en": ..., "fr": ..., "ja": ...} where known


@dataclass(frozen=True)
class KazokuDeck:
    ids: tuple[str, ...]  # the 45 card ids in fixture (gojūon) order
    cards: Mapping[str, Card]
    families: Mapping[str, tuple[Family, ...]]  # variant -> families
    family_of: Mapping[str, Mapping[str, str]]  # variant -> card id -> family id
    themes: tuple[Mapping[str, Any], ...]
    members: tuple[Mapping[str, Any], ...]

    def family(self, variant: str, family_id: str) -> Family:
        for family in self.families[variant]:
            if family.id == family_id:
                return family
        raise KeyError(f"no family {family_id!r} in variant {variant!r}")


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


def _build(data: Mapping[str, Any]) -> KazokuDeck:
    cards = {}
    for raw in data["cards"]:
        fields = {name: raw[name] for name in _CARD_FIELDS}
        extra = {key: value for key, value in raw.items() if key not in _CARD_FIELDS}
        cards[raw["id"]] = Card(**fields, extra=_frozen(extra))
    ids = tuple(cards)
    member_order = [member["id"] for member in data["members"]]
    themed = tuple(
        Family(
            id=theme["id"],
            cards=tuple(
                sorted(
                    (card.id for card in cards.values() if card.theme == theme["id"]),
                    key=lambda card_id: member_order.index(cards[card_id].member),
                )
            ),
            labels=_frozen({k: theme[k] for k in ("en", "fr", "ja") if k in theme}),
        )
        for theme in data["themes"]
    )
    families = {"themed": themed}
    for variant, key in (("kana", "kana_families"), ("gojuon", "gojuon_families")):
        families[variant] = tuple(
            Family(
                id=family["id"],
                cards=tuple(family["cards"]),
                labels=_frozen({"en": family["id"].upper(), "fr": family["id"].upper()}),
            )
            for family in data[key]
        )
    family_of = {}
    for variant, groups in families.items():
        owner = {card: family.id for family in groups for card in family.cards}
        if sorted(owner) != sorted(ids) or sum(len(f.cards) for f in groups) != len(ids):
            raise ValueError(f"{DECK_PATH.name}: {variant} families must partition the deck")
        family_of[variant] = _frozen(owner)
    return KazokuDeck(
        ids=ids,
        cards=_frozen(cards),
        families=_frozen(families),
        family_of=_frozen(family_of),
        themes=tuple(_frozen(theme) for theme in data["themes"]),
        members=tuple(_frozen(member) for member in data["members"]),
    )


@lru_cache(maxsize=1)
def load_deck() -> KazokuDeck:
    """The deck, read from the fixture once per process."""
    with DECK_PATH.open(encoding="utf-8") as handle:
        return _build(json.load(handle))


def glyph(card_id: str, script: str) -> str:
    """The kana card ``card_id`` shows in ``script`` (``hiragana`` or ``katakana``)."""
    return load_deck().cards[card_id].glyph(script)


def deal_scripts(script: str, rng: random.Random) -> str:
    """The script of every card for one game, as one letter per card in deck order.

    ``"h"`` = hiragana, ``"k"`` = katakana. ``hiragana`` / ``katakana`` make every card the
    same; ``mixed`` draws each card's script from ``rng`` (the game's seeded RNG, at the deal).
    """
    count = len(load_deck().ids)
    if script == "hiragana":
        return "h" * count
    if script == "katakana":
        return "k" * count
    if script == "mixed":
        return "".join(rng.choice("hk") for _ in range(count))
    raise ValueError(f"script must be one of {', '.join(SCRIPTS)}; got {script!r}")


def card_script(scripts: str, card_id: str) -> str:
    """``hiragana`` or ``katakana``: the script ``card_id`` shows (``scripts`` from the deal)."""
    return SCRIPT_OF_LETTER[scripts[load_deck().ids.index(card_id)]]


@lru_cache(maxsize=512)
def family_name(variant: str, family_id: str, lang: str) -> str:
    """A family's name for a reader of ``lang`` ("en", "fr", "ja"; others read English).

    Kana rows and columns read as KA, A (か行, あ段 in Japanese) only when the family is exactly
    that row or column: the row family YA holds わ and ん, the column O holds ん, so they are
    named by what they hold, in every language: YA·YU·YO·WA·N / や・ゆ・よ・わ・ん, O·N / お段・ん.
    A theme is 「りょうり」の家族 in Japanese: a bare 家 suffix would read as -ka, "expert"
    (りょうり家 = 料理家, a cook; いえ家 says "house" twice)."""
    deck = load_deck()
    family = deck.family(variant, family_id)
    if variant == "themed":
        label = family.labels.get(lang) or family.labels.get("en") or family_id
        return f"{label}の家族" if lang == "ja" else label
    in_line = "row" if variant == "kana" else "column"
    outside = [c for c in family.cards if getattr(deck.cards[c], in_line) != family.id]
    if lang == "ja":
        glyph = deck.cards[family.id].glyph("hiragana")
        if variant == "kana":
            if outside:
                return "・".join(deck.cards[c].glyph("hiragana") for c in family.cards)
            return f"{glyph}行"
        return f"{glyph}段" + "".join(f"・{deck.cards[c].glyph('hiragana')}" for c in outside)
    label = (family.labels.get(lang) or family.labels.get("en") or family_id).upper()
    if variant == "kana" and outside:
        return "·".join(c.upper() for c in family.cards)
    return label + "".join(f"·{c.upper()}" for c in outside)
