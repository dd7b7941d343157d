"""What the two Kazoku boards share: the card as the templates draw it (glyph in the script
the view gives), its name inside a sentence, and the sentences of a card handed over and of a
card drawn (the families' "given" and the words' "give", "draw" in both)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.boards.common import Said, card_html, sentence_html
from games.engines.kazoku.deck import load_deck
from games.escaping import conditional_escape


def kazoku_card(card_id: str, view: Mapping[str, Any], romaji: str) -> dict[str, Any]:
    """A Kazoku card as the templates draw it (glyph in the script the view gives)."""
    base = card_id.split(".")[0]
    if base.startswith("joker"):
        return {
            "id": card_id,
            "glyph": "★",
            "romaji": _("joker"),
            "joker": True,
            "mode": romaji,
            "label": _("joker"),
        }
    info = (view.get("kana") or {}).get(card_id) or (view.get("kana") or {}).get(base) or {}
    script = info.get("script") or _script_from_view(view, base)
    card = load_deck().cards.get(base)
    glyph = info.get("glyph") or (card.glyph(script) if card else base)
    return {
        "id": card_id,
        "glyph": glyph,
        "romaji": base.upper(),
        "script": script,
        "mode": romaji,
        "label": glyph if romaji == "never" else f"{glyph} ({base.upper()})",
        "joker": False,
    }


def give_sentence(*, giver: str, receiver: str, card: SafeString, mine: bool, to_me: bool):
    """A card given in the log, the same in every Kazoku game ("you" has its own sentences)."""
    values = {"giver": giver, "card": card, "receiver": receiver}
    if mine:
        return sentence_html(_("You gave %(card)s to %(receiver)s."), values)
    if to_me:
        return sentence_html(_("%(giver)s gave you %(card)s."), values)
    return sentence_html(_("%(giver)s gave %(card)s to %(receiver)s."), values)


def draw_sentence(*, mine: bool, name: str, card: SafeString | None) -> SafeString | str:
    """A draw in the log, the same in every Kazoku game: your own shows the card drawn."""
    if mine:
        if card is not None:
            return sentence_html(_("You drew %(card)s."), {"card": card})
        return _("You drew a card.")
    return sentence_html(_("%(name)s drew a card."), {"name": name})


def _script_from_view(view: Mapping[str, Any], base: str) -> str:
    """The script a card shows, from the view's per-card letters or its options."""
    letters = view.get("scripts")
    deck = load_deck()
    if isinstance(letters, str) and base in deck.cards and len(letters) == len(deck.ids):
        return "katakana" if letters[deck.ids.index(base)] == "k" else "hiragana"
    script = (view.get("options") or {}).get("script", "hiragana")
    return "katakana" if script == "katakana" else "hiragana"


@dataclass(frozen=True)
class KazokuSaid(Said):
    """``Said`` whose cards are Kazoku cards (glyph, romaji as the table's option says).

    A card whose kana an open question is about is "a card" in the log: "You asked CPU 2 for
    き" above "Which kana is “ki”?" would answer it (issue 27)."""

    # each card as ``kazoku_card`` draws it, built once for all the log's lines (an ask names
    # its card twice: ``card`` and ``card_hidden``; the answer names it again)
    drawn: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    def shown(self, card_id: str) -> dict[str, Any]:
        found = self.drawn.get(card_id)
        if found is None:
            found = self.drawn[card_id] = kazoku_card(card_id, self.view, self.romaji)
        return found

    def card(self, card_id: str) -> SafeString:
        shown = self.shown(card_id)
        if not shown["joker"] and self.hides(shown["glyph"]):
            return conditional_escape(_("a card"))
        return card_html(shown)

    def card_hidden(self, card_id: str) -> bool:
        """Whether the log names this card as "a card" (its kana is being asked)."""
        shown = self.shown(card_id)
        return not shown["joker"] and self.hides(shown["glyph"])


def on_give(event: Mapping[str, Any], say: Said) -> str | None:
    """``{"seat": giver, "to": receiver, "card": id}``: the families' "given", the words' "give"."""
    return give_sentence(
        giver=say.name(event["seat"]),
        receiver=say.who(event["to"]),
        card=say.card(event["card"]),
        mine=say.is_me(event["seat"]),
        to_me=say.is_me(event["to"]),
    )


def on_draw(event: Mapping[str, Any], say: Said) -> str | None:
    """``{"seat": s}`` (the card only in the drawer's own copy of the event)."""
    return draw_sentence(
        mine=say.is_me(event["seat"]),
        name=say.name(event["seat"]),
        card=say.card(event["card"]) if "card" in event else None,
    )
