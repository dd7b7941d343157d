"""The board tags of games_cards write what the template pieces they replaced wrote.

Each reference below is the template the tag replaced (an include or a loop), verbatim; the
two outputs are compared with runs of whitespace collapsed (HTML reads them as one space)
and the insignificant space at the edges of a block element removed.
"""

import itertools
import re

import pytest
from django.middleware.csrf import _unmask_cipher_token, get_token
from django.template import Context, Template
from django.template.context import RequestContext
from django.test import RequestFactory
from django.utils import translation
from factories import solo_kazoku_table

from games.boards.common import Player

SEAT_NAME = """{% load i18n %}
          <p class="seat-name">
            {% if s.to_act %}<span class="acting-mark" aria-hidden="true">▶</span>{% endif %}
            <strong>{{ s.player.name }}</strong>{% if s.player.is_me %} ({% translate "you" %}){% endif %}
            {% if s.player.kind == "bot" %}<span class="tag" aria-hidden="true">{% translate "CPU" %}</span>{% endif %}
            {% if s.player.away %}<span class="tag tag-warn">{% translate "away: CPU plays" %}</span>{% endif %}
            {% if s.to_act %}<span class="visually-hidden">{% translate "(playing now)" %}</span>{% endif %}
          </p>
"""  # noqa: E501
HAND_COUNT = """{% load i18n %}<span class="hand-count"><span aria-hidden="true">🂠 × {{ s.hand_size }}</span><span class="visually-hidden">{% blocktranslate count n=s.hand_size %}{{ n }} card in hand{% plural %}{{ n }} cards in hand{% endblocktranslate %}</span></span>"""  # noqa: E501
FORM_OPEN = """<form method="post" action="{{ info.url }}" hx-post="{{ info.url }}" hx-target="#board" hx-swap="outerHTML" hx-sync="#board:queue last" hx-disabled-elt="find button" class="action-form">{% csrf_token %}<input type="hidden" name="version" value="{{ info.version }}"><input type="hidden" name="token" value="{{ token }}">"""  # noqa: E501
LOG = """{% for line in board.log %}<li{% if forloop.last %} data-announce{% endif %}>{{ line }}</li>{% endfor %}"""  # noqa: E501
CARDS = """{% load games_cards %}{% for card in cards %}{% kana_card card small=small word=word focusable=focusable %}{% endfor %}"""  # noqa: E501


def norm(html: str) -> str:
    html = re.sub(r"\s+", " ", html).strip()
    return re.sub(r'(<p class="seat-name">) | (</p>)', r"\1\2", html)


def both(reference: str, tag: str, context: dict, request=None) -> tuple[str, str]:
    new = "{% load games_cards %}" + tag
    if request is not None:
        return (
            Template(reference).render(RequestContext(request, context)),
            Template(new).render(RequestContext(request, context)),
        )
    return Template(reference).render(Context(context)), Template(new).render(Context(context))


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_seat_name_and_hand_count(language):
    names = ["Bob", "<b>Eve & co</b>", "CPU 2 (normal)"]
    with translation.override(language):
        for name, kind, is_me, away, to_act, size in itertools.product(
            names, ["human", "bot"], [False, True], [False, True], [False, True], [0, 1, 2, 12]
        ):
            player = Player(index=0, name=name, kind=kind, is_me=is_me, away=away)
            s = {"player": player, "to_act": to_act, "hand_size": size}
            old, new = both(SEAT_NAME, "{% seat_name s %}", {"s": s})
            assert norm(old) == norm(new)
            old, new = both(HAND_COUNT, "{% hand_count s %}", {"s": s})
            assert old == new
            if name.startswith("<b>"):
                old, new = both(SEAT_NAME, "{% seat_name s %}", {"s": s})
                assert "<strong>&lt;b&gt;Eve &amp; co&lt;/b&gt;</strong>" in new


def test_action_form_open_with_and_without_a_csrf_token():
    class Info:
        url = "/play/t/AB&CD/"
        version = 42

    request = RequestFactory().get("/")
    get_token(request)
    context = {"info": Info(), "token": 'tok"en'}
    old, new = both(FORM_OPEN, "{% action_form_open %}", context, request=request)
    # the token is masked afresh each time it is written: compare its unmasked secret
    tokens = [
        re.search(r'csrfmiddlewaretoken" value="([^"]+)"', html).group(1) for html in (old, new)
    ]
    assert _unmask_cipher_token(tokens[0]) == _unmask_cipher_token(tokens[1])
    old, new = (html.replace(token, "T") for html, token in zip((old, new), tokens, strict=True))
    assert old == new and "tok&quot;en" in new
    old, new = both(FORM_OPEN, "{% action_form_open %}", context)  # no request: no token
    assert old == new and "csrfmiddlewaretoken" not in new
    old, new = both(FORM_OPEN, "{% action_form_open %}", {"info": Info()})
    assert old == new


def test_log_items_and_kana_cards():
    from django.utils.safestring import mark_safe

    for log in ([], ["one"], ["<i>x</i>", mark_safe("<b>safe</b>"), "a & b"]):
        old, new = both(LOG, "{% log_items board.log %}", {"board": {"log": log}})
        assert old == new
    card = {"id": "ka", "glyph": "か", "romaji": "KA", "mode": "hover"}
    word = {**card, "word": {"kana": "かさ", "romaji": "kasa", "star": True}}
    for cards, small, word_, focusable in itertools.product(
        [[], [card], [card, word, {**card, "mode": "never"}]], *[[False, True]] * 3
    ):
        context = {"cards": cards, "small": small, "word": word_, "focusable": focusable}
        old, new = both(
            CARDS,
            "{% kana_cards cards small=small word=word focusable=focusable %}",
            context,
        )
        assert old == new


@pytest.mark.django_db
def test_the_board_urls_are_those_reverse_gives(bob):
    from django.urls import reverse

    from games.views.common import TableInfo

    table = solo_kazoku_table(bob)
    info = TableInfo.of(table)
    assert info.url == reverse("games:table", args=[table.code])
    assert info.poll_url == reverse("games:poll", args=[table.code])
    assert info.leave_url == reverse("games:leave", args=[table.code])
