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


# the three loops of games/boards/kazoku_families.html that games_kazoku's tags replaced
KAZOKU_LOOPS = {
    "kazoku_hand_groups board.data.hand_groups": """{% load games_cards %}{% for group in board.data.hand_groups %}
          <li class="family-group">
            <p class="family-title">{{ group.family }} <span class="count">{{ group.held }}/{{ group.size }}</span></p>
            <div class="cards">{% kana_cards group.cards focusable=True %}</div>
          </li>
        {% endfor %}""",  # noqa: E501
    "kazoku_ask_forms board.data.asks": """{% load games_cards %}{% for group in board.data.asks %}
      {% action_form_open %}
        <fieldset class="ask-group">
          <legend>{{ group.legend }}</legend>
          <div class="ask-buttons">{% card_buttons group.options %}</div>
        </fieldset>
      </form>
    {% endfor %}""",  # noqa: E501
    "kazoku_seat_boxes board.data.seats": """{% load games_cards %}{% for s in board.data.seats %}
        <li class="seat-box{% if s.to_act %} is-acting{% endif %}{% if s.player.is_me %} is-me{% endif %}">
          {% seat_name s %}
          <p class="seat-facts">
            {% hand_count s %}
            · {{ s.score_label }}
          </p>
          {% if s.laid %}
            <ul class="laid-families">
              {% for fam in s.laid %}
                <li><span class="family-name">{{ fam.family }}</span>
                  <span class="mini-cards">{% kana_cards fam.cards small=True %}</span></li>
              {% endfor %}
            </ul>
          {% endif %}
        </li>
      {% endfor %}""",  # noqa: E501
}  # noqa: E501


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_the_kazoku_tags_write_what_their_loops_wrote(language):
    """Byte for byte (whitespace included), on boards of a seeded game with laid families,
    asks, the lay button, a name to escape, a player away and an empty hand."""
    import random

    from games.boards import presenter_for
    from games.engines import get_engine

    eng = get_engine("kazoku-families")
    rng = random.Random(5)
    state = eng.new_game(3, 5)
    players = [
        Player(index=0, name="<b>Eve & co</b>", kind="human", is_me=True, away=False),
        Player(index=1, name="CPU 1 (normal)", kind="bot", is_me=False, away=True),
        Player(index=2, name="Bob", kind="human", is_me=False, away=False),
    ]
    request = RequestFactory().get("/")
    get_token(request)

    class Info:
        url = "/play/t/ABCDEF/"
        version = 3

    seen = {"laid": False, "asks": False, "lay": False}
    with translation.override(language):
        for _step in range(400):
            if eng.is_over(state):
                break
            for me in range(3):
                legal = eng.legal_actions(state, me)
                board = presenter_for("kazoku-families").build(
                    view=eng.view(state, me), legal=legal, players=players, me=me, romaji="hover"
                )
                seen["laid"] |= any(s["laid"] for s in board.data["seats"])
                seen["asks"] |= bool(board.data["asks"])
                seen["lay"] |= board.data["lay"] is not None
                context = {"board": board, "info": Info(), "token": "tok"}
                for tag, loop in KAZOKU_LOOPS.items():
                    old = Template(loop).render(RequestContext(request, context))
                    new = Template("{% load games_kazoku %}{% " + tag + " %}").render(
                        RequestContext(request, context)
                    )
                    # the CSRF token is masked afresh each time it is written
                    old, new = (
                        re.sub(r'(middlewaretoken" value=)"[^"]+"', r"\1T", h) for h in (old, new)
                    )
                    assert old == new
            seat = eng.to_act(state)[0]
            state, _events = eng.apply(state, seat, rng.choice(eng.legal_actions(state, seat)))
    assert all(seen.values()), seen
