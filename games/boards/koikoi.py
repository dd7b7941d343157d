"""The Koi-Koi board: hanafuda cards drawn as cards, capture piles by kind, yaku formed and in
reach, the koi-koi / shōbu choice with its stakes, and the public log in sentences.

Receives only the viewer's view (``eng.view(state, seat)``); every card is drawn with its
month band AND a text label (plant name in kana, romaji per the table's ``romaji`` option,
kind, the ribbon's poem where it has one): colour is never the only signal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext_lazy

from games.boards.common import (
    BoardInput,
    BoardPresenter,
    Player,
    sentence_html,
)
from games.engines import action_key
from games.engines.koikoi.cards import DECK, KINDS
from games.engines.koikoi.yaku import YAKU_KANA, final_score, yaku_progress

KIND_LABELS = {
    "bright": gettext_noop("Bright"),
    "animal": gettext_noop("Animal"),
    "ribbon": gettext_noop("Ribbon"),
    "chaff": gettext_noop("Chaff"),
}
KIND_PLURALS = {
    "bright": gettext_noop("Brights"),
    "animal": gettext_noop("Animals"),
    "ribbon": gettext_noop("Ribbons"),
    "chaff": gettext_noop("Chaff"),
}
RIBBON_LABELS = {
    "poetry": gettext_noop("red poetry ribbon"),
    "blue": gettext_noop("blue ribbon"),
    "plain": gettext_noop("red ribbon"),
}
PLANT_NAMES = {
    1: gettext_noop("Pine"),
    2: gettext_noop("Plum blossom"),
    3: gettext_noop("Cherry blossom"),
    4: gettext_noop("Wisteria"),
    5: gettext_noop("Iris"),
    6: gettext_noop("Peony"),
    7: gettext_noop("Bush clover"),
    8: gettext_noop("Silver grass"),
    9: gettext_noop("Chrysanthemum"),
    10: gettext_noop("Maple"),
    11: gettext_noop("Willow"),
    12: gettext_noop("Paulownia"),
}
YAKU_NAMES = {
    "goko": gettext_noop("Five brights"),
    "shiko": gettext_noop("Four brights"),
    "ame_shiko": gettext_noop("Rainy four brights"),
    "sanko": gettext_noop("Three brights"),
    "hanami_zake": gettext_noop("Flower-viewing sake"),
    "tsukimi_zake": gettext_noop("Moon-viewing sake"),
    "inoshikacho": gettext_noop("Boar, deer and butterflies"),
    "akatan": gettext_noop("Red poetry ribbons"),
    "aotan": gettext_noop("Blue ribbons"),
    "akatan_aotan": gettext_noop("Red and blue ribbons"),
    "tane": gettext_noop("Animals"),
    "tan": pgettext_lazy("koi-koi yaku", "Ribbons"),  # タン, not the card kind 短冊
    "kasu": gettext_noop("Chaff"),
    "tsukifuda": gettext_noop("Cards of the month"),
    "teshi": gettext_noop("Four of a month in hand"),
    "kuttsuki": gettext_noop("Four pairs in hand"),
}
YAKU_ROMAJI = {
    "goko": "gokō", "shiko": "shikō", "ame_shiko": "ame-shikō", "sanko": "sankō",
    "hanami_zake": "hanami-zake", "tsukimi_zake": "tsukimi-zake", "inoshikacho": "inoshikachō",
    "akatan": "akatan", "aotan": "aotan", "akatan_aotan": "akatan-aotan", "tane": "tane",
    "tan": "tan", "kasu": "kasu", "tsukifuda": "tsukifuda", "teshi": "teshi",
    "kuttsuki": "kuttsuki",
}  # fmt: skip
YAKU_GROUP = {
    "goko": "brights", "shiko": "brights", "ame_shiko": "brights", "sanko": "brights",
    "inoshikacho": "animals", "tane": "animals", "akatan_aotan": "ribbons", "akatan": "ribbons",
    "aotan": "ribbons", "tan": "ribbons",
}  # fmt: skip


def hanafuda_card(card_id: str, romaji: str) -> dict[str, Any]:
    """A card as the template draws it, with its full text alternative."""
    card = DECK.cards[card_id]
    kind = _(KIND_LABELS[card.kind])
    ribbon = _(RIBBON_LABELS[card.ribbon_type]) if card.ribbon_type else ""
    reading = card.plant_kana if romaji == "never" else f"{card.plant_kana} ({card.plant_romaji})"
    details = [kind]
    if ribbon:
        details.append(ribbon)
    if card.ribbon_text:
        details.append(f"「{card.ribbon_text}」")
    label = _("%(reading)s, %(month)s: %(details)s, %(name)s") % {
        "reading": reading,
        "month": _("month %(n)s") % {"n": card.month},
        "details": ", ".join(details),
        "name": card.name_ja,
    }
    return {
        "id": card_id,
        "month": card.month,
        "kind": card.kind,
        "kind_label": kind,
        "plant_kana": card.plant_kana,
        "plant_romaji": card.plant_romaji,
        "plant_kanji": card.plant_kanji,
        "plant_name": _(PLANT_NAMES[card.month]),
        "name_ja": card.name_ja,
        "ribbon": ribbon,
        "ribbon_type": card.ribbon_type or "",
        "poem": card.ribbon_text or "",
        "mode": romaji,
        "label": label,
        "short": reading,
    }


def card_sentence_html(card: Mapping[str, Any]) -> SafeString:
    """A card inside a log sentence: plant kana (marked Japanese), romaji, kind."""
    if card["mode"] == "never":
        return format_html('<span lang="ja">{}</span> ({})', card["plant_kana"], card["kind_label"])
    return format_html(
        '<span lang="ja">{}</span> ({}, {})',
        card["plant_kana"],
        card["plant_romaji"],
        card["kind_label"],
    )


def yaku_label(yaku_id: str, romaji: str = "always") -> str:
    kana = YAKU_KANA.get(yaku_id, yaku_id)
    return kana if romaji == "never" else f"{kana} ({YAKU_ROMAJI.get(yaku_id, yaku_id)})"


def yaku_name(yaku_id: str) -> str:
    name = YAKU_NAMES.get(yaku_id, yaku_id)
    return _(name) if isinstance(name, str) else str(name)


def yaku_entries(pairs: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    return [
        {
            "id": yaku_id,
            "kana": YAKU_KANA.get(yaku_id, yaku_id),
            "romaji": YAKU_ROMAJI.get(yaku_id, yaku_id),
            "name": yaku_name(yaku_id),
            "points": points,
        }
        for yaku_id, points in pairs
    ]


def in_reach(
    captured: Sequence[str], blocked: Sequence[str], options: Mapping[str, Any], month: int
) -> list[dict[str, Any]]:
    """Yaku at least half built and at most 3 cards away, the closest of each group."""
    best: dict[str, tuple[float, str, int, int]] = {}
    for yaku_id, have, need in yaku_progress(captured, options, blocked=blocked, month=month):
        if have * 2 < need or need - have > 3:
            continue
        group = YAKU_GROUP.get(yaku_id, yaku_id)
        if group not in best or have / need > best[group][0]:
            best[group] = (have / need, yaku_id, have, need)
    return [
        {
            "id": yaku_id,
            "kana": YAKU_KANA.get(yaku_id, yaku_id),
            "romaji": YAKU_ROMAJI.get(yaku_id, yaku_id),
            "name": yaku_name(yaku_id),
            "have": have,
            "need": need,
        }
        for _ratio, yaku_id, have, need in sorted(best.values(), key=lambda row: -row[0])
    ]


class KoikoiBoard(BoardPresenter):
    template = "games/boards/koikoi.html"
    LOG_LINES = 16

    def board_data(self, board: BoardInput) -> dict[str, Any]:
        view, me, romaji = board.view, board.me, board.romaji
        options = view.get("options") or {}
        month = view["month"]

        def card(card_id: str) -> dict[str, Any]:
            return hanafuda_card(card_id, romaji)

        seats = self._seats(board, options, month, card)
        plays, takes, decide = self._actions(board.legal, card)
        if decide is not None and me is not None:
            decide.update(self._stakes(view, me, options, month))
        # hand cards the rules do not let the player play now (a card of theirs matches)
        playing = {play["card"]["id"] for play in plays}
        held = [card(c) for c in view.get("hand") or () if plays and c not in playing]
        return {
            "round": view["round"],
            "rounds": view["rounds"],
            "month": month,
            "month_plant": DECK.cards[DECK.by_month[month][0]].plant_kana,
            "month_romaji": DECK.cards[DECK.by_month[month][0]].plant_romaji,
            "month_name": _(PLANT_NAMES[month]),
            "phase": view["phase"],
            "turn": view.get("turn"),
            "table": [card(c) for c in view["table"]],
            "drawn": card(view["drawn"]) if view.get("drawn") else None,
            "hand": [card(c) for c in view["hand"]] if view.get("hand") is not None else None,
            "pile_size": view["pile_size"],
            "seats": seats,
            "me_seat": seats[me] if me is not None else None,
            "plays": plays,
            "held": held,
            "takes": takes,
            "decide": decide,
            "results": view.get("results") or [],
            "romaji": romaji,
        }

    def board_outcome(self, board: BoardInput) -> Mapping[str, Any] | None:
        """The scores ranked once the last round is over."""
        view = board.view
        if view["phase"] != "over":
            return None
        return {"scores": view["scores"], "ranks": _ranks(view["scores"])}

    @staticmethod
    def _seats(board, options, month, card) -> list[dict[str, Any]]:
        """Each player's seat: captured cards by kind, yaku, score, what they are close to."""
        view = board.view

        def row(player: Player) -> dict[str, Any]:
            index = player.index
            captured = view["captured"][index]
            groups = []
            for kind in KINDS:
                cards = [card(c) for c in captured if DECK.cards[c].kind == kind]
                groups.append({"kind": kind, "label": _(KIND_PLURALS[kind]), "cards": cards})
            yaku = yaku_entries(view["yaku"][index])
            return {
                "hand_size": view["hand_sizes"][index],
                "score": view["scores"][index],
                "oya": view["oya"] == index,
                "calls": view["calls"][index],
                "groups": groups,
                "captured_count": len(captured),
                "yaku": yaku,
                "yaku_points": sum(y["points"] for y in yaku),
                "reach": in_reach(captured, view["captured"][1 - index], options, month),
            }

        return board.seats(row)

    @staticmethod
    def _actions(legal, card) -> tuple[list, list, dict | None]:
        """The buttons: cards to play (and what each takes), takes, koi-koi or shōbu."""
        plays, takes, decide = [], [], None
        for action in legal:
            key = action_key(action)
            kind = action["type"]
            if kind == "play":
                shown = card(action["card"])
                if "take" in action:
                    taken = card(action["take"])
                    label = _("Play %(card)s and take %(taken)s") % {
                        "card": shown["label"],
                        "taken": taken["label"],
                    }
                else:
                    label = _("Play %(card)s") % {"card": shown["label"]}
                    taken = None
                plays.append({"key": key, "card": shown, "taken": taken, "label": label})
            elif kind == "take":
                target = card(action["card"]) if action.get("card") else None
                label = (
                    _("Take %(card)s") % {"card": target["label"]}
                    if target
                    else _("Capture with the turned card")
                )
                takes.append({"key": key, "card": target, "label": label})
            elif kind == "leave":
                takes.append({"key": key, "card": None, "label": _("Leave it on the table")})
            elif kind in ("koikoi", "shobu"):
                decide = decide or {"koikoi": None, "shobu": None}
                decide[kind] = key
        return plays, takes, decide

    @staticmethod
    def _stakes(
        view: Mapping[str, Any], me: int, options: Mapping[str, Any], month: int
    ) -> dict[str, Any]:
        """What the koi-koi / shōbu choice is worth: the score now, doubled stakes, threats."""
        calls = view["calls"]
        base = sum(points for _id, points in view["yaku"][me])
        now = final_score(base, calls[1 - me], options, own_koikoi_calls=calls[me])
        threats = in_reach(view["captured"][1 - me], view["captured"][me], options, month)
        return {
            "base": base,
            "now": now,
            "doubled": now * 2,
            # the opponent scoring after your koi-koi: their points doubled (default rules)
            "doubled_rule": options.get("koikoi_bonus", "opponent"),
            "seven_gap": max(0, 7 - base) if options.get("double_at_seven", True) else None,
            "threats": threats,
            "opponent_yaku": yaku_entries(view["yaku"][1 - me]),
        }

    # -- the log, one small function per event type --

    def sentence(
        self,
        event: Mapping[str, Any],
        players: Sequence[Player],
        view: Mapping[str, Any] | None = None,
        romaji: str = "always",
    ) -> str | None:
        """``SENTENCES[event type](event, say)`` as on the base, ``say`` being a hanafuda
        ``Speaker`` (the base's ``Said`` names cards by id); unknown events say nothing."""
        handler = SENTENCES.get(event.get("type", ""))
        if handler is None:
            return None
        return handler(event, Speaker(players, romaji))


def _ranks(scores: Sequence[int]) -> list[int]:
    return [1 + sum(1 for other in scores if other > score) for score in scores]


class Speaker:
    """What every sentence function needs: names, "you", and cards in words."""

    def __init__(self, players: Sequence[Player], romaji: str) -> None:
        self.players, self.romaji = players, romaji

    def name(self, seat: int) -> str:
        label = self.players[seat].label if 0 <= seat < len(self.players) else "?"
        return label[:1].upper() + label[1:]

    def full_name(self, seat: int) -> str:
        """The seat's name even for "you" (sentences naming both players)."""
        return self.players[seat].name if 0 <= seat < len(self.players) else "?"

    def is_me(self, seat: int) -> bool:
        return 0 <= seat < len(self.players) and self.players[seat].is_me

    def card(self, card_id: str) -> SafeString:
        return card_sentence_html(hanafuda_card(card_id, self.romaji))

    def cards(self, card_ids: Sequence[str]) -> SafeString:
        parts = [self.card(c) for c in card_ids]
        return format_html(", ".join(["{}"] * len(parts)), *parts)

    def yaku(self, pairs: Sequence[Sequence[Any]]) -> str:
        return ", ".join(
            f"{yaku_label(yaku_id, self.romaji)} "
            + ngettext("%(n)s point", "%(n)s points", points) % {"n": points}
            for yaku_id, points in pairs
        )

    def say(self, seat: int, mine: str, theirs: str, **values: Any) -> SafeString:
        values["name"] = self.name(seat)
        return sentence_html(mine if self.is_me(seat) else theirs, values)


def _on_oya_draw(event: Mapping[str, Any], say: Speaker) -> SafeString:
    first, second = event["cards"]
    oya = 0 if DECK.month_of[first] < DECK.month_of[second] else 1
    drew = sentence_html(
        _("To choose the dealer, %(a)s drew %(card_a)s and %(b)s drew %(card_b)s."),
        {
            "a": say.full_name(0),
            "card_a": say.card(first),
            "b": say.full_name(1),
            "card_b": say.card(second),
        },
    )
    return format_html(
        "{} {}", drew, say.say(oya, _("You deal first."), _("%(name)s deals first."))
    )


def _on_deal(event: Mapping[str, Any], say: Speaker) -> SafeString:
    month = event["month"]
    plant = DECK.cards[DECK.by_month[month][0]]
    return say.say(
        event["oya"],
        _("Round %(round)s, the month of %(plant)s: you deal."),
        _("Round %(round)s, the month of %(plant)s: %(name)s deals."),
        round=event["round"],
        plant=(
            format_html('<span lang="ja">{}</span>', plant.plant_kana)
            if say.romaji == "never"
            else format_html('<span lang="ja">{}</span> ({})', plant.plant_kana, plant.plant_romaji)
        ),
    )


def _on_redeal(event: Mapping[str, Any], say: Speaker) -> str:
    if event.get("reason") == "hand":
        return _("A dealt hand was four of a month or four pairs: the cards are dealt again.")
    if event.get("reason") == "table_pairs":
        return _("Four pairs on the table: the cards are dealt again.")
    return _("Four cards of one month on the table: the cards are dealt again.")


def _on_dealt_yaku(event: Mapping[str, Any], say: Speaker) -> SafeString:
    return say.say(
        event["seat"],
        _("You were dealt %(yaku)s."),
        _("%(name)s was dealt %(yaku)s."),
        yaku=say.yaku(event["yaku"]),
    )


def _on_play(event: Mapping[str, Any], say: Speaker) -> SafeString:
    if event["captured"]:
        return say.say(
            event["seat"],
            _("You played %(card)s and captured %(cards)s."),
            _("%(name)s played %(card)s and captured %(cards)s."),
            card=say.card(event["card"]),
            cards=say.cards(event["captured"][1:]),
        )
    return say.say(
        event["seat"],
        _("You played %(card)s: it stays on the table."),
        _("%(name)s played %(card)s: it stays on the table."),
        card=say.card(event["card"]),
    )


def _on_draw(event: Mapping[str, Any], say: Speaker) -> SafeString:
    values = {"card": say.card(event["card"])}
    if event["captured"] is None:
        return say.say(
            event["seat"],
            _("You turned up %(card)s: choose what it captures."),
            _("%(name)s turned up %(card)s and chooses what it captures."),
            **values,
        )
    if event["captured"]:
        return say.say(
            event["seat"],
            _("You turned up %(card)s and captured %(cards)s."),
            _("%(name)s turned up %(card)s and captured %(cards)s."),
            cards=say.cards(event["captured"][1:]),
            **values,
        )
    return say.say(
        event["seat"],
        _("You turned up %(card)s: it stays on the table."),
        _("%(name)s turned up %(card)s: it stays on the table."),
        **values,
    )


def _on_take(event: Mapping[str, Any], say: Speaker) -> SafeString:
    if event["captured"]:
        return say.say(
            event["seat"],
            _("With %(card)s you captured %(cards)s."),
            _("With %(card)s %(name)s captured %(cards)s."),
            card=say.card(event["card"]),
            cards=say.cards(event["captured"][1:]),
        )
    return say.say(
        event["seat"],
        _("You left %(card)s on the table."),
        _("%(name)s left %(card)s on the table."),
        card=say.card(event["card"]),
    )


def _on_yaku(event: Mapping[str, Any], say: Speaker) -> SafeString:
    return say.say(
        event["seat"],
        _("You have a yaku: %(yaku)s."),
        _("%(name)s has a yaku: %(yaku)s."),
        yaku=say.yaku(event["yaku"]),
    )


def _on_koikoi(event: Mapping[str, Any], say: Speaker) -> SafeString:
    return say.say(
        event["seat"],
        _("You called koi-koi: play goes on."),
        _("%(name)s called koi-koi: play goes on."),
    )


def _on_shobu(event: Mapping[str, Any], say: Speaker) -> SafeString:
    return say.say(
        event["seat"],
        _("You called shōbu: %(yaku)s, %(base)s points, %(points)s after multipliers."),
        _("%(name)s called shōbu: %(yaku)s, %(base)s points, %(points)s after multipliers."),
        yaku=say.yaku(event["yaku"]),
        base=event["base"],
        points=event["points"],
    )


def _on_oya_privilege(event: Mapping[str, Any], say: Speaker) -> SafeString:
    return say.say(
        event["seat"],
        _("Dealer's privilege: you score %(points)s."),
        _("Dealer's privilege: %(name)s scores %(points)s."),
        points=event["points"],
    )


def _on_round_end(event: Mapping[str, Any], say: Speaker) -> SafeString | str:
    if event["winner"] is None:
        return sentence_html(
            _("Round %(round)s is over: nobody scores."), {"round": event["round"]}
        )
    return say.say(
        event["winner"],
        _("Round %(round)s is over: you score %(points)s."),
        _("Round %(round)s is over: %(name)s scores %(points)s."),
        round=event["round"],
        points=event["points"],
    )


def _on_game_over(event: Mapping[str, Any], say: Speaker) -> str:
    return _("The game is over.")


SENTENCES = {
    "oya_draw": _on_oya_draw,
    "deal": _on_deal,
    "redeal": _on_redeal,
    "dealt_yaku": _on_dealt_yaku,
    "play": _on_play,
    "draw": _on_draw,
    "take": _on_take,
    "yaku": _on_yaku,
    "koikoi": _on_koikoi,
    "shobu": _on_shobu,
    "oya_privilege": _on_oya_privilege,
    "round_end": _on_round_end,
    "game_over": _on_game_over,
}

PRESENTER = KoikoiBoard()

__all__ = ["PRESENTER", "KoikoiBoard", "hanafuda_card", "in_reach"]
