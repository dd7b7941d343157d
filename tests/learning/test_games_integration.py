"""Events and prompts from real deals and moves through the games service, and the daily
session's game against CPU players."""

import pytest

from games.services import play as games_play
from games.services import tables as games_tables
from learning.models import DailySession, KanaMemory, LearningEvent, Prompt

pytestmark = pytest.mark.django_db


def solo_table(user, **options):
    seats = [{"kind": "human", "user": user}] + [{"kind": "bot", "level": "easy"}] * 3
    return games_tables.table_create(
        user=user,
        engine="kazoku-families",
        options={"variant": "kana", "script": "katakana", "prompts": "every", **options},
        seats=seats,
    )


def test_the_deal_records_the_learners_hand_and_opens_prompts(
    dana, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = solo_table(dana)
    exposures = LearningEvent.objects.filter(learner=dana, kind="exposure", table_id=table.pk)
    assert exposures.exists()
    assert set(exposures.values_list("script", flat=True)) == {"katakana"}
    hand_prompts = Prompt.objects.filter(learner=dana, table_id=table.pk, status="open")
    assert 1 <= hand_prompts.count() <= 3
    for memory in KanaMemory.objects.filter(learner=dana):
        assert memory.exposures >= 1 and memory.reps == 0


def test_a_real_move_records_exposures_with_its_move_id(dana, django_capture_on_commit_callbacks):
    from games.engines import action_key, get_engine

    with django_capture_on_commit_callbacks(execute=True):
        table = solo_table(dana, prompts="off")
    table.refresh_from_db()
    eng = get_engine(table.engine)
    before = LearningEvent.objects.filter(learner=dana).count()
    moves = 0
    while table.status == "playing" and moves < 5:
        state = eng.from_json(table.state)
        if 0 not in eng.to_act(state):
            break
        action = eng.legal_actions(state, 0)[0]
        with django_capture_on_commit_callbacks(execute=True):
            result = games_play.table_play(
                table=table,
                user=dana,
                version=table.version,
                token=f"t{moves}",
                key=action_key(action),
            )
        table = result.table
        moves += 1
    assert moves >= 1
    from games.models import Move

    table_moves = set(Move.objects.filter(table=table).values_list("pk", flat=True))
    after = LearningEvent.objects.filter(learner=dana, table_id=table.pk).exclude(move_id=None)
    # asking draws or receives a card: it enters dana's hand and is recorded with its move
    assert after.exists()
    assert set(after.values_list("move_id", flat=True)) <= table_moves
    assert set(after.values_list("kind", flat=True)) == {"exposure"}
    assert LearningEvent.objects.filter(learner=dana).count() > before
    assert not Prompt.objects.filter(learner=dana).exists()  # prompts "off"


def test_the_daily_session_plays_the_recommended_game_against_cpus(client, dana):
    client.force_login(dana)
    page = client.get("/daily/").content.decode()
    assert (
        "<h2>New kana</h2>" in page
        and "Start today's lesson" in page
        and "<h2>Warm-up</h2>" in page
    )
    assert client.post("/daily/", {"action": "skip_warmup"}).status_code == 302
    assert "Play the recommended game" in client.get("/daily/").content.decode()
    response = client.post("/daily/", {"action": "play"})
    assert response.status_code == 302
    session = DailySession.objects.get(learner=dana)
    from games.models import Table

    table = Table.objects.get(pk=session.table_id)
    assert table.engine == "kazoku-families" and table.status == "playing"
    assert response["Location"] == table.get_absolute_url()
    assert table.seats.filter(user=None).count() == 3
    assert client.post("/daily/", {"action": "play"}).status_code == 409
    assert "Back to the game" in client.get("/daily/").content.decode()
    client.post("/daily/", {"action": "finish"})
    assert "Kana practised" in client.get("/daily/").content.decode()


def test_the_board_shows_the_prompt_and_answering_it_without_js_returns_to_the_board(
    client, dana, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = solo_table(dana)
    client.force_login(dana)
    board = client.get(table.get_absolute_url())
    html = board.content.decode()
    prompt = Prompt.objects.filter(learner=dana, table_id=table.pk).order_by("id").first()
    assert f"/learn/prompts/{prompt.pk}/answer/" in html
    response = client.post(
        f"/learn/prompts/{prompt.pk}/answer/",
        {"answer": prompt.kana_id, "next": table.get_absolute_url(), "table_id": table.pk},
    )
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert "Right:" in client.get(response["Location"]).content.decode()
    assert LearningEvent.objects.filter(learner=dana, kind="answer", table_id=table.pk).exists()


def test_asking_for_a_card_by_name_asks_to_pick_its_glyph(dana, django_capture_on_commit_callbacks):
    from games.engines import action_key
    from games.engines.kazoku.deck import load_deck

    cards = list(load_deck().ids)
    hands = [["sa"], ["a"], ["i"], ["u"]]
    pile = ["ka"] + [c for c in cards if c not in {"sa", "a", "i", "u", "ka"}]
    setup = {"hands": hands, "pile": pile, "table": [], "first": 0}
    with django_capture_on_commit_callbacks(execute=True):
        table = solo_table(dana, script="hiragana", setup=setup)
    table.refresh_from_db()
    Prompt.objects.filter(learner=dana).update(status="expired")  # the deal's prompts
    ask = {"type": "ask", "target": 1, "card": "shi"}  # seat 1 has no し: Bonne pioche
    with django_capture_on_commit_callbacks(execute=True):
        games_play.table_play(
            table=table, user=dana, version=table.version, token="ask1", key=action_key(ask)
        )
    glyph = Prompt.objects.get(learner=dana, kind="glyph")
    assert (glyph.kana_id, glyph.script) == ("shi", "hiragana")
    assert glyph.move_id is not None and "shi" in glyph.choices
    # the card drawn instead (か) gets the usual reading prompt
    assert Prompt.objects.filter(learner=dana, kind="reading", kana_id="ka", status="open").exists()


@pytest.mark.django_db(transaction=True)
def test_a_finished_games_result_is_not_covered_by_its_open_questions(client, dana):
    """At the result, the questions still open (cards that entered the hand in the last moves)
    covered, as a bottom sheet on a phone, the result and what it counted for; they end with
    the game (left to expire unanswered and ungraded, as any unanswered question)."""
    from games.demo import _play_human_moves

    table = solo_table(dana)
    client.force_login(dana)
    assert 'id="table-prompts"' in client.get(table.get_absolute_url()).content.decode()
    _play_human_moves(table, dana, None)
    table.refresh_from_db()
    assert table.status == "finished"
    assert Prompt.objects.filter(learner=dana, table_id=table.pk, status="open").exists()
    html = client.get(table.get_absolute_url()).content.decode()
    assert 'class="ranking"' in html
    assert 'id="table-prompts"' not in html and "/learn/prompts/" not in html
