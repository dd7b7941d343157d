"""Names come from the games (issue 25, "Names come from the games"; ARCHITECTURE §2 Display):
every page type a person sees, for each engine, in English, French and Japanese, shows no raw
engine id (``kazoku-families``, ``koikoi``...), no option key (``bright_points``) or id-like
value (``10_5``, ``all_families``), no ``key: value`` pair and no Python ``True``/``False``.

Per engine, one class with one assignment, a table in play and a finished one (for the replay)
of that engine only (the other engines are unregistered for the test, so the learner's
recommendations and the home page list show it). Visible text is what a person reads: text
nodes outside ``<script>``/``<style>``, the tab title, and the ``aria-label``, ``title``,
``alt`` and ``placeholder`` attributes; the CSV export is read cell by cell.
"""

import csv
import io
import re
import uuid
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.utils import timezone, translation

from games.engines import ENGINES, get_engine
from games.engines.base import action_key
from games.models import Seat, Table, TableStatus
from games.services.play import table_bots_play, table_play
from games.services.tables import table_create, table_options_validate
from learning.classroom.models import Assignment

ENGINE_IDS = tuple(ENGINES)  # every registered engine, read before any test unregisters some
BLURBS = tuple(get_engine(name).blurb for name in ENGINE_IDS)
LANGUAGES = ("en", "fr", "ja")
VISIBLE_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")


class VisibleText(HTMLParser):
    """The pieces of an HTML page a person reads (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if value and name in VISIBLE_ATTRIBUTES:
                self.pieces.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.pieces.append(data.strip())


def visible_pieces(response) -> list[str]:
    if response.streaming:
        body = b"".join(response.streaming_content).decode()
    else:
        body = response.content.decode()
    if response["Content-Type"].startswith("text/csv"):
        return [cell for row in csv.reader(io.StringIO(body)) for cell in row if cell]
    parser = VisibleText()
    parser.feed(body)
    return parser.pieces


def _option_words() -> tuple[dict[str, str], set[str]]:
    """Every option key of every engine with a pattern of its raw values, and the id-like
    words among keys and values (with an underscore)."""
    raw_values, id_like = {}, set()
    for name in ENGINE_IDS:
        for option in get_engine(name).OPTIONS:
            if option.kind == "choice":
                values = "|".join(re.escape(value) for value in option.choices)
            else:
                values = r"\d+" if option.kind == "int" else "True|False"
            previous = raw_values.get(option.name)
            raw_values[option.name] = f"{previous}|{values}" if previous else values
            id_like |= {word for word in (option.name, *option.choices) if "_" in word}
    return raw_values, id_like


RAW_VALUES, ID_LIKE = _option_words()


def _token(word: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])")


def _natural_ids(lang: str) -> set[str]:
    """Engine ids that are also words the games themselves use in ``lang`` (the English and
    French blurbs speak of "yokai"): those count only where a game's name stands alone."""
    with translation.override(lang):
        said = " ".join(translation.gettext(blurb) for blurb in BLURBS)
    return {name for name in ENGINE_IDS if _token(name).search(said)}


def raw_ids(pieces: list[str], lang: str) -> list[str]:
    """The pieces that show an id (see the module docstring), each with what gave it away."""
    natural = _natural_ids(lang)
    checks = [(_token(word), word) for word in ENGINE_IDS if word not in natural]
    checks += [
        (re.compile(rf"^{re.escape(word)}\s*(?:$|[·—(:,])"), word) for word in sorted(natural)
    ]
    checks += [(_token(word), word) for word in sorted(ID_LIKE)]
    checks += [
        (re.compile(rf"(?<![\w-]){re.escape(key)}\s*[:=]\s*(?:{values})(?![\w-])"), f"{key}:")
        for key, values in RAW_VALUES.items()
    ]
    checks += [(re.compile(r"\b(?:True|False)\b"), "True/False")]
    return [f"{what!r} in {piece!r}" for piece in pieces for pattern, what in checks
            if pattern.search(piece)]  # fmt: skip


# --- the guard rail bites ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "piece",
    [
        "kazoku-families — en cours (kana)",
        "koikoi · rounds: 12 · bright_points: 10_5 · sanko_rain_man: False",
        "bozu",
        "yokai",
        "variant: kana",
        "hand_size",
        "script: hiragana",
        "level: 3",
    ],
)
def test_a_raw_id_is_caught(piece):
    assert raw_ids([piece], "en") != []


def test_words_are_not_ids():
    pieces = [
        "You peeked at a yokai.",
        "Yokai · Level: 1 · Hiragana",
        "Koi-Koi (hanafuda) · 6 rounds · 15 and 6 points",
        "Kazoku: happy families · Kana rows (9 x 5)",
        "more than in the other script: this game brings them in.",
    ]
    assert raw_ids(pieces, "en") == []


# --- every page type, every engine, three languages --------------------------------------------


def _options_worth_showing(name: str) -> dict:
    """Options with a non-default value wherever an option has one, ids with "_" preferred:
    what a page would show raw if it did not read the engine's labels."""
    chosen = {}
    for option in get_engine(name).OPTIONS:
        if option.kind == "choice":
            others = [value for value in option.choices if value != option.default]
            chosen[option.name] = next((v for v in others if "_" in v), others[0])
        elif option.kind == "bool":
            chosen[option.name] = not option.default
    return chosen


def _valid(name: str, options: dict) -> dict:
    """``options`` with the ones a deal refuses together taken back to their default."""
    eng = get_engine(name)
    kept = dict(options)
    for key in list(kept):
        try:
            eng.new_game(players=eng.MIN_PLAYERS, seed=1, options=kept)
            break
        except ValueError:
            del kept[key]
    return kept


def _table(name, user, options, **links) -> Table:
    eng = get_engine(name)
    bots = [{"kind": "bot", "level": "easy"}] * (eng.MIN_PLAYERS - 1)
    return table_create(
        user=user, engine=name, options=options, seats=[{"kind": "human", "user": user}, *bots],
        **links,
    )  # fmt: skip


def _finished_table(name, user) -> Table:
    """A game the CPU plays to the end for ``user`` (the seat's stand-in)."""
    table = _table(name, user, {"rounds": "3"} if name == "koikoi" else {})
    Seat.objects.filter(table=table, user=user).update(autoplay=True)
    for _ in range(200):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            return table
        eng = get_engine(name)
        if not table_bots_play(table_id=table.pk, version=table.version):
            state = eng.from_json(table.state)  # a human turn the stand-in did not take
            seat = eng.to_act(state)[0]
            action = eng.legal_actions(state, seat)[0]
            table_play(
                table=table, user=user, version=table.version, token=uuid.uuid4().hex,
                key=action_key(action),
            )  # fmt: skip
    raise AssertionError(f"{name}: the CPU did not finish the game")


def _pages(alice_class, bob, playing, finished) -> tuple[list[str], list[str], list[str]]:
    """(anonymous, student, teacher) page URLs."""
    teach = f"/teach/{alice_class.pk}"
    student = [
        "/", "/play/", f"/play/new/{playing.engine}/", playing.get_absolute_url(),
        f"{finished.get_absolute_url()}replay/", "/learn/", "/daily/", f"/play/players/{bob.pk}/",
    ]  # fmt: skip
    teacher = [
        f"{teach}/", f"{teach}/assignments/", f"{teach}/assignments/?engine={playing.engine}",
        f"{teach}/live/", f"{teach}/students/{bob.pk}/", f"{teach}/export/assignments.csv",
    ]  # fmt: skip
    return ["/"], student, teacher


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ENGINE_IDS)
def test_no_page_shows_an_engine_id_or_an_option_key(
    name, monkeypatch, alice, alice_class, bob, client, django_capture_on_commit_callbacks
):
    for other in [engine for engine in ENGINES if engine != name]:
        monkeypatch.delitem(ENGINES, other)
    options = _valid(name, _options_worth_showing(name))
    eng = get_engine(name)
    Assignment.objects.create(
        classroom=alice_class, engine=name, script="katakana",
        options=table_options_validate(eng=eng, options=options),
        due_at=timezone.now() + timedelta(days=7),
    )  # fmt: skip
    playing = _table(name, bob, options, classroom=alice_class)
    finished = _finished_table(name, bob)
    found = []
    for lang in LANGUAGES:
        for user, urls in zip(
            (None, bob, alice), _pages(alice_class, bob, playing, finished), strict=True
        ):
            client.logout()
            if user is not None:
                client.force_login(user)
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
            for url in urls:
                response = client.get(url)
                assert response.status_code == 200, (lang, url, response.status_code)
                pieces = visible_pieces(response)
                found += [f"{lang} {url}: {hit}" for hit in raw_ids(pieces, lang)]
                if not url.startswith("/play/players/"):  # only ranked games are listed there
                    title = _title_in(name, lang)
                    assert any(title in piece for piece in pieces), (lang, url, title)
    assert found == [], "\n".join(found)


def _title_in(name: str, lang: str) -> str:
    with translation.override(lang):
        return translation.gettext(get_engine(name).title)
