"""Stacked Kazoku deals for the games web tests (imported by name: conftest is ambiguous)."""


def one_move_setup(players: int = 2) -> dict:
    """A Kazoku kana-rows deal that ends after one move: seat 0 holds A I U E, the pile is
    just O; asking anyone for O draws it ("Bonne pioche !") and empties the pile, which ends a
    ``pile_empty`` game."""
    from games.engines.kazoku.deck import load_deck

    rest = [card for card in load_deck().ids if card not in ("a", "i", "u", "e", "o")]
    hands = [["a", "i", "u", "e"]] + [[] for _ in range(players - 1)]
    for index, card in enumerate(rest):
        hands[1 + index % (players - 1)].append(card)
    return {"hands": hands, "pile": ["o"], "table": [], "first": 0}


def quick_options(players: int = 2, **extra) -> dict:
    return {"variant": "kana", "end": "pile_empty", "setup": one_move_setup(players), **extra}


ASK_O = '{"card":"o","target":1,"type":"ask"}'


def turn_passing_options() -> dict:
    """Two seats; seat 0 asking seat 1 for U fails and draws E: the turn passes to seat 1."""
    from games.engines.kazoku.deck import load_deck

    hands = [["a", "i", "ka", "sa", "ta"], ["ki", "shi", "chi", "ni", "hi"]]
    dealt = {card for hand in hands for card in hand}
    pile = [card for card in load_deck().ids if card not in dealt and card != "u"] + ["u"]
    setup = {"hands": hands, "pile": pile, "table": [], "first": 0}
    return {"variant": "kana", "setup": setup}


ASK_U = '{"card":"u","target":1,"type":"ask"}'


def action_keys(values: list[str]) -> list[str]:
    """The action keys behind a page's action buttons. Pages post opaque per-table tokens
    (``games.tokens``: keys hold card ids, which spell readings); each is mapped back here by
    computing the tokens of every seat's legal actions at every table of the test database
    (a value that is no token of a legal action is kept as it is, and fails the test)."""
    from games.engines import action_key, get_engine
    from games.models import Table
    from games.tokens import action_token

    if not any(value.startswith("a") for value in values):
        return values
    known: dict[str, str] = {}
    for table in Table.objects.exclude(state__isnull=True):
        eng = get_engine(table.engine)
        state = eng.from_json(table.state)
        for seat in range(table.seats.count()):
            for action in eng.legal_actions(state, seat):
                key = action_key(action)
                known[action_token(table.pk, key)] = key
    return [known.get(value, value) for value in values]
