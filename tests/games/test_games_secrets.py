"""Hidden information never reaches a browser that may not see it.

Every page and partial (board, HTMX partial, poll, 409 error, replay steps, spectator, error
pages) is rendered for each seat and for a teacher spectator, and checked against the state:
no card that the viewer's own view does not show (other hands, the pile) appears as a card id
or a glyph, nor the pile order, nor the RNG seed.
"""

import random
import re

import pytest
from test_games_views import HX, client_for, post_move

from games.engines import action_key, get_engine
from games.engines.kazoku.deck import load_deck
from games.models import Table
from games.services.play import table_play
from games.services.replay import table_replay
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = "kazoku-families"


def hidden_cards(state_json: dict, seat: int | None) -> set[str]:
    """Cards in other hands or the pile that ``seat``'s own view does not mention."""
    eng = get_engine(ENGINE)
    state = eng.from_json(state_json)
    shown = set(eng.view(state, seat)["kana"])
    elsewhere = set(state_json["pile"])
    for index, hand in enumerate(state_json["hands"]):
        if index != seat:
            elsewhere.update(hand)
    return elsewhere - shown


def main_region(page: str) -> str:
    """The page's <main> (or the partial), without LEARNING's prompt block, whose distractor
    glyphs are chosen by the learning service, not taken from the table."""
    match = re.search(r"<main.*?</main>", page, re.S)
    region = match.group(0) if match else page
    return re.sub(r'<section id="table-prompts".*?</section>', "", region, flags=re.S)


def assert_hides(page: str, *, state_json: dict, seat: int | None, seed: int) -> None:
    deck = load_deck()
    region = main_region(page)
    for card in hidden_cards(state_json, seat):
        assert f'data-card="{card}"' not in page, f"seat {seat} sees hidden card {card}"
        assert f"&quot;card&quot;:&quot;{card}&quot;" not in page, f"action names {card}"
        for glyph in (deck.cards[card].hiragana, deck.cards[card].katakana):
            assert glyph not in region, f"seat {seat} sees the glyph {glyph} of hidden {card}"
    assert str(seed) not in page and str(state_json["seed"]) not in page
    pile = state_json["pile"]
    if len(pile) > 2:
        assert ",".join(pile[:3]) not in page
        assert '"pile":' not in page and "&quot;pile&quot;" not in page


@pytest.fixture
def mid_game(alice, bob, erin, alice_class):
    """Bob (seat 0) and Erin (seat 1) against two CPUs, a few moves in, in Alice's class."""
    table = table_create(
        user=bob,
        engine=ENGINE,
        options={"variant": "themed", "script": "mixed", "prompts": "every"},
        seats=[
            {"kind": "human", "user": bob},
            {"kind": "human", "user": erin},
            {"kind": "bot", "level": "normal"},
            {"kind": "bot", "level": "hard"},
        ],
        classroom=alice_class,
    )
    eng = get_engine(ENGINE)
    rng = random.Random(5)
    users = {0: bob, 1: erin}
    for _ in range(6):
        table.refresh_from_db()
        if table.status != "playing":
            break
        state = eng.from_json(table.state)
        seat = eng.to_act(state)[0]
        action = rng.choice(eng.legal_actions(state, seat))
        table_play(
            table=table,
            user=users[seat],
            version=table.version,
            token=f"t{table.version}",
            key=action_key(action),
        )
    table.refresh_from_db()
    return table


def test_every_page_and_partial_hides_other_seats_cards(mid_game, alice, bob, erin):
    table = mid_game
    url = f"/play/t/{table.code}/"
    for user, seat in ((bob, 0), (erin, 1), (alice, None)):
        client = client_for(user)
        pages = [
            client.get(url).content.decode(),
            client.get(url, **HX).content.decode(),
            client.get(f"{url}poll/", {"v": "0"}, **HX).content.decode(),
            client.get("/play/").content.decode(),
        ]
        stale = post_move(client, table, version=0, token="stale", action="x", htmx=True)
        assert stale.status_code in (403, 409)
        pages.append(stale.content.decode())
        for page in pages:
            assert_hides(page, state_json=table.state, seat=seat, seed=table.seed)


def test_error_pages_show_no_table_secrets(mid_game, charlie):
    table = mid_game
    client = client_for(charlie)
    for response in (
        client.get(f"/play/t/{table.code}/"),
        client.get(f"/play/t/{table.code}/poll/", {"v": "0"}),
        client.get(f"/play/t/{table.code}/replay/"),
        post_move(client, table, version=table.version, token="x", action="{}"),
    ):
        assert response.status_code == 403
        assert_hides(response.content.decode(), state_json=table.state, seat=None, seed=table.seed)


def test_replay_steps_show_only_the_viewer_seat(mid_game, alice, bob, erin):
    table = mid_game
    eng = get_engine(ENGINE)
    # Finish the game (CPU stand-ins play for both humans), then replay it.
    table.seats.filter(index__in=(0, 1)).update(autoplay=True)
    from games.services.play import table_bots_play

    table_bots_play(table_id=table.pk, version=table.version)
    table.refresh_from_db()
    assert table.status == "finished"
    steps = sorted({0, 1, 2, table.version // 2, table.version - 1, table.version})
    for user, seat in ((bob, 0), (erin, 1), (alice, None)):
        client = client_for(user)
        for step in steps:
            state, _events, _move = table_replay(table=table, step=step)
            page = client.get(f"/play/t/{table.code}/replay/", {"step": step}).content.decode()
            assert_hides(page, state_json=eng.to_json(state), seat=seat, seed=table.seed)


def test_the_check_itself_catches_a_leak(mid_game, bob):
    """Guard against a vacuous test: the other seat's hand, rendered, is caught."""
    table = Table.objects.get(pk=mid_game.pk)
    hidden = hidden_cards(table.state, 0)
    assert hidden  # the pile alone holds cards seat 0 has never seen
    leaked = sorted(hidden)[0]
    with pytest.raises(AssertionError):
        assert_hides(
            f'<main><span data-card="{leaked}"></span></main>',
            state_json=table.state,
            seat=0,
            seed=table.seed,
        )


def test_templates_never_receive_a_table_or_seat_row(mid_game, alice, bob):
    """The template context holds the view-derived board and public table info only."""
    from games.models import Move, Seat

    table = mid_game
    for user in (bob, alice):
        client = client_for(user)
        for response in (
            client.get(f"/play/t/{table.code}/"),
            client.get(f"/play/t/{table.code}/", **HX),
            client.get(f"/play/t/{table.code}/poll/", {"v": "0"}, **HX),
        ):
            assert response.status_code == 200
            contexts = response.context
            contexts = contexts if isinstance(contexts, list) else [contexts]
            for context in contexts:
                for key, value in context.flatten().items():
                    assert not isinstance(value, (Table, Seat, Move)), key
                    assert key not in ("state", "table", "seat")
