"""The Yokai board over HTTP: a whole game with CPU teammates, refusals, private peeks."""

import json
import re

import pytest
from test_games_views import HX, client_for, form_fields, play_to_the_end, post_move

from games.engines import action_key, get_engine
from games.models import Move, Table
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)

ENG = get_engine("yokai")
ROWS = ["kitsune"] * 4 + ["kappa"] * 4 + ["rokurokubi"] * 4 + ["oni"] * 4


def key(**action) -> str:
    return action_key(action)


def yokai_table(*seats, **options) -> Table:
    creator = seats[0]["user"]
    return table_create(user=creator, engine="yokai", options=options, seats=list(seats))


def human(user):
    return {"kind": "human", "user": user}


def snapshot(table: Table) -> tuple:
    table.refresh_from_db()
    return table.version, table.state, Move.objects.filter(table=table).count()


def page_of(client, table) -> str:
    return client.get(f"/play/t/{table.code}/").content.decode()


def test_a_whole_game_with_a_cpu_teammate_over_http(dana):
    table = yokai_table(human(dana), {"kind": "bot", "level": "normal"}, level=1)
    client = client_for(dana)
    first = page_of(client, table)
    assert "Step 1: peek at 2 more yokai" in first and 'id="yk-grid"' in first
    assert first.count('aria-label="Peek at row') == 16  # every yokai is a real button
    page = play_to_the_end(client, table)
    table.refresh_from_db()
    assert table.status == "finished"
    assert "The yokai are appeased" in page or "The yokai are not appeased" in page
    assert "Ranking" not in page  # one team: the result, not a ranking
    assert page.count("fam-") >= 16  # every yokai turned over at the end
    assert Move.objects.filter(table=table, by_bot=False).exclude(seat=0).count() == 0
    assert Move.objects.filter(table=table, seat=1).exists()  # the CPU teammate played
    replay = client.get(f"/play/t/{table.code}/replay/")
    assert replay.status_code == 200 and 'id="yk-grid"' in replay.content.decode()


def test_a_peek_shows_the_family_to_me_only_and_records_an_exposure(dana, charlie):
    from learning.models import LearningEvent

    setup = {"grid": ROWS, "clues": ["clue-oni", "clue-kappa"], "first": 0}
    table = yokai_table(human(dana), human(charlie), level=1, setup=setup)
    dana_client, charlie_client = client_for(dana), client_for(charlie)
    fields = form_fields(page_of(dana_client, table))
    response = post_move(
        dana_client, table, version=fields["version"], token=fields["token"],
        action=key(type="peek", row=0, col=0),
    )  # fmt: skip
    assert response.status_code == 302
    mine = page_of(dana_client, table)
    assert "きつね" in mine and "fam-kitsune" in mine and "You peeked at a yokai" in mine
    theirs = page_of(charlie_client, table)
    assert "きつね" not in theirs and "kitsune" not in theirs and "fam-" not in theirs
    assert "Dana peeked at a yokai." in theirs
    seen = set(
        LearningEvent.objects.filter(learner=dana, table_id=table.pk).values_list(
            "kana_id", flat=True
        )
    )
    assert {"ki", "tsu", "ne"} <= seen
    assert 'id="table-prompts"' in mine  # a question about the kana of the peeked name
    assert not LearningEvent.objects.filter(learner=charlie, kana_id="ki").exists()


def test_refusals_change_nothing(dana, charlie):
    setup = {"grid": ROWS, "clues": ["clue-oni", "clue-kappa", "clue-kitsune"], "first": 0}
    table = yokai_table(human(dana), human(charlie), level=1, setup=setup)
    dana_client, charlie_client = client_for(dana), client_for(charlie)

    def post(client, action, *, version=None, htmx=False):
        fields = form_fields(page_of(client, table))
        return post_move(
            client, table, version=version or fields["version"], token=fields["token"],
            action=action, htmx=htmx,
        )  # fmt: skip

    def play(client, **action):
        assert post(client, key(**action)).status_code == 302

    # dana reveals a clue, charlie places it on (1, 1): that yokai is locked
    play(dana_client, type="peek", row=0, col=0)
    play(dana_client, type="peek", row=0, col=1)
    play(dana_client, type="move", row=3, col=3, to_row=4, to_col=2)
    play(dana_client, type="reveal")
    before = snapshot(table)
    for client, action, status, message in [
        (dana_client, key(type="peek", row=2, col=2), 409, "not your turn"),  # out of turn
        (charlie_client, key(type="peek", row=9, col=9), 400, "not one of your legal moves"),
        (charlie_client, '{"type":"peek"}', 400, ""),
        (charlie_client, "not json", 400, ""),
        (charlie_client, key(type="move", row=0, col=0, to_row=-1, to_col=0), 400, ""),
    ]:
        for htmx in (False, True):
            response = post(client, action, htmx=htmx)
            assert response.status_code == status, response.content.decode()[:300]
            if message:
                assert message in response.content.decode()
            assert snapshot(table) == before
    stale = post(charlie_client, key(type="peek", row=2, col=2), version=1, htmx=True)
    assert stale.status_code == 409 and snapshot(table) == before
    play(charlie_client, type="peek", row=2, col=2)
    play(charlie_client, type="peek", row=2, col=3)
    play(charlie_client, type="move", row=4, col=2, to_row=3, to_col=3)
    play(charlie_client, type="place", slot=0, row=1, col=1)
    before = snapshot(table)
    locked = post(dana_client, key(type="peek", row=1, col=1))
    assert locked.status_code == 400 and "not one of your legal" in locked.content.decode()
    assert snapshot(table) == before
    page = page_of(dana_client, table)
    assert json.dumps({"col": 1, "row": 1, "type": "peek"}) not in page.replace("&quot;", '"')


def test_the_board_has_no_chat_and_draws_face_down_cards_with_text(dana):
    table = yokai_table(human(dana), {"kind": "bot", "level": "easy"}, level=5)
    page = page_of(client_for(dana), table)
    assert "chat" not in page.lower()
    assert "a face-down yokai" in page
    assert "Objective" in page and 'class="yk-shape"' in page


def test_level_2_the_affinity_card_reaches_the_first_player_only(dana, charlie):
    setup = {"grid": ROWS, "clues": ["clue-oni"], "first": 1, "affinity": "affinity-kappa-oni"}
    table = yokai_table(human(dana), human(charlie), level=2, setup=setup)
    assert "Affinity (only you see it)" in page_of(client_for(charlie), table)
    theirs = page_of(client_for(dana), table)
    assert "secret affinity" in theirs and "かっぱ" not in theirs


def test_the_htmx_answer_is_the_board_partial(dana):
    table = yokai_table(human(dana), {"kind": "bot", "level": "easy"})
    client = client_for(dana)
    fields = form_fields(page_of(client, table))
    response = post_move(
        client, table, version=fields["version"], token=fields["token"],
        action=fields["actions"][0], htmx=True,
    )  # fmt: skip
    assert response.status_code == 200
    assert 'id="yk-grid"' in response.content.decode() and HX


def test_the_static_stylesheet_covers_every_grid_width_yokai_and_clue():
    """No inline style (CSP): the rules showing a chosen yokai's or clue's places and the grid
    widths live in static/css/yokai.css, one per index the presenter can produce."""
    from django.conf import settings

    from games.engines.yokai.data import CLUES, YOKAI

    css = (settings.BASE_DIR / "static" / "css" / "yokai.css").read_text("utf-8")
    for i in range(len(YOKAI)):
        assert f"#yk-grid:has(#yk-src-{i}:checked) .for-yk-src-{i} " in css
    for slot in range(len(CLUES)):
        assert f".yokai:has(#yk-slot-{slot}:checked) .for-yk-slot-{slot} " in css
    for cols in range(3, len(YOKAI) + 3):  # a line of 16 yokai plus the empty ring
        assert f".yokai .yk-cols-{cols} {{ --yk-cols: {cols}; }}" in css


def plan_cells(page: str) -> list[list[str]]:
    grid = re.search(r'<div class="yk-plan-grid"[^>]*>(.*?)</div></div>', page, re.S).group(1)
    rows = re.findall(r'<div class="yk-plan-row">(.*?)(?:</div>|$)', grid, re.S)
    return [re.findall(r"<span[^>]*>([^<]*)</span>", row) for row in rows]


def test_the_cpu_teammates_plan_is_shown_to_the_humans_who_play_with_them(dana, charlie):
    """Where the CPU teammates play by a frame (docs/rules/yokai.md), the board shows its blocks
    with the families' names, so that a human can read their moves and play along; not with
    `easy` CPUs (no frame), not with two players at level 1, not once the game is over."""
    setup = {"grid": ROWS, "clues": ["clue-oni"], "first": 0, "objective": "scroll"}
    table = yokai_table(human(dana), {"kind": "bot", "level": "hard"}, level=5, setup=setup)
    client = client_for(dana)
    scroll = page_of(client, table)
    assert "Your CPU teammates&#x27; plan" in scroll or "Your CPU teammates' plan" in scroll
    assert plan_cells(scroll) == [["き", "き", "か", "か", "ろ", "ろ", "お", "お"]] * 2
    assert "き き か か ろ ろ お お / き き か か ろ ろ お お" in scroll  # the text alternative
    assert "きつね (kitsune)" in scroll and "ろくろくび (rokurokubi)" in scroll
    assert "two middle rows" in scroll
    three = yokai_table(human(dana), {"kind": "bot", "level": "normal"},
                        {"kind": "bot", "level": "normal"}, level=2, script="katakana")  # fmt: skip
    page = page_of(client_for(dana), three)
    assert plan_cells(page) == [
        ["キ", "キ", "キ", "カ"], ["キ", "ロ", "ロ", "カ"], ["オ", "ロ", "ロ", "カ"],
        ["オ", "オ", "オ", "カ"],
    ]  # fmt: skip
    for seats, options in (
        ([{"kind": "bot", "level": "easy"}], {"level": 5}),
        ([{"kind": "bot", "level": "hard"}], {"level": 1}),
        ([human(charlie)], {"level": 5}),
    ):
        page = page_of(client_for(dana), yokai_table(human(dana), *seats, **options))
        assert "yk-plan" not in page, (seats, options)
    finished = play_to_the_end(client, table)
    assert "yk-plan" not in finished


@pytest.mark.parametrize("aids", [False, True])
def test_memory_aids_are_a_table_option_the_board_names(dana, charlie, aids):
    """As printed the peeked yokai go back face down at the end of the turn; with the memory
    aids option (a help for beginners) the board keeps them and says so."""
    setup = {"grid": ROWS, "clues": ["clue-oni", "clue-kappa"], "first": 0}
    table = yokai_table(
        human(dana), human(charlie), level=1, memory_aids=aids, prompts="off", setup=setup
    )
    client = client_for(dana)
    for action in (
        key(type="peek", row=0, col=0),
        key(type="peek", row=0, col=1),
        key(type="move", row=3, col=3, to_row=4, to_col=2),
        key(type="reveal"),
    ):
        fields = form_fields(page_of(client, table))
        post_move(client, table, version=fields["version"], token=fields["token"], action=action)
    page = page_of(client, table)
    table.refresh_from_db()
    assert table.version == 4
    assert ("fam-kitsune" in page) is aids and ("きつね" in page) is aids
    assert ("Memory aids are on" in page) is aids
    assert ("the yokai go back face down at the end of your turn" in page) is not aids
