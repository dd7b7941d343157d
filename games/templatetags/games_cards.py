"""``{% kana_card card %}``: one card as HTML (a tag, not an include: boards draw ~100 cards).

``card`` is a presenter dict (``games/boards/common.py: kazoku_card``): glyph, romaji,
``mode`` (the table's romaji option), ``id`` (omitted when empty), optional ``word``.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _e(value: Any) -> str:
    """HTML-escaped text (what ``format_html`` does to each argument, without its overhead:
    a board draws ~60-100 cards per render)."""
    return escape(str(value), quote=True)


@register.simple_tag
def kana_card(
    card: dict[str, Any], small: bool = False, word: bool = False, focusable: bool = False
) -> SafeString:
    """``focusable``: a card shown on its own (a hand, the table), not inside a button; with
    romaji "on hover or focus" it takes the keyboard focus, which shows its romaji."""
    classes = "kana-card"
    if small:
        classes += " kana-card-sm"
    if word:
        classes += " word-card"
    if card.get("joker"):
        classes += " kana-card-joker"
    attrs = f' data-card="{_e(card["id"])}"' if card.get("id") else ""
    mode = card.get("mode")
    if mode == "hover":
        attrs += f' title="{_e(card["romaji"])}"'
        if focusable:
            attrs += ' tabindex="0"'
    html = f'<span class="{classes}"{attrs}>'
    html += f'<span class="glyph" lang="ja">{_e(card["glyph"])}</span>'
    show_romaji = mode != "never"
    if show_romaji:
        html += f'<span class="romaji">{_e(card["romaji"])}</span>'
    printed = card.get("word") if word else None
    if printed:
        star = "☆" if printed.get("star") else ""
        html += f'<span class="card-word" lang="ja">{_e(printed["kana"])}{star}</span>'
        if show_romaji:
            html += f'<span class="card-word-romaji">{_e(printed["romaji"])}</span>'
        if printed.get("meaning"):
            html += f'<span class="card-meaning">{_e(printed["meaning"])}</span>'
        html += _card_foot(printed)
    return mark_safe(html + "</span>")  # noqa: S308 - every value above is escaped by _e


@register.simple_tag
def card_buttons(options: list[dict[str, Any]]) -> SafeString:
    """One submit button per option (``key``: the action's stable key, ``label``: what it
    does, ``card``: the card drawn on it), as a board's ask list shows them. A tag rather than
    a loop in the template: a Kazoku board offers up to ~40 of them on every render."""
    return mark_safe(  # noqa: S308 - every value is escaped by _e or kana_card
        "".join(
            f'<button type="submit" name="action" value="{_e(option["key"])}" '
            f'class="card-button" aria-label="{_e(option["label"])}">'
            f"{kana_card(option['card'])}</button>"
            for option in options
        )
    )


@register.simple_tag
def listen(text: str, label: str = "") -> SafeString:
    """A "listen" button that says ``text`` (Japanese) with the browser's speech synthesis.

    Hidden until ``static/js/listen.js`` finds a Japanese voice on the device (the class
    ``can-speak`` on ``<html>``): absent, never broken, where there is none. ``label`` names
    what is said for screen readers (default: the text itself)."""
    from django.utils.translation import gettext

    name = gettext("Listen: %(text)s") % {"text": label or text}
    return mark_safe(  # noqa: S308 - both values are escaped by _e
        f'<button type="button" class="listen" data-say="{_e(text)}" aria-label="{_e(name)}"'
        f' title="{_e(name)}"><span aria-hidden="true">🔊</span></button>'
    )


def _card_foot(printed: dict[str, Any]) -> str:
    """The bottom line of a word card as printed: hearts at the left (with their meaning as
    text for screen readers and on hover), the word's points at the right."""
    if "points_label" not in printed:
        return ""
    hearts = "♥" * int(printed.get("hearts") or 0)
    label = _e(printed.get("hearts_label", ""))
    return (
        '<span class="card-foot">'
        f'<span class="card-hearts" title="{label}"><span aria-hidden="true">{hearts}</span>'
        f'<span class="visually-hidden">{label}</span></span>'
        f'<span class="card-points">{_e(printed["points_label"])}</span></span>'
    )
