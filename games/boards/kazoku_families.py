"""The Kazoku families board: hand grouped by family, asks per opponent, the log in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.boards.common import (
    BoardInput,
    BoardPresenter,
    Player,
    Said,
    names_hidden,
    sentence_html,
)
from games.boards.kazoku import KazokuSaid, kazoku_card, on_draw, on_give
from games.engines import action_key
from games.engines.kazoku.deck import family_name, load_deck


def family_label(variant: str, family_id: str) -> str:
    """The family's name in the page's language (kana rows and columns read as KA, A...)."""
    return _family_label(variant, family_id, (get_language() or "en").split("-")[0])


def _family_label(variant: str, family_id: str, lang: str) -> str:
    """``deck.family_name``: kana rows and columns read as KA, A (か行, あ段), families holding
    other kana are named by what they hold, themes in Japanese as 「…」の家族."""
    return family_name(variant, family_id, lang)


MASKED_FAMILY = "？"  # a kana family whose kana a question is about: no name at all


def family_shown(
    variant: str, family_id: str, lang: str, view: Mapping[str, Any], romaji: str
) -> str:
    """A family's name as this board may show it. With romaji shown: ``family_label``. With
    romaji hidden, a kana row or column is named by its kana, never by its reading ("NA"
    beside な would answer "How do you read this kana?"): か行 / あ段 in Japanese, か / あ
    (in the cards' script) elsewhere; and while a question is open about one of its kana it
    has no name at all ("SA" — or さ — beside シ rules out tsu and ji). Themes keep theirs."""
    if variant == "themed" or romaji != "never":
        return _family_label(variant, family_id, lang)
    deck = load_deck()
    family = deck.family(variant, family_id)
    glyphs = [kazoku_card(c, view, romaji)["glyph"] for c in family.cards]
    if names_hidden(romaji, "".join(glyphs)):
        return MASKED_FAMILY
    if lang == "ja":
        return _family_label(variant, family_id, lang)
    in_line = "row" if variant == "kana" else "column"
    outside = [c for c in family.cards if getattr(deck.cards[c], in_line) != family.id]
    head = kazoku_card(family.id, view, romaji)["glyph"]
    if variant == "kana" and outside:
        return "·".join(glyphs)
    return head + "".join(f"·{kazoku_card(c, view, romaji)['glyph']}" for c in outside)


# --- the log in sentences: one function per event type ----------------------------------------
# "you" gets sentences of its own: French and Japanese do not build them by putting "vous" /
# "あなた" in a third person's place.


def _family_said(say: Said, family_id: str) -> str:
    variant = say.view.get("variant", "themed")
    return family_shown(variant, family_id, say.lang, say.view, say.romaji)


def _on_ask(event: Mapping[str, Any], say: Said) -> str | None:
    values = {
        "asker": say.name(event["seat"]),
        "target": say.who(event["target"]),
        "card": say.card(event["card"]),
        "family": _family_said(say, event["family"]),
    }
    if isinstance(say, KazokuSaid) and say.card_hidden(event["card"]):
        # the card asked for is being asked about: neither it nor its family is named
        if say.is_me(event["seat"]):
            return sentence_html(_("You asked %(target)s for a card."), values)
        if say.is_me(event["target"]):
            return sentence_html(_("%(asker)s asked you for a card."), values)
        return sentence_html(_("%(asker)s asked %(target)s for a card."), values)
    if say.is_me(event["seat"]):
        return sentence_html(
            _("You asked %(target)s for %(card)s of the %(family)s family."), values
        )
    if say.is_me(event["target"]):
        return sentence_html(
            _("%(asker)s asked you for %(card)s of the %(family)s family."), values
        )
    return sentence_html(
        _("%(asker)s asked %(target)s for %(card)s of the %(family)s family."), values
    )


def _on_go_fish(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("You do not have it: go fish!")
    return sentence_html(
        _("%(name)s does not have it: go fish!"), {"name": say.name(event["seat"])}
    )


def _on_good_pick(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return sentence_html(
            _("Bonne pioche ! You drew the card you asked for: %(card)s."),
            {"card": say.card(event["card"])},
        )
    return sentence_html(
        _("Bonne pioche ! %(name)s drew the card asked for: %(card)s."),
        {
            "name": say.name(event["seat"]),
            "card": say.card(event["card"]),
        },
    )


def _on_family_laid(event: Mapping[str, Any], say: Said) -> str | None:
    family = _family_said(say, event["family"])
    if family == MASKED_FAMILY:
        if say.is_me(event["seat"]):
            return _("You laid a family.")
        return sentence_html(_("%(name)s laid a family."), {"name": say.name(event["seat"])})
    if say.is_me(event["seat"]):
        return sentence_html(_("You laid the %(family)s family."), {"family": family})
    return sentence_html(
        _("%(name)s laid the %(family)s family."),
        {
            "name": say.name(event["seat"]),
            "family": family,
        },
    )


def _on_skip(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("You have no cards and the pile is empty: turn skipped.")
    return sentence_html(
        _("%(name)s has no cards and the pile is empty: turn skipped."),
        {"name": say.name(event["seat"])},
    )


def _on_pass(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("The pile is empty: you cannot draw.")
    return sentence_html(
        _("The pile is empty: %(name)s cannot draw."), {"name": say.who(event["seat"])}
    )


def _on_game_over(event: Mapping[str, Any], say: Said) -> str | None:
    return _("The game is over.")


SENTENCES = {
    "ask": _on_ask,
    "given": on_give,
    "go_fish": _on_go_fish,
    "draw": on_draw,
    "good_pick": _on_good_pick,
    "family_laid": _on_family_laid,
    "skip": _on_skip,
    "pass": _on_pass,
    "game_over": _on_game_over,
}


class KazokuFamiliesBoard(BoardPresenter):
    template = "games/boards/kazoku_families.html"
    said = KazokuSaid
    LOG_LINES = 14

    def board_data(self, board: BoardInput) -> dict[str, Any]:
        view, romaji = board.view, board.romaji
        variant = view["variant"]
        deck = load_deck()
        lang = board.lang
        drawn: dict[str, dict[str, Any]] = {}  # one dict per card: read-only in templates

        def card(card_id: str) -> dict[str, Any]:
            found = drawn.get(card_id)
            if found is None:
                found = drawn[card_id] = kazoku_card(card_id, view, romaji)
            return found

        def family_of(family_id: str) -> str:
            return family_shown(variant, family_id, lang, view, romaji)

        hand_groups = self._hand_groups(view, deck, variant, card, family_of)
        seats = self._seats(board, card, family_of)
        pile = view["pile_size"]
        lay, asks = self._actions(board, deck, variant, card, family_of)
        return {
            "variant": variant,
            "hand_groups": hand_groups,
            "seats": seats,
            "pile_size": view["pile_size"],
            "pile_label": ngettext("Pile: %(n)s card", "Pile: %(n)s cards", pile) % {"n": pile},
            "turn": view.get("turn"),
            "lay": lay,
            "asks": asks,
            "over": view.get("over"),
        }

    @staticmethod
    def _actions(board, deck, variant, card, family_of) -> tuple[dict | None, list[dict]]:
        """The "lay" button and the asks, one group per opponent."""
        # translated once per board, not once per card or button (~50 of them)
        ask_legend = _("Ask %(name)s for…")
        ask_label = _("Ask %(name)s for %(card)s of the %(family)s family")
        lay, asks = None, {}
        for action in board.legal:
            if action["type"] == "lay":
                lay = {"key": action_key(action), "label": _("Lay your complete family")}
            elif action["type"] == "ask":
                target = board.players[action["target"]]
                c = card(action["card"])
                family = family_of(deck.family_of[variant][action["card"]])
                if action["target"] not in asks:
                    legend = ask_legend % {"name": target.name}
                    asks[action["target"]] = {"player": target, "legend": legend, "options": []}
                asks[action["target"]]["options"].append(
                    {
                        "key": action_key(action),
                        "card": c,
                        "family": family,
                        "label": ask_label
                        % {"name": target.name, "card": c["label"], "family": family},
                    }
                )
        return lay, [asks[index] for index in sorted(asks)]

    @staticmethod
    def _hand_groups(view, deck, variant, card, family_of) -> list[dict[str, Any]]:
        """The player's hand by family: its cards, how many held of the family's size."""
        hand_groups = []
        if view.get("hand") is not None:
            held: dict[str, list[str]] = {}
            for card_id in view["hand"]:
                held.setdefault(deck.family_of[variant][card_id], []).append(card_id)
            for family_id, cards in held.items():
                members = deck.family(variant, family_id).cards
                hand_groups.append(
                    {
                        "family": family_of(family_id),
                        "cards": [card(c) for c in cards],
                        "held": len(cards),
                        "size": len(members),
                    }
                )
        return hand_groups

    @staticmethod
    def _seats(board, card, family_of) -> list[dict[str, Any]]:
        """Each player's seat: hand size, score, the families laid."""
        view = board.view

        def row(player: Player) -> dict[str, Any]:
            score = view["scores"][player.index]
            return {
                "hand_size": view["hand_sizes"][player.index],
                "score": score,
                # plurals here, not in the template: a blocktranslate per seat costs more
                "score_label": ngettext("%(n)s family", "%(n)s families", score) % {"n": score},
                "laid": [
                    {
                        "family": family_of(item["family"]),
                        "cards": [card(c) for c in item["cards"]],
                    }
                    for item in view["laid"][player.index]
                ],
            }

        return board.seats(row)

    SENTENCES = SENTENCES

    def unknown_sentence(self, event: Mapping[str, Any]) -> str | None:
        return None  # events that say nothing (turn changes) are left out of the log


PRESENTER = KazokuFamiliesBoard()
