"""The Bōzu Mekuri board: the card just revealed (poet, poem, read aloud), the pile with the
Semimaru warning, every player's cards, draw / stop, and the log in sentences.

Everything comes from the seat's view; poets' names and poems come from the engine's data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.boards.common import (
    BoardInput,
    BoardPresenter,
    Player,
    Said,
    names_hidden,
    sentence_html,
)
from games.engines.bozu import load_poets

CATEGORY_LABELS = {
    "noble": gettext_lazy("noble"),
    "lady": gettext_lazy("lady"),
    "monk": gettext_lazy("monk"),
    "semimaru": gettext_lazy("Semimaru, the hooded poet"),
}
EFFECT_LABELS = {
    "noble": gettext_lazy("A noble: the card stays before you."),
    "monk": gettext_lazy("A monk: the hand goes to the common pile."),
    "lady": gettext_lazy("A lady: she takes the common pile."),
    "emperor": gettext_lazy("An emperor: keep him and draw one more, or stop."),
    "empress": gettext_lazy("Empress Jitō: she takes the common pile; draw one more, or stop."),
    "take_hands": gettext_lazy("An emperor: he takes every player's hand."),
    "eliminate": gettext_lazy("Semimaru: eliminated!"),
    "skip": gettext_lazy("Semimaru: the next turn is skipped."),
    "all_hands": gettext_lazy("Semimaru: every hand goes to the common pile."),
}
# the same effects said of another player's card (the ones above speak to "you")
THEIR_EFFECT_LABELS = {
    **EFFECT_LABELS,
    "noble": gettext_lazy("A noble: the card stays with them."),
    "emperor": gettext_lazy(
        "An emperor: the card stays with them; they may draw one more or stop."
    ),
    "empress": gettext_lazy(
        "Empress Jitō: she takes the common pile; they may draw one more or stop."
    ),
}


def effect_label(effect: str, mine: bool) -> str:
    return str((EFFECT_LABELS if mine else THEIR_EFFECT_LABELS)[effect])


def poet_card(card_id: str, *, romaji: str, spelling: str = "modern") -> dict[str, Any]:
    """A poet card as the templates draw it: names, class, the poem's first half in kana."""
    poet = load_poets().cards[card_id]
    category = "emperor" if poet.emperor else poet.category
    label = str(CATEGORY_LABELS[poet.category])
    if poet.emperor:
        label = _("emperor") if poet.category == "noble" else _("empress (also a lady)")
    upper = poet.upper_kana if spelling == "historical" else poet.upper_yomi
    return {
        "id": card_id,
        "number": poet.number,
        "name": poet.name,
        "kana": poet.kana,
        "romaji": poet.romaji,
        "mode": romaji,
        "category": category,
        "category_label": label,
        "upper": upper,
        # read aloud as pronounced today (the `_yomi` text), whatever spelling is shown
        # no reading aloud while a question is open about one of its kana (it would answer)
        "speak": ""
        if names_hidden(romaji, poet.kana + poet.upper_yomi)
        else f"{poet.kana}。{poet.upper_yomi.replace(' ', '、')}",
        "alt": f"{poet.kana} ({poet.romaji}), {label}" if romaji != "never" else poet.kana,
    }


def _name_html(card: Mapping[str, Any]) -> SafeString:
    """The poet's name inside a sentence, its kana marked as Japanese for screen readers."""
    if card["mode"] == "never":
        return format_html('<span lang="ja">{}</span>', card["kana"])
    return format_html('<span lang="ja">{}</span> ({})', card["kana"], card["romaji"])


class PoetSaid(Said):
    """``Said`` whose cards are poets ("you" has sentences of its own in every language)."""

    def card(self, card_id: str) -> SafeString:
        return _name_html(poet_card(card_id, romaji=self.romaji))


def _on_reveal(event: Mapping[str, Any], say: Said) -> SafeString:
    values = {
        "name": say.name(event["seat"]),
        "card": say.card(event["card"]),
        "effect": effect_label(event["effect"], say.is_me(event["seat"])),
    }
    if say.is_me(event["seat"]):
        return sentence_html(_("You turned over %(card)s. %(effect)s"), values)
    return sentence_html(_("%(name)s turned over %(card)s. %(effect)s"), values)


def _on_stop(event: Mapping[str, Any], say: Said) -> str:
    if say.is_me(event["seat"]):
        return _("You stopped.")
    return sentence_html(_("%(name)s stopped."), {"name": say.name(event["seat"])})


def _on_extra_draw(event: Mapping[str, Any], say: Said) -> str:
    if say.is_me(event["seat"]):
        return _("You may draw one more card.")
    return sentence_html(_("%(name)s may draw one more card."), {"name": say.name(event["seat"])})


def _on_skipped(event: Mapping[str, Any], say: Said) -> str:
    if say.is_me(event["seat"]):
        return _("Your turn is skipped.")
    return sentence_html(_("%(name)s's turn is skipped."), {"name": say.name(event["seat"])})


def _on_game_over(event: Mapping[str, Any], say: Said) -> str:
    if event["reason"] == "last_standing":
        return _("Only one player is left: the game is over.")
    return _("The pile is empty: the game is over.")


SENTENCES: dict[str, Callable[[Mapping[str, Any], Said], str]] = {
    "reveal": _on_reveal,
    "stop": _on_stop,
    "extra_draw": _on_extra_draw,
    "skipped": _on_skipped,
    "game_over": _on_game_over,
}


class BozuBoard(BoardPresenter):
    template = "games/boards/bozu.html"
    stylesheets = ("css/bozu.css",)
    scripts = ("js/bozu-speech.js",)  # the "Read it aloud" buttons
    LOG_LINES = 14

    def board_data(self, board: BoardInput) -> dict[str, Any]:
        view = board.view
        spelling = (view.get("options") or {}).get("spelling", "modern")

        def card(card_id: str) -> dict[str, Any]:
            return poet_card(card_id, romaji=board.romaji, spelling=spelling)

        seats = board.seats(
            lambda player: {
                "hand_size": view["hand_sizes"][player.index],
                "cards": [card(c) for c in view["hands"][player.index]],
                "eliminated": view["eliminated"][player.index],
                "skips": view["skips"][player.index],
            }
        )
        last = next((e for e in reversed(view.get("log") or []) if e["type"] == "reveal"), None)
        revealed = None
        if last is not None:
            revealed = {
                **card(last["card"]),
                "effect": effect_label(last["effect"], last["seat"] == board.me),
            }
        actions = [
            {**button, "type": action["type"]}
            for button, action in zip(self.buttons(board), board.legal, strict=True)
        ]
        return {
            "seats": seats,
            "pile_size": view["pile_size"],
            "semimaru_warning": view["semimaru_warning"],
            "common": [card(c) for c in view["common"]],
            "common_size": len(view["common"]),
            "revealed": revealed,
            "extra": view["phase"] == "extra",
            "actions": actions,
            "turn": view.get("turn"),
            "over": view.get("over"),
        }

    def action_label(self, action: Mapping[str, Any], players: Sequence[Player]) -> str:
        if action["type"] == "stop":
            return _("Stop here")
        return _("Turn over the top card")

    def board_ranking(self, board: BoardInput) -> list:
        """Cards kept, best first; an eliminated player's row says so."""
        outcome = board.view.get("outcome")
        if not outcome:
            return []
        rows = [
            {
                "rank": outcome["ranks"][p.index],
                "score": outcome["cards"][p.index],
                "player": p,
                "note": _("eliminated") if outcome["eliminated"][p.index] else "",
            }
            for p in board.players
        ]
        return sorted(rows, key=lambda row: (row["rank"], row["player"].index))

    SENTENCES = SENTENCES

    def sentence(
        self,
        event: Mapping[str, Any],
        players: Sequence[Player],
        view: Mapping[str, Any] | None = None,
        romaji: str = "always",
    ) -> str | None:
        """``SENTENCES[event type](event, say)`` with poets as the cards; other events say
        nothing."""
        line = self.SENTENCES.get(event.get("type", ""))
        return (
            line(event, PoetSaid(players=players, view=view or {}, romaji=romaji)) if line else None
        )


PRESENTER = BozuBoard()
