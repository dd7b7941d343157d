"""Bōzu Mekuri through HTTP: a whole game against CPU seats, refusals, the board's content."""

import json
import re

import pytest
from django.test import Client
from test_games_views import form_fields, play_to_the_end, post_move

from games.boards.bozu import poet_card
from games.engines.bozu import load_poets
from games.engines.bozu.data import DATA_PATH
from games.models import Move, Table
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}
DRAW = '{"type":"draw"}'
STOP = '{"type":"stop"}'


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def bozu_table(user, *, others=None, bots=3, **options) -> Table:
    seats = [{"kind": "human", "user": user}]
    seats += [{"kind": "human", "user": other} for other in others or []]
    seats += [{"kind": "bot", "level": "normal"}] * bots
    return table_create(user=user, engine="bozu", options=options, seats=seats)


def stacked(pile_top, players=2):
    deck = list(load_poets().ids)
    rest = [c for c in deck if c not in pile_top]
    return {"hands": [[]] * players, "pile": [*pile_top, *rest], "table": [], "first": 0}


def test_a_whole_game_against_three_cpu_players_over_http(dana):
    table = bozu_table(dana, prompts="off")
    client = client_for(dana)
    page = play_to_the_end(client, table, limit=200)
    table.refresh_from_db()
    assert table.status == "finished" and "Ranking" in page and "#1" in page
    versions = list(Move.objects.filter(table=table).values_list("version", flat=True))
    assert versions == list(range(1, table.version + 1))
    assert Move.objects.filter(table=table, by_bot=False).exclude(seat=0).count() == 0


def test_refusals_change_nothing_and_say_why(dana, charlie):
    table = bozu_table(dana, others=[charlie], bots=0, setup=stacked(["p001", "p003"]))
    alice_page = client_for(dana).get(f"/play/t/{table.code}/").content.decode()
    fields = form_fields(alice_page)
    assert fields["actions"] == [DRAW]
    # charlie acts out of turn: his page offers nothing, a forged POST is refused
    other = client_for(charlie)
    charlie_fields = form_fields(other.get(f"/play/t/{table.code}/").content.decode())
    assert charlie_fields["actions"] == []
    refused = post_move(other, table, version=fields["version"], token="t1", action=DRAW)
    assert refused.status_code == 409  # not your turn: a fresh board comes back
    # a forged action and a stop before any extra draw
    for action in ('{"type":"take_all"}', STOP, "not json"):
        response = post_move(
            client_for(dana), table, version=fields["version"], token="t2", action=action
        )
        assert response.status_code == 400
    table.refresh_from_db()
    assert table.version == int(fields["version"]) and not Move.objects.filter(table=table).exists()
    # the emperor: draw, then draw or stop; a stale version is refused with 409
    client = client_for(dana)
    ok = post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    assert ok.status_code == 302
    again = post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    assert again.status_code == 302  # the same token: a double submit, applied once
    table.refresh_from_db()
    assert table.version == int(fields["version"]) + 1
    page = client.get(f"/play/t/{table.code}/").content.decode()
    assert form_fields(page)["actions"] == [DRAW, STOP]
    assert "Draw one more card or stop?" in page
    stale = post_move(client, table, version=fields["version"], token="t3", action=STOP, htmx=True)
    assert stale.status_code == 409
    fresh = form_fields(page)
    stopped = post_move(client, table, version=fresh["version"], token=fresh["token"], action=STOP)
    assert stopped.status_code == 302
    table.refresh_from_db()
    assert table.state["turn"] == 1 and table.state["hands"][0] == ["p001"]


def test_outsiders_and_unknown_tables(dana, charlie):
    table = bozu_table(dana)
    assert client_for(charlie).post(f"/play/t/{table.code}/", {"action": DRAW}).status_code in (
        403,
        400,
    )
    assert client_for(dana).get("/play/t/NOSUCH/").status_code == 404


def test_the_revealed_card_shows_the_poet_and_the_poem_and_the_semimaru_warning(dana):
    deck = list(load_poets().ids)
    cards = load_poets().cards
    nobles = [c for c in deck if cards[c].category == "noble" and not cards[c].emperor][:13]
    pile = ["p009", *nobles, "p010"]  # 15 cards left, Semimaru among them
    setup = {"hands": [[c for c in deck if c not in pile], []], "pile": pile, "table": []}
    table = bozu_table(dana, bots=1, setup=setup, romaji="always", prompts="off")
    client = client_for(dana)
    page = client.get(f"/play/t/{table.code}/").content.decode()
    assert "Semimaru is still in the pile" in page and 'role="alert"' in page
    fields = form_fields(page)
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    page = client.get(f"/play/t/{table.code}/").content.decode()
    komachi = load_poets().cards["p009"]  # mine, then the CPU turned over the next noble
    assert "You turned over" in page and komachi.kana in page and "Ono no Komachi" in page
    last = load_poets().cards[nobles[0]]
    assert last.kana in page and last.name in page
    assert last.upper_yomi in page  # the poem's first half, modern reading by default
    assert 'data-speak="' in page and "hidden>" in page  # the read-aloud button waits for JS
    assert "bozu-speech.js" in page and "<script>" not in page


def test_the_historical_spelling_is_a_table_setting(dana):
    table = bozu_table(dana, bots=1, setup=stacked(["p001"]), spelling="historical", prompts="off")
    client = client_for(dana)
    fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    page = client.get(f"/play/t/{table.code}/").content.decode()
    shown = re.sub(r'data-speak="[^"]*"', "", page)  # the speech reads the pronunciation
    assert "かりほのいほの" in shown and "かりおのいおの" not in shown
    assert "かりおのいおの" in re.search(r'data-speak="([^"]*)"', page).group(1)


@pytest.mark.parametrize("mode", ["always", "hover", "never"])
def test_the_100_poets_shown_match_the_data_file(mode):
    rows = json.loads(DATA_PATH.read_text(encoding="utf-8"))
    labels = {"noble": "noble", "lady": "lady", "monk": "monk", "semimaru": "Semimaru"}
    for row in rows:
        card = poet_card(f"p{row['number']:03d}", romaji=mode)
        assert (card["name"], card["kana"], card["romaji"]) == (
            row["poet"],
            row["poet_kana"],
            row["poet_romaji"],
        )
        if row["emperor"]:
            assert card["category"] == "emperor"
            assert ("empress" in card["category_label"]) is (row["category"] == "lady")
        else:
            assert card["category"] == row["category"]
            assert labels[row["category"]] in card["category_label"]
        assert card["upper"] == row["kami_no_ku_yomi"]
        assert (row["poet_romaji"] in card["alt"]) is (mode != "never")


def test_a_learner_is_exposed_to_the_kana_of_the_poets_names(dana):
    from learning.models import LearningEvent

    table = bozu_table(dana, bots=1, setup=stacked(["p010"]), semimaru="noble", prompts="off")
    client = client_for(dana)
    fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    seen = set(
        LearningEvent.objects.filter(learner=dana, table_id=table.pk, kind="exposure").values_list(
            "kana_id", flat=True
        )
    )
    assert {"se", "mi", "ma", "ru"} <= seen  # せみまる


def test_the_lobby_offers_bozu_and_its_create_form_lists_every_setting(dana):
    client = client_for(dana)
    assert "Bōzu Mekuri" in client.get("/play/").content.decode()
    page = client.get("/play/new/bozu/").content.decode()
    for name in ("semimaru", "emperor", "lady", "allow_stop", "nyudo_monks", "spelling"):
        assert re.search(rf'name="t-{name}"', page), name


def test_spectators_and_replays(dana, charlie, bob):
    table = bozu_table(dana, bots=1, setup=stacked(["p003", "p004"]), prompts="off")
    client = client_for(dana)
    fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    # a finished game can be replayed step by step; the board shows each revealed poet
    table.refresh_from_db()
    assert client.get(f"/play/t/{table.code}/replay/").status_code == 409  # not over yet
    page = play_to_the_end(client, table, limit=200)
    assert "Ranking" in page
    replay = client.get(f"/play/t/{table.code}/replay/?step=1").content.decode()
    assert load_poets().cards["p003"].kana in replay and 'name="action"' not in replay


def test_a_teacher_watches_a_class_table_without_actions(alice, bob, alice_class):
    seats = [{"kind": "human", "user": bob}, {"kind": "bot", "level": "easy"}]
    table = table_create(
        user=bob, engine="bozu", options={"prompts": "off"}, seats=seats, classroom=alice_class
    )
    response = client_for(alice).get(f"/play/t/{table.code}/")
    page = response.content.decode()
    assert response.status_code == 200 and "You are watching" in page
    assert form_fields(page)["actions"] == []
    assert 90 <= int(re.search(r"Pile: (\d+) cards", page).group(1)) <= 100  # bots may draw


def test_an_absent_player_is_played_by_a_cpu_until_back_and_keeps_the_seat(dana, charlie):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat
    from games.services.play import table_play, table_timeouts_run
    from games.services.tables import seat_return

    seats = [{"kind": "human", "user": dana}, {"kind": "human", "user": charlie}]
    options = {"timer": 30, "prompts": "off", "setup": stacked(["p003", "p004", "p005"])}
    table = table_create(user=dana, engine="bozu", options=options, seats=seats)
    table.refresh_from_db()
    assert table.turn_due_at > timezone.now()
    table_play(table=table, user=dana, version=0, token="a", key=DRAW)
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(seconds=1))
    table.refresh_from_db()
    assert table_timeouts_run(table=table) == 1  # charlie's stand-in turned over p004
    assert Seat.objects.get(table=table, index=1).autoplay
    table.refresh_from_db()
    assert table.state["hands"] == [["p003"], ["p004"]]
    seat_return(seat=Seat.objects.get(table=table, index=1))
    table_play(table=table, user=dana, version=table.version, token="b", key=DRAW)
    table.refresh_from_db()
    assert table.state["turn"] == 1  # charlie is back: the turn waits for him
    assert not Seat.objects.get(table=table, index=1).autoplay


@pytest.mark.parametrize("mode", ["always", "hover", "never"])
def test_the_romaji_option_on_the_board(dana, mode):
    table = bozu_table(dana, bots=1, setup=stacked(["p009", "p003"]), romaji=mode, prompts="off")
    client = client_for(dana)
    fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    page = client.get(f"/play/t/{table.code}/").content.decode()
    assert 'You turned over <span lang="ja">おののこまち</span>' in page  # in the log
    assert ("Ono no Komachi" in page) is (mode != "never")
    assert ('title="Ono no Komachi"' in page) is (mode == "hover")


def test_the_learning_hook_sends_the_question_of_each_card_newly_shown():
    """``seat_observed_pairs``: the card turned over comes with its ``card_question`` (what
    the learning app counts and may ask), in the table's spelling; Kazoku asks nothing."""
    from games.engines import get_engine
    from games.services.observe import seat_observed_pairs

    eng = get_engine("bozu")
    options = {"spelling": "historical", "setup": stacked(["p012", "p003"])}
    before = eng.new_game(players=2, seed=1, options=options)
    after, _events = eng.apply(before, 0, {"type": "draw"})
    for seat in (0, 1):  # the player who turned it over and the other one
        saw = seat_observed_pairs(eng=eng, before=before, after=after, seat=seat, options=options)
        assert [q.card for q in saw.cards] == ["p012"]
        assert saw.cards[0].clue == load_poets().cards["p012"].upper_kana
    families = get_engine("kazoku-families")
    deal = families.new_game(players=3, seed=1)
    saw = seat_observed_pairs(eng=families, before=None, after=deal, seat=0, options={})
    assert saw.entered and saw.cards == ()


def test_the_poem_is_read_aloud_as_pronounced_whatever_the_spelling_shown():
    """Issue 26 item 6: the speech reads 『おおけなく』, never the historical おほけなく (a speech
    engine would say "o-ho"); the historical spelling is only shown."""
    poet = load_poets().cards["p095"]
    for spelling in ("modern", "historical"):
        card = poet_card("p095", romaji="always", spelling=spelling)
        assert card["speak"] == f"{poet.kana}。{poet.upper_yomi.replace(' ', '、')}"
        assert "おほけなく" not in card["speak"]
    assert poet_card("p095", romaji="always", spelling="historical")["upper"] == poet.upper_kana


def test_the_modern_spelling_setting_is_named_the_pronunciation():
    """The `_yomi` text writes the pronunciation (わかれてわ, くるるものとわ): the setting says so
    instead of calling it the modern spelling."""
    from django.utils import translation

    from games.engines import get_engine

    spelling = next(o for o in get_engine("bozu").OPTIONS if o.name == "spelling")
    label = spelling.choice_labels[spelling.choices.index("modern")]
    assert "pronounced" in label
    for code, word in (("fr", "prononc"), ("ja", "発音")):
        with translation.override(code):
            assert word in translation.gettext(label)


def test_a_log_line_about_another_players_card_does_not_speak_to_me():
    """Issue 26 item 7: « la carte reste devant vous » was said of another player's noble."""
    from django.utils import translation

    from games.boards.bozu import BozuBoard
    from games.boards.common import Player

    players = [Player(0, "Dana", "human", is_me=True), Player(1, "CPU", "bot", level="easy")]
    board = BozuBoard()
    for effect in ("noble", "emperor", "empress"):
        theirs = {"type": "reveal", "seat": 1, "card": "p001", "effect": effect}
        mine = {**theirs, "seat": 0}
        for code, you in (("en", " you"), ("fr", "vous"), ("fr", "tirez"), ("ja", "あなた")):
            with translation.override(code):
                assert you not in str(board.sentence(theirs, players)), (effect, code)
        with translation.override("fr"):
            assert "vous" in str(board.sentence(mine, players)).lower()
