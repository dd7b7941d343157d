"""The play pages through the Django test client: every flow, HTMX and plain POST."""

import html
import re

import pytest
from django.test import Client
from games_helpers import ASK_O, ASK_U, action_keys, quick_options, turn_passing_options

from games.models import Move, Seat, Table
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}
FAMILIES = "kazoku-families"


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def solo_table(user, players=4, **options) -> Table:
    seats = [{"kind": "human", "user": user}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    return table_create(user=user, engine=FAMILIES, options=options, seats=seats)


def duo_table(a, b, **options) -> Table:
    seats = [{"kind": "human", "user": a}, {"kind": "human", "user": b}]
    return table_create(user=a, engine=FAMILIES, options=options, seats=seats)


def form_fields(page: str) -> dict:
    """version, token and the legal action keys of a rendered board."""
    version = re.search(r'name="version" value="(\d+)"', page)
    token = re.search(r'name="token" value="([^"]+)"', page)
    actions = [html.unescape(v) for v in re.findall(r'name="action" value="([^"]+)"', page)]
    actions = action_keys(actions)  # the page posts opaque tokens (games.tokens)
    return {
        "version": version and version.group(1),
        "token": token and token.group(1),
        "actions": actions,
    }


def families_form(**fields) -> dict:
    """The create form of a kazoku-families table: default fields, ``fields`` overriding
    (names without the form's ``t-`` prefix; ``seat_1``... for the other seats)."""
    defaults = {
        "variant": "kana",
        "script": "hiragana",
        "hand_size": "5",
        "start": "youngest",
        "first": "0",
        "end": "all_families",
        "lay": "choice",
        "romaji": "always",
        "prompts": "off",
        "timer": "0",
    }
    return {f"t-{name}": value for name, value in {**defaults, **fields}.items()}


def post_move(client, table, *, version, token, action, htmx=False):
    data = {"version": version, "token": token, "action": action}
    return client.post(f"/play/t/{table.code}/", data, **(HX if htmx else {}))


class TestLobbyAndCreate:
    def test_anonymous_visitors_are_sent_to_login(self, client, db):
        response = client.get("/play/")
        assert response.status_code == 302 and "/login/" in response["Location"]

    def test_lobby_lists_games_class_tables_and_mine(self, bob, erin, charlie):
        waiting = table_create(
            user=erin,
            engine=FAMILIES,
            options={},
            seats=[{"kind": "human", "user": erin}, {"kind": "open"}],
            classroom=erin.memberships.first().classroom,
        )
        page = client_for(bob).get("/play/").content.decode()
        assert "New table: Kazoku: happy families" in page
        assert waiting.code in page  # bob's classmate's table
        assert waiting.code not in client_for(charlie).get("/play/").content.decode()

    def test_create_form_is_generated_from_the_engine_options(self, dana):
        page = client_for(dana).get(f"/play/new/{FAMILIES}/").content.decode()
        for name in ("variant", "hand_size", "end", "lay", "script", "romaji", "prompts", "timer"):
            assert f'name="t-{name}"' in page
        assert "Gojūon columns" in page and "30 seconds" in page
        youngest = page.split('name="t-first"', 1)[1].split("</select>", 1)[0]
        assert '<option value="0" selected>Seat 1</option>' in youngest  # seats count from 1
        assert '<option value="5">Seat 6</option>' in youngest
        assert client_for(dana).get("/play/new/chess/").status_code == 404

    def test_solo_table_starts_at_once_and_shows_the_board(self, dana):
        client = client_for(dana)
        response = client.post(
            f"/play/new/{FAMILIES}/",
            families_form(
                variant="gojuon",
                script="katakana",
                romaji="hover",
                timer="30",
                seat_1="easy",
                seat_2="normal",
                seat_3="hard",
            ),
        )
        table = Table.objects.get()
        assert response.status_code == 302 and response["Location"] == f"/play/t/{table.code}/"
        assert table.status == "playing"
        assert table.options["variant"] == "gojuon" and table.options["timer"] == 30
        assert [s.bot_level for s in table.seats.order_by("index")] == [
            "",
            "easy",
            "normal",
            "hard",
        ]
        page = client.get(response["Location"]).content.decode()
        assert "Your hand" in page and "romaji-hover" in page

    def test_invalid_options_get_a_clear_message_and_create_nothing(self, dana):
        response = client_for(dana).post(
            f"/play/new/{FAMILIES}/",
            families_form(hand_size="12", seat_1="easy", seat_2="easy", seat_3="easy"),
        )
        assert response.status_code == 400
        assert "leave no pile" in response.content.decode()
        assert not Table.objects.exists()

    def test_bad_timer_and_too_few_players_are_refused(self, dana):
        response = client_for(dana).post(
            f"/play/new/{FAMILIES}/",
            families_form(timer="45"),
        )
        page = response.content.decode()
        assert response.status_code == 400 and "45 is not one of the available choices" in page
        assert not Table.objects.exists()


class TestJoinLeaveReturn:
    def test_join_by_code_take_seat_and_come_back_to_it(self, bob, erin):
        table = table_create(
            user=bob,
            engine=FAMILIES,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}],
            classroom=bob.memberships.first().classroom,
        )
        erin_client = client_for(erin)
        response = erin_client.post("/play/join/", {"code": table.code.lower()})
        assert response.status_code == 302
        table.refresh_from_db()
        assert table.status == "playing"
        assert table.seats.get(index=1).user == erin
        # Another device: a fresh session of the same account finds the same seat.
        page = client_for(erin).get(f"/play/t/{table.code}/").content.decode()
        assert "Your hand" in page

    def test_a_waiting_table_shows_its_code_and_a_share_link(self, bob):
        """Issue 29: the classmate needs the code or the link; the page said "this page's
        link" without showing one (a phone hides its address bar)."""
        table = table_create(
            user=bob,
            engine=FAMILIES,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}],
        )
        page = client_for(bob).get(f"/play/t/{table.code}/").content.decode()
        waiting = page[page.index('class="waiting"') :]
        link = f"http://testserver/play/t/{table.code}/"
        assert f'href="{link}"' in waiting and f">{link}<" in waiting
        assert table.code in waiting

    def test_unknown_code_says_so(self, bob):
        response = client_for(bob).post("/play/join/", {"code": "NOPE99"}, follow=True)
        assert "No table has the code" in response.content.decode()

    def test_other_class_cannot_join(self, bob, charlie):
        table = table_create(
            user=bob,
            engine=FAMILIES,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}],
            classroom=bob.memberships.first().classroom,
        )
        response = client_for(charlie).post(f"/play/t/{table.code}/join/")
        assert response.status_code == 403
        assert table.seats.get(index=1).user is None

    def test_creator_starts_early_with_cpu_players(self, bob):
        table = table_create(
            user=bob,
            engine=FAMILIES,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}],
        )
        client = client_for(bob)
        assert "Start now" in client.get(f"/play/t/{table.code}/").content.decode()
        client.post(f"/play/t/{table.code}/start/", {"level": "hard"})
        table.refresh_from_db()
        assert table.status == "playing" and table.seats.get(index=1).bot_level == "hard"

    def test_leaving_keeps_the_seat_during_play(self, bob, erin):
        table = duo_table(bob, erin)
        response = client_for(erin).post(f"/play/t/{table.code}/leave/")
        assert response.status_code == 302
        seat = table.seats.get(index=1)
        assert seat.user == erin and seat.left_at is not None
        # opening the page is coming back, through the POST the page sends as it loads: the
        # GET itself changes nothing (issue #23, docs/web.md "GETs never write")
        page = client_for(erin).get(f"/play/t/{table.code}/").content.decode()
        seat.refresh_from_db()
        assert seat.left_at is not None
        assert f'hx-post="/play/t/{table.code}/back/" hx-trigger="load"' in page
        client_for(erin).post(f"/play/t/{table.code}/back/", **HX)
        seat.refresh_from_db()
        assert seat.left_at is None


class TestBoardAndMoves:
    def test_full_page_vs_htmx_partial(self, dana):
        table = solo_table(dana)
        client = client_for(dana)
        full = client.get(f"/play/t/{table.code}/").content.decode()
        partial = client.get(f"/play/t/{table.code}/", **HX).content.decode()
        assert full.startswith("<!DOCTYPE html>") and 'id="board"' in full
        assert not partial.lstrip().startswith("<!DOCTYPE") and "<html" not in partial
        assert partial.lstrip().startswith('<section id="board"')

    def test_htmx_move_returns_the_new_board_with_bots_done(self, dana):
        table = solo_table(dana, **quick_options(4))
        client = client_for(dana)
        fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
        assert fields["version"] == "0" and ASK_O in fields["actions"]
        response = post_move(
            client, table, version=0, token=fields["token"], action=ASK_O, htmx=True
        )
        assert response.status_code == 200
        page = response.content.decode()
        assert "<html" not in page and "Bonne pioche !" in page
        assert "Ranking" in page and "Watch the replay" in page
        table.refresh_from_db()
        assert table.status == "finished" and table.version == 1

    def test_plain_post_redirects_back_to_the_board(self, dana):
        table = solo_table(dana)
        client = client_for(dana)
        fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
        response = post_move(
            client,
            table,
            version=fields["version"],
            token=fields["token"],
            action=fields["actions"][0],
        )
        assert response.status_code == 302 and response["Location"] == f"/play/t/{table.code}/"
        table.refresh_from_db()
        assert table.version >= 1
        assert Move.objects.filter(table=table, seat=0).count() == 1

    def test_stale_version_gets_409_and_the_fresh_board(self, dana):
        table = solo_table(dana)
        client = client_for(dana)
        fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
        post_move(client, table, version=0, token=fields["token"], action=fields["actions"][0])
        table.refresh_from_db()
        before = (table.version, Move.objects.count())
        response = post_move(
            client, table, version=0, token="another", action=fields["actions"][0], htmx=True
        )
        assert response.status_code == 409
        page = response.content.decode()
        assert "The table changed before your move arrived." in page
        assert f'data-version="{table.version}"' in page
        table.refresh_from_db()
        assert (table.version, Move.objects.count()) == before

    def test_double_submit_with_the_same_token_plays_once(self, dana):
        table = solo_table(dana)
        client = client_for(dana)
        fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
        first = post_move(
            client, table, version=0, token=fields["token"], action=fields["actions"][0]
        )
        moves = Move.objects.count()
        second = post_move(
            client, table, version=0, token=fields["token"], action=fields["actions"][0]
        )
        assert first.status_code == second.status_code == 302
        assert Move.objects.count() == moves

    @pytest.mark.parametrize(
        ("who", "action", "version", "status", "message"),
        [
            ("erin", ASK_O, "0", 409, "It is not your turn."),
            ("charlie", ASK_O, "0", 403, "You are not playing at this table."),
            ("bob", '{"card":"o","target":5,"type":"ask"}', "0", 400, "not one of your legal"),
            ("bob", "not json at all", "0", 400, "not one of your legal"),
            ("bob", ASK_O, "", 400, "malformed"),
        ],
    )
    def test_bad_moves_get_a_clear_message_and_change_nothing(
        self, bob, erin, charlie, who, action, version, status, message
    ):
        table = duo_table(bob, erin, **quick_options(2))
        user = {"bob": bob, "erin": erin, "charlie": charlie}[who]
        response = post_move(client_for(user), table, version=version, token="t", action=action)
        assert response.status_code == status
        assert message in response.content.decode()
        table.refresh_from_db()
        assert table.version == 0 and not Move.objects.exists()

    def test_unknown_table_is_404(self, bob):
        client = client_for(bob)
        assert client.get("/play/t/ZZZZZZ/").status_code == 404
        assert (
            post_move(client, Table(code="ZZZZZZ"), version=0, token="t", action=ASK_O).status_code
            == 404
        )

    def test_other_class_table_is_403(self, bob, charlie):
        table = solo_table(bob)
        table.classroom_id = bob.memberships.first().classroom_id
        table.save()
        response = client_for(charlie).get(f"/play/t/{table.code}/")
        assert response.status_code == 403
        assert "another class" in response.content.decode()

    def test_finished_table_refuses_moves(self, dana):
        table = solo_table(dana, **quick_options(4))
        client = client_for(dana)
        post_move(client, table, version=0, token="a", action=ASK_O)
        response = post_move(client, table, version=1, token="b", action=ASK_O)
        assert response.status_code == 409 and "This game is over." in response.content.decode()

    def test_csrf_is_required(self, dana):
        table = solo_table(dana)
        client = Client(enforce_csrf_checks=True)
        client.force_login(dana)
        response = post_move(client, table, version=0, token="t", action="x")
        assert response.status_code == 403
        table.refresh_from_db()
        assert table.version == 0


class TestPolling:
    def test_204_when_unchanged_board_when_changed_286_when_over(self, bob, erin):
        table = duo_table(bob, erin, **quick_options(2))
        erin_client = client_for(erin)
        url = f"/play/t/{table.code}/poll/"
        assert erin_client.get(url, {"v": "0"}, **HX).status_code == 204
        post_move(client_for(bob), table, version=0, token="a", action=ASK_O)
        response = erin_client.get(url, {"v": "0"}, **HX)
        assert response.status_code == 286
        assert "Ranking" in response.content.decode()
        assert erin_client.get(url, **HX).status_code == 400

    def test_poll_during_play_returns_the_partial(self, bob, erin):
        table = duo_table(bob, erin)
        fields = form_fields(client_for(bob).get(f"/play/t/{table.code}/").content.decode())
        post_move(client_for(bob), table, version=0, token="a", action=fields["actions"][0])
        response = client_for(erin).get(f"/play/t/{table.code}/poll/", {"v": "0"}, **HX)
        assert response.status_code == 200
        assert response.content.decode().lstrip().startswith('<section id="board"')

    def test_waiting_table_poll_notices_a_join(self, bob, erin):
        table = table_create(
            user=bob,
            engine=FAMILIES,
            options={},
            seats=[{"kind": "human", "user": bob}, {"kind": "open"}, {"kind": "open"}],
            classroom=bob.memberships.first().classroom,
        )
        client = client_for(bob)
        page = client.get(f"/play/t/{table.code}/").content.decode()
        tag = re.search(r"poll/\?v=([^\"]+)\"", page).group(1)
        assert client.get(f"/play/t/{table.code}/poll/", {"v": tag}).status_code == 204
        client_for(erin).post(f"/play/t/{table.code}/join/")
        assert client.get(f"/play/t/{table.code}/poll/", {"v": tag}).status_code == 200

    def test_board_polls_slower_when_hidden_and_syncs_with_moves(self, dana):
        table = solo_table(dana)
        page = client_for(dana).get(f"/play/t/{table.code}/").content.decode()
        # no trigger filter (htmx would need eval, which the CSP forbids): the intervals are
        # data for static/js/board-poll.js (tests/browser/test_browser_poll.py)
        assert 'hx-trigger="every 2s, kanagame:poll"' in page
        assert 'data-poll-fast="2" data-poll-hidden="15"' in page
        assert "visibilityState" not in page
        assert "js/board-poll.js" in page
        # a move waits for an in-flight poll instead of aborting it: htmx reports every
        # aborted request as a console error (htmx:sendAbort), issue 29's journey met it
        assert 'hx-sync="this:drop"' in page and 'hx-sync="#board:queue last"' in page
        assert "#board:replace" not in page


class TestTimerAndAway:
    def test_overdue_turn_is_played_by_a_cpu_and_the_board_says_so(self, bob, erin):
        from datetime import timedelta

        from django.utils import timezone

        table = duo_table(bob, erin, timer=30, **turn_passing_options())
        post_move(client_for(bob), table, version=0, token="a", action=ASK_U)
        table.refresh_from_db()
        assert table.state["turn"] == 1 and table.turn_due_at is not None
        Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(seconds=1))
        version = table.version
        # Bob's page polls: the overdue turn is played by erin's stand-in.
        client_for(bob).get(f"/play/t/{table.code}/poll/", {"v": str(version)}, **HX)
        table.refresh_from_db()
        assert table.version > version
        assert Seat.objects.get(table=table, index=1).autoplay
        bob_page = client_for(bob).get(f"/play/t/{table.code}/", **HX).content.decode()
        assert "away: CPU plays" in bob_page
        # Erin's poll shows her the notice; opening the page (or "I'm back") returns her.
        erin = client_for(erin)
        poll = erin.get(f"/play/t/{table.code}/poll/", {"v": "0"}, **HX).content.decode()
        assert "a CPU player is playing for you" in poll
        erin.post(f"/play/t/{table.code}/back/")
        assert not Seat.objects.get(table=table, index=1).autoplay


class TestSpectateAndReplay:
    def test_teacher_watches_a_student_table_without_hands(self, alice, bob):
        table = solo_table(bob)
        page = client_for(alice).get(f"/play/t/{table.code}/").content.decode()
        assert "You are watching" in page and "Your hand" not in page
        assert 'name="action"' not in page
        watch_list = client_for(alice).get("/play/").content.decode()
        assert table.code in watch_list

    def test_teacher_cannot_play(self, alice, bob):
        table = solo_table(bob)
        response = post_move(client_for(alice), table, version=0, token="t", action=ASK_O)
        assert response.status_code == 403
        table.refresh_from_db()
        assert table.version == 0

    def test_replay_steps_through_the_moves(self, dana):
        table = solo_table(dana, players=2)
        client = client_for(dana)
        play_to_the_end(client, table)
        table.refresh_from_db()
        total = table.version
        first = client.get(f"/play/t/{table.code}/replay/", {"step": 0}).content.decode()
        assert f"Move 0 of {total}" in first and "The deal: no move yet." in first
        assert 'name="action"' not in first and "hx-post" not in first  # no move offered
        step1 = client.get(f"/play/t/{table.code}/replay/", {"step": 1}, **HX)
        assert step1.status_code == 200 and "<html" not in step1.content.decode()
        assert "Your move:" in step1.content.decode()  # dana plays first
        movers = {
            client.get(f"/play/t/{table.code}/replay/", {"step": n})
            .content.decode()
            .count("Move by CPU 2 (easy):")
            for n in range(1, total + 1)
        }
        assert movers == {0, 1}  # the CPU's moves are named, once a step
        last = client.get(f"/play/t/{table.code}/replay/").content.decode()
        assert f"Move {total} of {total}" in last
        assert client.get(f"/play/t/{table.code}/replay/", {"step": total + 1}).status_code == 404
        assert client.get(f"/play/t/{table.code}/replay/", {"step": "x"}).status_code == 400

    def test_replay_re_runs_to_the_stored_state(self, dana):
        from games.engines import get_engine
        from games.services.replay import table_replay

        table = solo_table(dana, players=3)
        play_to_the_end(client_for(dana), table)
        table.refresh_from_db()
        state, _events, move = table_replay(table=table, step=table.version)
        assert get_engine(FAMILIES).to_json(state) == table.state
        assert move.version == table.version

    def test_replay_is_only_for_finished_games_and_allowed_viewers(self, dana, charlie):
        table = solo_table(dana)
        assert client_for(dana).get(f"/play/t/{table.code}/replay/").status_code == 409
        assert client_for(charlie).get(f"/play/t/{table.code}/replay/").status_code == 403


def play_to_the_end(client, table, limit=400):
    """Click the first legal action until the game is over (each request checked)."""
    for _ in range(limit):
        page = client.get(f"/play/t/{table.code}/").content.decode()
        if "Game over." in page:
            return page
        fields = form_fields(page)
        assert fields["actions"], "no action offered but the game is not over"
        response = post_move(
            client,
            table,
            version=fields["version"],
            token=fields["token"],
            action=fields["actions"][0],
        )
        assert response.status_code == 302, response.content.decode()[:500]
    raise AssertionError("the game did not end")


def test_a_whole_game_against_three_cpu_players_over_http(dana):
    table = solo_table(dana, players=4, variant="themed")
    client = client_for(dana)
    page = play_to_the_end(client, table)
    table.refresh_from_db()
    assert table.status == "finished" and table.finished_at is not None
    assert "Ranking" in page and "#1" in page
    versions = list(Move.objects.filter(table=table).values_list("version", flat=True))
    assert versions == list(range(1, table.version + 1))
    assert Move.objects.filter(table=table, by_bot=False).exclude(seat=0).count() == 0


def test_learning_hook_records_what_the_learner_saw(dana):
    from learning.models import LearningEvent

    table = solo_table(dana)
    hand = set(table.state["hands"][0])
    seen = set(
        LearningEvent.objects.filter(learner=dana, table_id=table.pk).values_list(
            "kana_id", flat=True
        )
    )
    assert hand <= seen  # the deal's hand was recorded as exposures
    page = client_for(dana).get(f"/play/t/{table.code}/").content.decode()
    assert 'id="table-prompts"' in page  # "new" prompts for the dealt cards


def test_an_assignment_opens_a_prefilled_table_linked_to_it(bob, charlie, alice_class, dave_class):
    from datetime import timedelta

    from django.utils import timezone

    from learning.classroom.models import Assignment

    assignment = Assignment.objects.create(
        classroom=alice_class,
        title="Rows of kana",
        engine=FAMILIES,
        options={"variant": "gojuon"},
        script="katakana",
        due_at=timezone.now() + timedelta(days=3),
        goal_value=2,
    )
    client = client_for(bob)
    lobby = client.get("/play/").content.decode()
    # the lobby plays it in one tap (tests/classroom/test_assignment_play.py); the form stays
    assert "Rows of kana" in lobby and f'action="/assignments/{assignment.pk}/play/"' in lobby
    # the classroom's page for it: games' create form, filled with the teacher's settings
    url = f"/assignments/{assignment.pk}/new/{FAMILIES}/"
    form = client.get(url).content.decode()
    assert 'value="gojuon" selected' in form and 'value="katakana" selected' in form
    assert "This table counts for your assignment" in form
    response = client.post(
        url,
        families_form(
            variant="gojuon", script="katakana", seat_1="easy", classroom=str(alice_class.pk)
        ),
    )
    assert response.status_code == 302
    table = Table.objects.get(created_by=bob)
    assert table.assignment_link.assignment == assignment and table.classroom == alice_class
    # The table's class is the assignment's: another class of the student's is refused.
    other = client.post(url, families_form(seat_1="easy", classroom=str(dave_class.pk)))
    assert other.status_code == 400 and Table.objects.filter(created_by=bob).count() == 1
    # Someone outside the class cannot attach a table to it.
    outsider = client_for(charlie).post(
        url, families_form(seat_1="easy", classroom=str(dave_class.pk))
    )
    assert outsider.status_code == 404 and not Table.objects.filter(created_by=charlie).exists()
    # games' own create form knows no assignment: a table made there is linked to none
    client_for(charlie).post(
        f"/play/new/{FAMILIES}/",
        {"assignment": assignment.pk, **families_form(seat_1="easy", classroom=str(dave_class.pk))},
    )
    assert not hasattr(Table.objects.get(created_by=charlie), "assignment_link")


@pytest.mark.parametrize("mode", ["always", "hover", "never"])
def test_romaji_option_is_honoured_on_cards_and_buttons(dana, mode):
    table = solo_table(dana, romaji=mode, variant="kana", prompts="off")  # no question open
    page = client_for(dana).get(f"/play/t/{table.code}/").content.decode()
    hand = re.search(r'<section class="my-hand".*?</section>', page, re.S).group(0)
    card = table.state["hands"][0][0]
    if mode == "never":
        assert 'class="romaji"' not in hand
        assert f"({card.upper()})" not in page  # not in the buttons' labels either
    else:
        assert f'<span class="romaji">{card.upper()}</span>' in hand
    assert (f'title="{card.upper()}"' in hand) == (mode == "hover")


def test_hover_romaji_cards_take_the_keyboard_focus_outside_buttons(dana):
    hover = solo_table(dana, romaji="hover", prompts="off")  # no question open
    page = client_for(dana).get(f"/play/t/{hover.code}/").content
    page = page.decode()
    hand = page.split('class="my-hand"', 1)[1].split("</section>", 1)[0]
    assert hand.count('tabindex="0"') == 5  # the five cards dealt
    buttons = re.findall(r'<button type="submit" name="action".*?</button>', page, re.S)
    assert buttons and not any("tabindex" in b for b in buttons)  # no focus inside a button
    always = solo_table(dana, prompts="off")
    always = client_for(dana).get(f"/play/t/{always.code}/").content.decode()
    assert 'tabindex="0"' not in always  # romaji always shown: nothing to reveal
