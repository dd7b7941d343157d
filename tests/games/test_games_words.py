"""The Kazoku word game on the web: every option through the create form, whole games over
HTTP, and the hidden-information check for its board."""

import pytest
from test_games_secrets import main_region
from test_games_views import HX, client_for, form_fields, post_move

from games.engines import get_engine
from games.engines.kazoku.deck import load_deck
from games.models import Move, Table

pytestmark = pytest.mark.django_db(transaction=True)
WORDS = "kazoku-words"

# Together these cover every value of every option (and table options).
OPTION_SETS = [
    {
        "decks": "1",
        "table_cards": "0",
        "end": "target",
        "script": "hiragana",
        "replay_on_give": "",
        "romaji": "always",
        "prompts": "off",
    },
    {
        "decks": "2",
        "start": "random",
        "table_cards": "3",
        "end": "pile_empty",
        "script": "katakana",
        "replay_on_give": "on",
        "romaji": "hover",
        "prompts": "new",
    },
    {
        "decks": "3",
        "first": "2",
        "table_cards": "4",
        "end": "target",
        "script": "mixed",
        "replay_on_give": "on",
        "romaji": "never",
        "prompts": "every",
    },
    {
        "decks": "1",
        "table_cards": "5",
        "end": "pile_empty",
        "script": "mixed",
        "replay_on_give": "",
        "romaji": "always",
        "prompts": "off",
    },
]


def create_words_table(client, options: dict, *, hand_size="6", target="5") -> Table:
    data = {
        "t-hand_size": hand_size,
        "t-target_points": target,
        "t-max_rounds": "30",
        "t-start": "youngest",
        "t-first": "0",
        "t-timer": "0",
        "t-seat_1": "easy",
        "t-seat_2": "hard",
        "t-seat_3": "",
    }
    for name, value in options.items():
        if value:
            data[f"t-{name}"] = value
    response = client.post(f"/play/new/{WORDS}/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.latest("id")


def play_words_to_the_end(client, table, limit=600) -> str:
    """Form a word when one is offered, else take the first action, until the game ends."""
    for _ in range(limit):
        page = client.get(f"/play/t/{table.code}/").content.decode()
        if "Game over." in page:
            return page
        fields = form_fields(page)
        forms = [a for a in fields["actions"] if '"type":"form"' in a]
        action = (forms or fields["actions"])[0]
        response = post_move(
            client, table, version=fields["version"], token=fields["token"], action=action
        )
        assert response.status_code == 302, response.content.decode()[:1000]
    raise AssertionError("the word game did not end")


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_option_plays_to_the_end_over_http(dana, options):
    client = client_for(dana)
    table = create_words_table(client, options)
    expected = {
        "decks": int(options["decks"]),
        "table_cards": int(options["table_cards"]),
        "end": options["end"],
        "script": options["script"],
        "replay_on_give": bool(options["replay_on_give"]),
        "romaji": options["romaji"],
        "start": options.get("start", "youngest"),
        "first": int(options.get("first", 0)),
    }
    assert {k: table.options[k] for k in expected} == expected
    first = client.get(f"/play/t/{table.code}/").content.decode()
    assert "Your hand" in first and f"romaji-{options['romaji']}" in first
    if int(options["table_cards"]):
        assert "Table cards" in first
    page = play_words_to_the_end(client, table)
    table.refresh_from_db()
    assert table.status == "finished"
    assert "Ranking" in page and "Watch the replay" in page
    versions = list(Move.objects.filter(table=table).values_list("version", flat=True))
    assert versions == list(range(1, table.version + 1))
    replay = client.get(f"/play/t/{table.code}/replay/", {"step": 1}, **HX)
    opener = Move.objects.get(table=table, version=1).seat
    mover = "Your move:" if opener == 0 else "Move by CPU"
    assert replay.status_code == 200 and mover in replay.content.decode()
    if "first" in options:  # the youngest player's seat, chosen at the table, plays first
        assert opener == int(options["first"])
    for step in sorted({0, 1, table.version // 2, table.version, *range(0, table.version, 9)}):
        page = client.get(f"/play/t/{table.code}/replay/", {"step": step}).content.decode()
        assert 'name="action"' not in page and "hx-post" not in page, step  # no move offered


def test_word_forms_are_labelled_with_their_card_sources(dana):
    client = client_for(dana)
    table = create_words_table(client, OPTION_SETS[0], target="60")
    for _ in range(300):
        page = client.get(f"/play/t/{table.code}/").content.decode()
        if "Words you can form" in page:
            assert "(hand)" in page and 'class="form-button"' in page
            return
        assert "Game over." not in page
        fields = form_fields(page)
        post_move(
            client,
            table,
            version=fields["version"],
            token=fields["token"],
            action=fields["actions"][0],
        )
    raise AssertionError("no word was ever formable")


def test_words_board_hides_other_hands_and_the_pile(dana, alice, bob, erin, alice_class):
    from games.services.tables import table_create

    table = table_create(
        user=bob,
        engine=WORDS,
        options={"table_cards": 3, "decks": 2, "script": "mixed"},
        seats=[
            {"kind": "human", "user": bob},
            {"kind": "human", "user": erin},
            {"kind": "bot", "level": "normal"},
        ],
        classroom=alice_class,
    )
    clients = {0: client_for(bob), 1: client_for(erin)}
    eng = get_engine(WORDS)
    deck = load_deck()
    for _ in range(12):
        table.refresh_from_db()
        state = eng.from_json(table.state)
        if eng.is_over(state):
            break
        seat = eng.to_act(state)[0]
        fields = form_fields(clients[seat].get(f"/play/t/{table.code}/").content.decode())
        post_move(
            clients[seat],
            table,
            version=fields["version"],
            token=fields["token"],
            action=fields["actions"][-1],
        )
    table.refresh_from_db()
    state = eng.from_json(table.state)
    for user, seat in ((bob, 0), (erin, 1), (alice, None)):
        view = eng.view(state, seat)
        visible = set(view["hand"] or []) | set(view["table"])
        for cards in view["scored"] + view["known"]:
            visible.update(cards)
        for event in view["log"]:
            visible.update([event["card"]] if "card" in event else [])
        hidden = set(table.state["pile"])
        for index, hand in enumerate(table.state["hands"]):
            if index != seat:
                hidden.update(hand)
        hidden -= visible
        visible_bases = {card.split(".")[0] for card in visible}
        # a kana named by an ask is public (the glyph, not where any card of it is)
        visible_bases.update(event["kana"] for event in view["log"] if "kana" in event)
        client = client_for(user)
        for page in (
            client.get(f"/play/t/{table.code}/").content.decode(),
            client.get(f"/play/t/{table.code}/poll/", {"v": "0"}, **HX).content.decode(),
        ):
            region = main_region(page)
            for card in hidden:
                assert f'data-card="{card}"' not in page
                base = card.split(".")[0]
                if base in deck.cards and base not in visible_bases:
                    glyphs = (deck.cards[base].hiragana, deck.cards[base].katakana)
                    # a glyph may still appear inside a visible card's printed word
                    words = " ".join(
                        deck.cards[b].extra["word"]["kana"]
                        for b in visible_bases
                        if b in deck.cards
                    )
                    if glyphs[0] not in words:
                        assert f'lang="ja">{glyphs[0]}<' not in region
                        assert f'lang="ja">{glyphs[1]}<' not in region
            assert str(table.seed) not in page
