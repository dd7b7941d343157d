"""The Kazoku word-game board: your cards with their words, table cards, scored words, asks,
the words you can form (with where each card comes from) and the log in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.boards.common import (
    BoardInput,
    BoardPresenter,
    Said,
    names_hidden,
    sentence_html,
)
from games.boards.kazoku import KazokuSaid, kazoku_card, on_draw, on_give
from games.engines import action_key
from games.engines.base import competition_ranks
from games.engines.kazoku.deck import load_deck

HIRAGANA_TO_KATAKANA = {code: code + 0x60 for code in range(0x3041, 0x3097)}


def word_of(card_id: str, script: str) -> dict[str, Any] | None:
    """The word printed on a card, as the rules print it: in the card's script, with its romaji,
    its meaning in the interface language (none on a Japanese page: the word speaks for
    itself), its points and its hearts (how many words use the card's kana)."""
    base = card_id.split(".")[0]
    card = load_deck().cards.get(base)
    if card is None or "word" not in card.extra:
        return None
    word = card.extra["word"]
    lang = (get_language() or "en").split("-")[0]
    kana = word["kana"]
    if script == "katakana":
        kana = kana.translate(HIRAGANA_TO_KATAKANA)
    points, hearts = word["points"], word.get("hearts", 0)
    return {
        "kana": kana,
        "romaji": word["romaji"],
        "meaning": "" if lang == "ja" else word.get(lang) or word.get("en", ""),
        "points": points,
        "points_label": ngettext("%(n)s pt", "%(n)s pts", points) % {"n": points},
        "hearts": hearts,
        "hearts_label": HEARTS_LABELS[hearts](),
        "star": word["star"],
    }


HEARTS_LABELS = {  # the rules' key to the hearts at the bottom left of a word card
    0: lambda: _("no heart: 1 word uses this kana"),
    1: lambda: _("1 heart: 2 or 3 words use this kana"),
    2: lambda: _("2 hearts: 4 to 6 words use this kana"),
    3: lambda: _("3 hearts: 7 or more words use this kana"),
}


def word_gloss(word: Mapping[str, Any], romaji: str) -> str:
    """ "suika, watermelon" beside a word in a sentence: its romaji unless the table hides
    romaji, its meaning unless the page is in Japanese; empty when neither is shown."""
    parts = [word.get("romaji", "")] if romaji != "never" else []
    if word.get("meaning"):
        parts.append(word["meaning"])
    return ", ".join(parts)


# --- the log in sentences: one function per event type ----------------------------------------
# "you" gets sentences of its own (see the families board).


def _on_start(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("The game starts: you play first.")
    return sentence_html(
        _("The game starts: %(name)s plays first."), {"name": say.who(event["seat"])}
    )


def _on_ask(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return sentence_html(
            _("You asked everyone for %(card)s."), {"card": say.card(event["kana"])}
        )
    return sentence_html(
        _("%(name)s asked everyone for %(card)s."),
        {
            "name": say.name(event["seat"]),
            "card": say.card(event["kana"]),
        },
    )


def _on_no_card(event: Mapping[str, Any], say: Said) -> str | None:
    return sentence_html(
        _("Nobody has %(card)s: back to the pile."), {"card": say.card(event["kana"])}
    )


def _on_good_pick(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return sentence_html(
            _("Bonne pioche ! You drew the kana you asked for: %(card)s."),
            {"card": say.card(event["card"])},
        )
    return sentence_html(
        _("Bonne pioche ! %(name)s drew the kana asked for: %(card)s."),
        {
            "name": say.name(event["seat"]),
            "card": say.card(event["card"]),
        },
    )


def _on_form(event: Mapping[str, Any], say: Said) -> str | None:
    shown = kazoku_card(event["word"], say.view, say.romaji)
    word = word_of(event["word"], shown.get("script", "hiragana")) or {}
    values = {
        "name": say.name(event["seat"]),
        "word": format_html('<span lang="ja">{}</span>', word.get("kana", "")),
        "romaji": f" ({gloss})" if (gloss := word_gloss(word, say.romaji)) else "",
        "points": ngettext("%(n)s point", "%(n)s points", event.get("points", 0))
        % {"n": event.get("points", 0)},
    }
    if say.is_me(event["seat"]):
        text = sentence_html(_("You formed %(word)s%(romaji)s: %(points)s."), values)
    else:
        text = sentence_html(_("%(name)s formed %(word)s%(romaji)s: %(points)s."), values)
    for victim, stolen in event.get("steal", ()):
        if say.is_me(victim):
            taken = sentence_html(_("%(card)s was taken from you."), {"card": say.card(stolen)})
        else:
            taken = sentence_html(
                _("%(card)s was taken from %(name)s."),
                {
                    "card": say.card(stolen),
                    "name": say.who(victim),
                },
            )
        # joined by the language's own spacing (none in Japanese)
        text = sentence_html(
            pgettext("two sentences in a row", "%(first)s %(second)s"),
            {
                "first": text,
                "second": taken,
            },
        )
    return text


def _on_table(event: Mapping[str, Any], say: Said) -> str | None:
    cards = mark_safe(", ".join(say.card(c) for c in event.get("cards", ())))  # noqa: S308
    return sentence_html(_("New table cards: %(cards)s."), {"cards": cards})


def _on_joker_back(event: Mapping[str, Any], say: Said) -> str | None:
    return ngettext(
        "%(n)s joker went back into the pile.",
        "%(n)s jokers went back into the pile.",
        event["count"],
    ) % {"n": event["count"]}


def _on_pass(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("You passed.")
    return sentence_html(_("%(name)s passed."), {"name": say.name(event["seat"])})


def _on_last_words(event: Mapping[str, Any], say: Said) -> str | None:
    return _("The pile is empty: everyone may form one last word.")


SENTENCES = {
    "start": _on_start,
    "ask": _on_ask,
    "no_card": _on_no_card,
    "give": on_give,
    "draw": on_draw,
    "good_pick": _on_good_pick,
    "form": _on_form,
    "table": _on_table,
    "joker_back": _on_joker_back,
    "pass": _on_pass,
    "last_words": _on_last_words,
}


class KazokuWordsBoard(BoardPresenter):
    template = "games/boards/kazoku_words.html"
    stylesheets = ("css/kazoku.css",)
    said = KazokuSaid
    LOG_LINES = 14

    def board_data(self, board: BoardInput) -> dict[str, Any]:
        view, romaji = board.view, board.romaji

        def card(card_id: str, with_word: bool = True) -> dict[str, Any]:
            shown = kazoku_card(card_id, view, romaji)
            if with_word and not shown["joker"]:
                word = shown["word"] = word_of(card_id, shown["script"])
                if word is not None:  # no listen button speaking a kana being asked about
                    word["say"] = "" if names_hidden(romaji, word["kana"]) else word["kana"]
            return shown

        seats = board.seats(
            lambda player: {
                "hand_size": view["hand_sizes"][player.index],
                "known": [card(c, with_word=False) for c in view["known"][player.index]],
                "scored": [card(c) for c in view["scored"][player.index]],
                "score": view["scores"][player.index],
            }
        )
        asks, forms, others = self._actions(board, card)
        over = view.get("phase") == "over"
        return {
            "seats": seats,
            "hand": [card(c) for c in view["hand"]] if view.get("hand") is not None else None,
            "table": [card(c) for c in view.get("table", [])],
            "pile_size": view["pile_count"],
            "turn": None if over else (view.get("to_act") or [None])[0],
            "phase": view.get("phase"),
            "target": view["options"]["target_points"],
            "end": view["options"]["end"],
            "round": view["turns"] // max(1, view["players"]) + 1,
            "max_rounds": view.get("max_turns", 0) // max(1, view["players"]),
            "asks": asks,
            "forms": forms,
            "others": others,
            "over": over,
            "ended_by": view.get("ended_by"),
        }

    def board_outcome(self, board: BoardInput) -> Mapping[str, Any] | None:
        """The scores ranked once the game is over (the view has no ``outcome``)."""
        view = board.view
        if view.get("phase") != "over":
            return None
        return {"scores": view["scores"], "ranks": competition_ranks(view["scores"])}

    def _actions(self, board: BoardInput, card) -> tuple[list, list, list]:
        """The buttons: asks (a kana each), the words that can be formed, draw and pass."""
        asks, forms, others = [], [], []
        for action in board.legal:
            key = action_key(action)
            if action["type"] == "ask":
                # an ask names a kana, not a card: no card id reaches the page
                shown = {**card(action["kana"], with_word=False), "id": ""}
                label = _("Ask everyone for %(card)s") % {"card": shown["label"]}
                asks.append({"key": key, "card": shown, "label": label})
            elif action["type"] == "form":
                forms.append(self._form(action, key, card, board.players, board.romaji))
            elif action["type"] == "draw":
                others.append({"key": key, "label": _("Draw a card")})
            elif action["type"] == "pass":
                phase = board.view.get("phase")
                label = _("Pass") if phase != "after_ask" else _("End my turn")
                others.append({"key": key, "label": label})
        return asks, forms, others

    def _form(self, action, key, card, players, romaji) -> dict[str, Any]:
        word_card = card(action["word"])
        stolen = {c: victim for victim, c in action.get("steal", [])}
        parts = []
        for card_id in action["cards"]:
            shown = card(card_id, with_word=False)
            if card_id == action.get("joker"):
                source = _("joker")
            elif card_id in stolen:
                source = _("taken from %(name)s") % {"name": players[stolen[card_id]].name}
            elif card_id in action.get("table", []):
                source = _("table")
            else:
                source = _("hand")
            parts.append({"card": shown, "source": source})
        word = word_card.get("word") or {}
        label = _("Form %(word)s (%(romaji)s%(points)s) with %(parts)s") % {
            "word": word.get("kana", ""),
            "romaji": f"{gloss}, " if (gloss := word_gloss(word, romaji)) else "",
            "points": ngettext("%(n)s point", "%(n)s points", word.get("points", 0))
            % {"n": word.get("points", 0)},
            "parts": ", ".join(
                p["source"] if p["card"].get("joker") else f"{p['card']['label']} ({p['source']})"
                for p in parts
            ),
        }
        return {"key": key, "word": word_card, "parts": parts, "label": label}

    SENTENCES = SENTENCES

    def unknown_sentence(self, event: Mapping[str, Any]) -> str | None:
        return None  # events that say nothing (turn changes) are left out of the log


PRESENTER = KazokuWordsBoard()
