"""A third game joins the lobby, the learning hook and the picker with no edit outside its
engine: the toy below is registered only here (ENGINES patched), yet the lobby offers it,
its deal records exposures for a learner, and the picker proposes it. Every page that names a
game shows the toy's own name and option labels (the Display contract), and its ``ranked``
flag alone offers ranked tables."""

import random
import re

import pytest

from games.engines import ENGINES, get_engine
from games.engines.base import Bot, Engine, IllegalAction, Option, WordExample, gettext_noop
from games.engines.conformance import check_display, check_practice
from games.models import Table
from games.services.tables import table_create
from learning.models import LearningEvent
from learning.picker import recommend

CARDS = ("nu", "ne", "ro", "wa")


class ToyBot(Bot):
    def choose(self, view, legal_actions, rng: random.Random) -> dict:
        return legal_actions[0]


class Peek(Engine):
    """Each seat turns its face-down card up; the game ends when every card is up."""

    name = "toy-peek"
    title = gettext_noop("Toy: peek")
    blurb = gettext_noop("Turn your card up.")
    MIN_PLAYERS, MAX_PLAYERS = 2, 4
    ranked = True
    DESCRIBED_OPTIONS = ("pace",)
    OPTIONS = (
        Option(
            "pace",
            "choice",
            "calm_pace",
            gettext_noop("Toy pace"),
            choices=("calm_pace", "rush_pace"),
            choice_labels=(gettext_noop("Toy calmly"), gettext_noop("Toy in a rush")),
        ),
    )

    def new_game(self, players, seed, options=None):
        self.validate_options(options)
        return {"players": players, "up": [False] * players, "turn": 0}

    def to_act(self, state):
        return [] if all(state["up"]) else [state["turn"]]

    def legal_actions(self, state, seat):
        return [{"type": "peek"}] if seat in self.to_act(state) else []

    def apply(self, state, seat, action):
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Not your turn.")
        up = [*state["up"][:seat], True, *state["up"][seat + 1 :]]
        return {**state, "up": up, "turn": (seat + 1) % state["players"]}, []

    def view(self, state, seat):
        up = [CARDS[s] if state["up"][s] or s == seat else None for s in range(state["players"])]
        return {"cards": up, "hand": [CARDS[seat]] if seat is not None else None}

    def is_over(self, state):
        return not self.to_act(state)

    def outcome(self, state):
        return {"scores": [0] * state["players"], "ranks": [1] * state["players"]}

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)

    def bot(self, level):
        return ToyBot()

    def kana_on(self, card_id, options=None):
        return [card_id]

    def cards_shown(self, view):
        return {card: "katakana" for card in view["cards"] if card}

    def practice_presets(self):
        return [{"pace": "rush_pace"}]

    def practice(self, options):
        return frozenset(CARDS)

    def word_examples(self, kana_id):
        if kana_id != "nu":
            return []
        return [WordExample(kana="ぬの", romaji="nuno", meanings={"en": "cloth", "fr": "tissu"})]


ENGINE = Peek()


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(ENGINES, "toy-peek", __name__)
    return "toy-peek"


@pytest.fixture
def only_toy(toy, monkeypatch):
    """The toy is the only registered game (so every list of games shows it)."""
    for name in [name for name in ENGINES if name != toy]:
        monkeypatch.delitem(ENGINES, name)
    return toy


def test_the_toy_meets_the_learning_side_of_the_contract(toy):
    assert check_practice(get_engine(toy)) == []


def test_the_toy_meets_the_display_contract(toy):
    assert check_display(get_engine(toy)) == []
    assert get_engine(toy).describe({}) == "Toy calmly"


@pytest.mark.django_db(transaction=True)
def test_the_learner_dashboard_names_its_recommendation_by_the_toy_s_words(only_toy, dana, client):
    client.force_login(dana)
    page = client.get("/learn/").content.decode()
    assert "Toy: peek" in page and "Toy in a rush" in page
    assert "rush_pace" not in page and "Kazoku" not in page


@pytest.mark.django_db(transaction=True)
def test_the_home_page_lists_the_toy_as_a_game(only_toy, client):
    page = client.get("/").content.decode()
    assert "Toy: peek" in page and "Turn your card up." in page
    assert "coming soon" not in page


@pytest.mark.django_db(transaction=True)
def test_the_teacher_pages_name_the_toy_and_its_options(toy, alice, alice_class, client):
    client.force_login(alice)
    url = f"/teach/{alice_class.pk}/assignments/"
    menu = client.get(url).content.decode()
    assert f'<option value="{toy}">Toy: peek</option>' in menu
    created = client.post(
        url,
        {
            "engine": toy,
            "game-pace": "rush_pace",
            "game-script": "katakana",
            "game-romaji": "never",
            "game-prompts": "new",
            "game-timer": "0",
            "due_at": "2999-01-01T10:00",
            "goal_kind": "games",
            "goal_value": "2",
        },
    )
    errors = re.findall(r"errorlist[^<]*<li>[^<]*", created.content.decode())
    assert created.status_code == 302, errors
    listed = client.get(url).content.decode()
    assert "Toy: peek · Toy in a rush" in listed
    assert "rush_pace" not in listed and "pace:" not in listed


@pytest.mark.django_db(transaction=True)
def test_a_ranked_engine_is_offered_ranked_tables(toy, dana, client):
    client.force_login(dana)
    assert 'name="t-ranked"' in client.get(f"/play/new/{toy}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_lobby_offers_the_new_game(toy, dana, client):
    client.force_login(dana)
    page = client.get("/play/").content.decode()
    assert "Toy: peek" in page and "Turn your card up." in page
    assert client.get(f"/play/new/{toy}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_its_deal_records_what_the_learner_sees(toy, dana, django_capture_on_commit_callbacks):
    seats = [{"kind": "human", "user": dana}, {"kind": "bot", "level": "easy"}]
    with django_capture_on_commit_callbacks(execute=True):
        table = table_create(user=dana, engine=toy, options={}, seats=seats)
    exposures = LearningEvent.objects.filter(learner=dana, kind="exposure", table_id=table.pk)
    assert {(e.kana_id, e.script) for e in exposures} >= {("nu", "katakana")}
    assert Table.objects.get(pk=table.pk).status == "playing"


@pytest.mark.django_db(transaction=True)
def test_the_picker_proposes_it(toy, dana):
    toys = [rec for rec in recommend(dana) if rec.engine == toy]
    assert len(toys) == 1 and dict(toys[0].options) == {"pace": "rush_pace"}
    assert {kana for kana, _script in toys[0].kana} <= set(CARDS) and toys[0].kana


@pytest.mark.django_db(transaction=True)
def test_the_kana_page_shows_the_toy_s_words(only_toy, dana, client):
    client.force_login(dana)
    page = client.get("/learn/kana/hiragana/nu/").content.decode()
    assert "ぬの" in page and "cloth" in page
    assert "ヌノ" in client.get("/learn/kana/katakana/nu/").content.decode()
    assert "ぬの" not in client.get("/learn/kana/hiragana/ne/").content.decode()
