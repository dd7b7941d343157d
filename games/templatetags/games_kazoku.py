"""The Kazoku families board's loops as tags (``games/boards/kazoku_families.html``).

A move of the classroom benchmark draws this board, and its three loops (the hand by family,
the asks per opponent, the seats with their laid families) were most of its template's nodes:
~100 variable lookups, ifs and tags a render. Each tag below writes, byte for byte, what the
loop it replaced wrote, whitespace included (``bench/board_snapshot.py`` compares 6,432 boards
of this game; tests/games/test_board_tags.py compares each tag with its loop):

    {% kazoku_hand_groups board.data.hand_groups %}
    {% kazoku_ask_forms board.data.asks %}
    {% kazoku_seat_boxes board.data.seats %}
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from games.escaping import conditional_escape
from games.templatetags.games_cards import (
    action_form_open,
    card_buttons,
    hand_count,
    kana_cards,
    seat_name,
)

register = template.Library()


def _t(value: Any) -> str:
    """``{{ value }}`` with ``{% localize off %}``: the value as text, escaped unless safe."""
    return conditional_escape(value if isinstance(value, str) else str(value))


@register.simple_tag
def kazoku_hand_groups(groups: list[dict[str, Any]]) -> SafeString:
    """The player's hand, one list item per family: its name, held/size, its cards."""
    return SafeString(
        "".join(
            [
                '\n          <li class="family-group">\n            <p class="family-title">'
                f'{_t(group["family"])} <span class="count">{_t(group["held"])}/'
                f'{_t(group["size"])}</span></p>\n            <div class="cards">'
                f"{kana_cards(group['cards'], focusable=True)}</div>\n          </li>\n        "
                for group in groups
            ]
        )
    )


@register.simple_tag(takes_context=True)
def kazoku_ask_forms(context: template.Context, asks: list[dict[str, Any]]) -> SafeString:
    """One action form per opponent: a fieldset named by its legend, a button per card."""
    opening = action_form_open(context)  # the same for every form of the board
    return SafeString(
        "".join(
            [
                f'\n      {opening}\n        <fieldset class="ask-group">\n          <legend>'
                f'{_t(group["legend"])}</legend>\n          <div class="ask-buttons">'
                f"{card_buttons(group['options'])}</div>\n        </fieldset>\n      </form>\n    "
                for group in asks
            ]
        )
    )


def _laid(families: list[dict[str, Any]]) -> str:
    if not families:
        return ""
    items = "".join(
        [
            '\n                <li><span class="family-name">'
            f'{_t(fam["family"])}</span>\n                  <span class="mini-cards">'
            f"{kana_cards(fam['cards'], small=True)}</span></li>\n              "
            for fam in families
        ]
    )
    return (
        f'\n            <ul class="laid-families">\n              {items}\n            </ul>'
        "\n          "
    )


@register.simple_tag
def kazoku_seat_boxes(seats: list[dict[str, Any]]) -> SafeString:
    """Each seat: its name line, hand size and score, the families it laid."""
    parts = []
    for s in seats:
        classes = "seat-box"
        if s.get("to_act"):
            classes += " is-acting"
        if s["player"].is_me:
            classes += " is-me"
        parts.append(
            f'\n        <li class="{classes}">\n          {seat_name(s)}\n'
            f'          <p class="seat-facts">\n            {hand_count(s)}\n'
            f"            · {_t(s['score_label'])}\n          </p>\n          "
            f"{_laid(s.get('laid'))}\n        </li>\n      "
        )
    return SafeString("".join(parts))
