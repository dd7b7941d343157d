"""``{% kana_card card %}``: one card as HTML (a tag, not an include: boards draw ~100 cards).

``card`` is a presenter dict (as a game's presenter builds it): glyph, romaji,
``mode`` (the table's romaji option), ``id`` (omitted when empty), optional ``word``.

The other pieces every board draws on every poll are tags too, for the same reason (an include
or a template loop costs far more per use than a function): ``{% kana_cards %}`` (a row of
cards), ``{% seat_name %}`` and ``{% hand_count %}`` (once per seat), ``{% action_form_open %}``
(once per action form) and ``{% log_items %}`` (the game log's lines). Each writes what the
template it replaced wrote (tests/games/test_board_tags.py compares them).
"""

from __future__ import annotations

from html import escape
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from games.escaping import conditional_escape

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
    # SafeString, what mark_safe returns for a str, without its lazy-string check (~60 cards
    # a board): every value above is escaped by _e
    return SafeString(html + "</span>")


@register.simple_tag
def kana_cards(
    cards: list[dict[str, Any]], small: bool = False, word: bool = False, focusable: bool = False
) -> SafeString:
    """``{% for card in cards %}{% kana_card card ... %}{% endfor %}`` in one tag."""
    return mark_safe(  # noqa: S308 - kana_card escapes every value
        "".join([kana_card(card, small, word, focusable) for card in cards])
    )


@register.simple_tag
def seat_name(s: dict[str, Any]) -> SafeString:
    """A seat's name line (``s``: one entry of ``board.data.seats``). The CPU tag is visual
    only (the name says CPU)."""
    player = s["player"]
    parts = []
    if s.get("to_act"):
        parts.append('<span class="acting-mark" aria-hidden="true">▶</span>')
    name = f"<strong>{conditional_escape(player.name)}</strong>"
    if player.is_me:
        name += f" ({conditional_escape(gettext('you'))})"
    parts.append(name)
    if player.kind == "bot":
        parts.append(
            f'<span class="tag" aria-hidden="true">{conditional_escape(gettext("CPU"))}</span>'
        )
    if player.away:
        away = conditional_escape(gettext("away: CPU plays"))
        parts.append(f'<span class="tag tag-warn">{away}</span>')
    if s.get("to_act"):
        now = conditional_escape(gettext("(playing now)"))
        parts.append(f'<span class="visually-hidden">{now}</span>')
    return mark_safe(f'<p class="seat-name">{" ".join(parts)}</p>')  # noqa: S308 - escaped


@register.simple_tag
def hand_count(s: dict[str, Any]) -> SafeString:
    """How many cards a seat holds: a visual count, and a sentence for screen readers."""
    n = s["hand_size"]
    said = ngettext("%(n)s card in hand", "%(n)s cards in hand", n) % {"n": n}
    return mark_safe(  # noqa: S308 - both values are escaped
        f'<span class="hand-count"><span aria-hidden="true">🂠 × {conditional_escape(n)}</span>'
        f'<span class="visually-hidden">{conditional_escape(said)}</span></span>'
    )


@register.simple_tag(takes_context=True)
def action_form_open(context: template.Context) -> SafeString:
    """The opening of a board's action form: posted with HTMX to the table, with the CSRF
    token, the version the board shows and the move's token (closed by ``</form>``)."""
    info = context["info"]
    url = conditional_escape(info.url)
    csrf = context.get("csrf_token")
    if csrf and csrf != "NOTPROVIDED":  # what {% csrf_token %} writes
        csrf = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{conditional_escape(csrf)}">'
        )
    else:
        csrf = ""
    return mark_safe(  # noqa: S308 - every value is escaped
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#board" '
        'hx-swap="outerHTML" hx-sync="#board:queue last" hx-disabled-elt="find button" '
        f'class="action-form">{csrf}<input type="hidden" name="version" '
        f'value="{conditional_escape(info.version)}"><input type="hidden" name="token" '
        f'value="{conditional_escape(context.get("token", ""))}">'
    )


@register.simple_tag
def log_items(lines: list[str]) -> SafeString:
    """The game log's lines as list items, the last one announced to screen readers."""
    last = len(lines) - 1
    return mark_safe(  # noqa: S308 - each line is escaped unless already safe HTML
        "".join(
            [
                f"<li{' data-announce' if i == last else ''}>{conditional_escape(line)}</li>"
                for i, line in enumerate(lines)
            ]
        )
    )


@register.simple_tag
def card_buttons(options: list[dict[str, Any]]) -> SafeString:
    """One submit button per option (``key``: the action's stable key, ``label``: what it
    does, ``card``: the card drawn on it), as a board's ask list shows them. A tag rather than
    a loop in the template: a board may offer ~40 of them on every render."""
    drawn: dict[int, str] = {}  # a card offered by several opponents is drawn once

    def card(option: dict[str, Any]) -> str:
        card = option["card"]
        html = drawn.get(id(card))
        if html is None:
            html = drawn[id(card)] = kana_card(card)
        return html

    return mark_safe(  # noqa: S308 - every value is escaped by _e or kana_card
        "".join(
            [
                f'<button type="submit" name="action" value="{_e(option["key"])}" '
                f'class="card-button" aria-label="{_e(option["label"])}">'
                f"{card(option)}</button>"
                for option in options
            ]
        )
    )


# A speaker drawn in SVG, not the emoji 🔊: a computer without an emoji font (a school's Linux
# machines, headless Chromium) showed the emoji as an empty box.
SPEAKER_ICON = (
    '<svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"'
    ' focusable="false"><path fill="currentColor" d="M3 9v6h4l5 5V4L7 9H3z"/>'
    '<path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"'
    ' d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13"/></svg>'
)


@register.simple_tag
def listen(text: str, label: str = "") -> SafeString:
    """A "listen" button that says ``text`` (Japanese) with the browser's speech synthesis.

    Hidden until ``static/js/listen.js`` runs (without JavaScript nothing can speak); on a
    device without a Japanese voice it stays, marked as silent, and a press says why and what
    still works. ``label`` names what is said for screen readers (default: the text itself)."""
    name = gettext("Listen: %(text)s") % {"text": label or text}
    return mark_safe(  # noqa: S308 - both values are escaped by _e
        f'<button type="button" class="listen" data-say="{_e(text)}" aria-label="{_e(name)}"'
        f' title="{_e(name)}">{SPEAKER_ICON}</button>'
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
