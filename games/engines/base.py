"""The engine contract (ARCHITECTURE §2), shared by every game engine.

An engine is a stateless object (one instance per game, exported as ``ENGINE`` by its module)
whose methods take and return plain immutable states. This module holds what every engine
shares:

- ``IllegalAction``: the one exception ``apply`` raises for a refused action (state unchanged).
- ``Option``: a declarative description of one game option; an engine lists them in
  ``OPTIONS`` and the web layer turns the list into a form (``Engine.option_specs()``).
- ``validate_options`` / ``coerce_options``: unknown or invalid options -> ``ValueError``.
- ``validate_setup``: checks ``options["setup"]`` (stacked deals for tests and replays).
- ``action_key``: the canonical JSON string of an action, used to find a submitted action
  among the legal ones.
- ``visible_events``: filters an event log for one seat (``private_to`` / ``except``).
- ``CardQuestion``: what a learner who knows a card may be asked about it (optional).
- ``Engine`` and ``Bot``: the base classes engines and their CPU players derive from.

Pure Python: no Django, no I/O, no globals, no wall clock.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

OPTION_KINDS = ("choice", "int", "bool")
SETUP_KEYS = frozenset({"hands", "pile", "table", "first"})


class IllegalAction(Exception):  # noqa: N818 - the contract's name
    """An action the rules refuse. ``message`` is a sentence fit to show a player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# One encoder for every key: ``json.dumps`` with these options builds a new encoder per call,
# which costs more than encoding an action (a board keys each of its ~40 legal actions).
_KEY_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def action_key(action: Any) -> str:
    """The canonical JSON text of an action: equal actions have equal keys (what
    ``json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` gives).

    A flat action (text keys; text, integer or null values: every card game's ask, pick or
    play) is looked up in a memo of the keys made in this process: a move keys each of the
    seat's ~40 legal actions three times (the posted token's match, the board's buttons, the
    tokens that replace them), and a lookup costs a third of an encoding. The memo is a pure
    function of the action's items and their types (``True`` is not ``1`` there), so what it
    returns is the encoding; other actions are encoded each time.
    """
    if action.__class__ is dict and _TEXT.issuperset(map(type, action)):
        types = tuple(map(type, action.values()))
        if _FLAT.issuperset(types):
            return _flat_key(tuple(action.items()), types)
    return _KEY_ENCODER.encode(action)


_TEXT = frozenset({str})
_FLAT = frozenset({str, int, type(None)})  # exact types: a bool is not an int here


@lru_cache(maxsize=1 << 14)
def _flat_key(items: tuple, types: tuple) -> str:  # noqa: ARG001 - ``types`` keys the memo
    return _KEY_ENCODER.encode(dict(items))


def visible_events(events: Iterable[Mapping[str, Any]], seat: int | None) -> list[dict]:
    """The events ``seat`` may see, as fresh dicts (``seat=None``: a spectator).

    An event with ``"private_to": s`` is seen only by seat ``s``; an event with
    ``"except": s`` is the public counterpart of such a private event, seen by everyone else
    (so seat ``s`` reads the detailed version once, not both).
    """
    if seat is None:
        return [dict(event) for event in events if event.get("private_to") is None]
    return [
        dict(event)
        for event in events
        if event.get("private_to", seat) == seat and event.get("except") != seat
    ]


def latest_events(
    groups: Iterable[Sequence[Mapping[str, Any]]],
    seat: int | None,
    limit: int,
    copy: Callable[[Mapping[str, Any]], dict] = dict,
) -> list[dict]:
    """The last ``limit`` events ``seat`` may see, oldest first: a view's log window.

    ``groups``: the log's event groups (one per move), newest first. The events
    ``visible_events`` would keep, read from the end and copied (``copy``, e.g. one that also
    copies list values) only when kept: a late game's log holds hundreds of events.
    """
    recent: list[dict] = []
    for group in groups:
        for event in reversed(group):
            if seat is None:
                if event.get("private_to") is not None:
                    continue
            elif event.get("private_to", seat) != seat or event.get("except") == seat:
                continue
            recent.append(copy(event))
            if len(recent) == limit:
                return recent[::-1]
    return recent[::-1]


# --- options ----------------------------------------------------------------------------------


def gettext_noop(message: str) -> str:
    """Mark a human label for the translation catalogues; returns it unchanged.

    Engines stay free of Django: `makemessages` extracts strings wrapped in `gettext_noop`,
    and the web layer translates them when it renders a form or a board.
    """
    return message


def same_text(message: str) -> str:
    """The default ``translate`` of the Display methods: English, as declared."""
    return message


# The words the Display methods add around the engine's own labels (the web layer translates
# them with the rest: ``Engine.describe(options, translate=gettext)``).
OPTION_VALUE = gettext_noop("%(option)s: %(value)s")
SEAT_NUMBER = gettext_noop("Seat %(number)s")
BOOL_WORDS = {True: gettext_noop("yes"), False: gettext_noop("no")}
DESCRIBE_SEPARATOR = " · "


@dataclass(frozen=True)
class Option:
    """One game option, described for validation and for building a form.

    ``kind`` is ``"choice"`` (``choices`` lists the allowed string values, ``choice_labels``
    their human labels), ``"int"`` (``min``..``max`` inclusive) or ``"bool"``. ``seat``: an
    ``int`` that is a seat index (0-based), which a form shows as "Seat 1", "Seat 2"...
    """

    name: str
    kind: str
    default: Any
    label: str
    help: str = ""
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None
    seat: bool = False

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name!r}: kind must be one of {OPTION_KINDS}")
        if self.kind == "choice" and self.default not in self.choices:
            raise ValueError(f"option {self.name!r}: default not among its choices")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name!r}: one label per choice")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe description, for the web layer's form."""
        spec: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
        }
        if self.kind == "choice":
            labels = self.choice_labels or self.choices
            spec["choices"] = [
                [value, label] for value, label in zip(self.choices, labels, strict=True)
            ]
        if self.kind == "int":
            spec["min"], spec["max"] = self.min, self.max
            if self.seat:
                spec["seat"] = True
        return spec

    def value_labels(self, translate: Callable[[str], str] = same_text) -> dict[Any, str]:
        """Each value a person may choose -> its words (a plain int -> its digits)."""
        if self.kind == "choice":
            labels = self.choice_labels or self.choices
            return {v: translate(label) for v, label in zip(self.choices, labels, strict=True)}
        if self.kind == "bool":
            return {value: translate(word) for value, word in BOOL_WORDS.items()}
        values = range(self.min if self.min is not None else 0, (self.max or 0) + 1)
        if self.seat:  # a seat index, said from 1 like the seats of a table
            return {index: translate(SEAT_NUMBER) % {"number": index + 1} for index in values}
        return {number: str(number) for number in values}

    def value_label(self, value: Any, translate: Callable[[str], str] = same_text) -> str | None:
        """``value`` in words, or ``None`` when it is not a valid value of this option."""
        try:
            self.check(value)
        except ValueError:
            return None
        if self.kind == "int" and not self.seat:
            return str(value)
        return self.value_labels(translate)[value]

    def check(self, value: Any) -> Any:
        """Return ``value`` if valid for this option, else raise ``ValueError``."""
        if self.kind == "choice":
            if value not in self.choices:
                allowed = ", ".join(self.choices)
                raise ValueError(f"option {self.name!r} must be one of {allowed}; got {value!r}")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {self.name!r} must be an integer; got {value!r}")
            if (self.min is not None and value < self.min) or (
                self.max is not None and value > self.max
            ):
                raise ValueError(
                    f"option {self.name!r} must be between {self.min} and {self.max}; got {value}"
                )
        elif not isinstance(value, bool):
            raise ValueError(f"option {self.name!r} must be true or false; got {value!r}")
        return value

    def parse(self, raw: str) -> Any:
        """Convert a string (command line, form field) to this option's type, then check it."""
        if self.kind == "int":
            try:
                return self.check(int(raw))
            except (TypeError, ValueError):
                raise ValueError(f"option {self.name!r} must be an integer; got {raw!r}") from None
        if self.kind == "bool":
            lowered = str(raw).strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"option {self.name!r} must be true or false; got {raw!r}")
        return self.check(raw)


def validate_options(
    specs: Sequence[Option], options: Mapping[str, Any] | None, *, allow_setup: bool = True
) -> dict[str, Any]:
    """Complete ``options`` with defaults and check every value.

    Unknown names or invalid values raise ``ValueError`` naming the option. ``"setup"`` is
    passed through unchanged (checked later by ``validate_setup``, which needs the deck).
    """
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise ValueError("options must be a mapping of option name to value")
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(options) - set(by_name) - ({"setup"} if allow_setup else set()))
    if unknown:
        known = ", ".join(sorted(by_name)) + (", setup" if allow_setup else "")
        raise ValueError(f"unknown option(s): {', '.join(unknown)} (known: {known})")
    checked = {name: spec.check(options.get(name, spec.default)) for name, spec in by_name.items()}
    if "setup" in options:
        checked["setup"] = options["setup"]
    return checked


def coerce_options(specs: Sequence[Option], raw: Mapping[str, str]) -> dict[str, Any]:
    """Parse string values (``--option key=value``, form fields) into typed options."""
    by_name = {spec.name: spec for spec in specs}
    parsed = {}
    for name, value in raw.items():
        if name not in by_name:
            raise ValueError(f"unknown option {name!r} (known: {', '.join(sorted(by_name))})")
        parsed[name] = by_name[name].parse(value)
    return parsed


# --- stacked deals ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """A validated ``options["setup"]``: hands per seat, pile (``pile[0]`` drawn next), table."""

    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    table: tuple[str, ...]
    first: int


def validate_setup(setup: Any, *, deck: Sequence[str], players: int) -> Setup:
    """Check a stacked deal: the lists together must be exactly ``deck`` (as a multiset).

    ``first`` defaults to 0. Raises ``ValueError`` with a clear message otherwise.
    """
    if not isinstance(setup, Mapping):
        raise ValueError("setup must be an object with hands, pile, table and first")
    unknown = sorted(set(setup) - SETUP_KEYS)
    if unknown:
        raise ValueError(f"unknown setup key(s): {', '.join(unknown)}")
    hands = setup.get("hands")
    if not isinstance(hands, Sequence) or isinstance(hands, str) or len(hands) != players:
        raise ValueError(f"setup.hands must be a list of {players} lists of card ids")
    lists = {"pile": setup.get("pile", []), "table": setup.get("table", [])}
    for index, hand in enumerate(hands):
        lists[f"hands[{index}]"] = hand
    for where, cards in lists.items():
        if not isinstance(cards, Sequence) or isinstance(cards, str):
            raise ValueError(f"setup.{where} must be a list of card ids")
        if not all(isinstance(card, str) for card in cards):
            raise ValueError(f"setup.{where} must contain card ids (strings)")
    placed = Counter(card for cards in lists.values() for card in cards)
    expected = Counter(deck)
    if placed != expected:
        missing = sorted((expected - placed).elements())
        extra = sorted((placed - expected).elements())
        raise ValueError(
            "setup must place exactly the deck: "
            f"missing {missing or 'none'}, unknown or duplicated {extra or 'none'}"
        )
    first = setup.get("first", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise ValueError(f"setup.first must be a seat between 0 and {players - 1}")
    return Setup(
        hands=tuple(tuple(hand) for hand in hands),
        pile=tuple(lists["pile"]),
        table=tuple(lists["table"]),
        first=first,
    )


# --- questions about cards ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardQuestion:
    """A question about one card for a learner who has seen it often (``Engine.card_question``).

    A game of poem cards may ask for the first kana of a poem's second half, the decisive
    syllable karuta players learn. Plain data: the engine says what to ask; the learning app
    decides when (once the learner has seen the card ``after_seen`` times before) and grades
    the answer.

    ``ask`` is the question as an English sentence marked with ``gettext_noop`` (the web layer
    translates it); ``clue`` what the question shows (the poem's first half, in Japanese);
    ``answer`` the kana id of the right answer, among ``choices`` (kana ids, drawn as glyphs
    in ``script``); ``solution`` what the answer is about (the second half), shown only once
    the question is answered: a view never holds it.
    """

    card: str
    ask: str
    clue: str
    answer: str
    choices: tuple[str, ...]
    script: str
    solution: str
    after_seen: int


# --- words on the cards ----------------------------------------------------------------------


@dataclass(frozen=True)
class WordExample:
    """A word a game's cards print, shown beside a kana it uses (``Engine.word_examples``):
    ``kana`` in hiragana (the page turns it to katakana for that script), its Hepburn
    ``romaji``, and its ``meanings`` by language code (``"en"``, ``"fr"``; none for Japanese)."""

    kana: str
    romaji: str
    meanings: Mapping[str, str]


# --- engines and bots -------------------------------------------------------------------------


class Bot:
    """A CPU player. Stateless between calls: all memory comes from the view's public log."""

    level: str = ""

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        raise NotImplementedError


class Engine:
    """Base class of every engine: the §2 contract, plus hooks for the conformance checks.

    Subclasses set ``name``, ``title``, ``blurb``, ``OPTIONS``, ``MIN_PLAYERS``/``MAX_PLAYERS``
    (and, for the Display contract, ``ranked`` and ``DESCRIBED_OPTIONS``) and implement the
    contract methods. ``deck`` and ``cards_in_play`` let ``conformance``
    check card conservation; ``shuffle_hidden`` (optional) lets it check that views hide
    secrets.

    ``title`` and ``blurb`` are the human name and one-sentence pitch the lobby shows, wrapped
    in ``gettext_noop`` (the web layer translates them); an engine without a ``title`` is not
    offered in the lobby. ``option_labels`` and ``describe`` put options in words: they take
    the web layer's ``translate`` (Django's ``gettext``), English by default.

    The learning side reads only ``cards_shown``, ``cards_held`` (the seat's own cards, default
    ``view["hand"]``), ``kana_on``, ``kana_named``, ``card_question`` (optional),
    ``practice_presets``, ``practice`` and ``practice_groups``: see each method.
    """

    name: str = ""
    title: str = ""
    blurb: str = ""
    OPTIONS: tuple[Option, ...] = ()
    MIN_PLAYERS: int = 2
    MAX_PLAYERS: int = 6
    BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
    # table options (games.forms.TABLE_FIELDS) meaningless for this game: the create form
    # leaves their fields out and the default is kept (e.g. "script" for a game whose cards
    # always show the same script)
    UNUSED_TABLE_OPTIONS: tuple[str, ...] = ()
    # Display (ARCHITECTURE §2): whether finished games change the players' Elo ratings, and
    # the options ``describe`` always names (the variant, the script); the others it names
    # only when they differ from their default
    ranked: bool = False
    DESCRIBED_OPTIONS: tuple[str, ...] = ()
    # what the table option "card_prompts" asks in this game (``card_question``), for the
    # create form's help text (gettext_noop); "" keeps the form's generic sentence
    CARD_QUESTIONS_HELP: str = ""

    # -- contract --
    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[dict]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[dict]]:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict:
        raise NotImplementedError

    def bot_view(self, state: Any, seat: int) -> dict:
        """The view a CPU player of ``seat`` decides on (``Bot.choose``): ``view`` itself,
        unless an engine leaves out entries its bots never read, to spare the work. Its bots
        must choose alike on both (each such engine has a test)."""
        return self.view(state, seat)

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def outcome(self, state: Any) -> dict:
        raise NotImplementedError

    def to_json(self, state: Any) -> dict:
        raise NotImplementedError

    def from_json(self, data: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def bot(self, level: str) -> Bot:
        raise NotImplementedError

    def kana_on(self, card_id: str, options: Mapping[str, Any] | None = None) -> list[str]:
        raise NotImplementedError

    def kana_named(self, action: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        """The kana a player names aloud with ``action`` (asking for a card by name), for a
        "pick the glyph" prompt; most actions name none."""
        return []

    # -- what a game shows and practises (the learning side reads only these) --
    def cards_shown(self, view: Mapping[str, Any]) -> dict[str, str]:
        """Every card ``view`` shows face up to its seat -> the script it is drawn in.

        The script is ``"hiragana"``, ``"katakana"`` or ``""`` (the card shows no kana, or
        the game has no script). Every card id returned appears in ``view``. The learning hook
        diffs this between a seat's views before and after a move, so it must be a function
        of the view alone.
        """
        raise NotImplementedError

    def cards_held(self, view: Mapping[str, Any]) -> list[str]:
        """The cards ``view``'s seat holds as its own: by default the view's ``hand``.

        The learning hook reports the cards newly in this list (with their kana) as
        ``entered_hand``, the cards a seat may be asked to read aloud. An engine whose seats
        also keep the cards they win apart from the hand (a capture pile) overrides it to add
        them. Every card returned must also be in ``cards_shown(view)``; a function of the
        view alone, like ``cards_shown``.
        """
        return [card for card in (view.get("hand") or ()) if isinstance(card, str)]

    def card_question(self, card_id: str, options: Mapping[str, Any]) -> CardQuestion | None:
        """What a learner who has seen ``card_id`` several times may be asked about it, under
        ``options`` (optional; most games ask nothing: ``None``). Deterministic: the same card
        and options give the same question. The games service passes the questions of the
        cards a learner's view newly shows to the learning app, which counts how often each
        learner has seen each card and asks once ``after_seen`` is reached (when the table's
        ``card_prompts`` option is on)."""
        return None

    @property
    def asks_about_cards(self) -> bool:
        """Whether this engine overrides ``card_question`` (the create form offers the
        ``card_prompts`` table option only then)."""
        return type(self).card_question is not Engine.card_question

    def practice_presets(self) -> list[dict[str, Any]]:
        """Option sets worth recommending to a learner, each a valid ``options`` (may be
        partial: defaults complete it). Convention: ``options["script"]`` says which script
        the game shows (``hiragana``, ``katakana`` or ``mixed``); without it, hiragana."""
        return []

    def practice(self, options: Mapping[str, Any]) -> frozenset[str]:
        """The kana ids a game with ``options`` makes a player read (the picker's only input
        about a game besides ``practice_groups``)."""
        raise NotImplementedError

    def practice_groups(self, options: Mapping[str, Any]) -> dict[str, frozenset[str]]:
        """How play groups the kana of ``practice(options)``: label -> kana (optional).

        A game played by collecting sets (families by kana row, by vowel) drills the kana of
        one set together, so a learner whose weak kana sit in a few of its groups is served
        best by it; the labels name those groups in the picker's reason. The default is one
        unnamed group: the whole practised set.
        """
        return {"": self.practice(options)}

    # -- Display: what a person reads about this game (translated by ``translate``) --
    def option_labels(self, translate: Callable[[str], str] = same_text) -> dict[str, dict]:
        """Each option -> ``{"label": its words, "values": {value: its words}}``, in the
        order of ``OPTIONS`` (an int option's values are its digits, a seat's "Seat n")."""
        return {
            option.name: {
                "label": translate(option.label),
                "values": option.value_labels(translate),
            }
            for option in self.OPTIONS
        }

    def describe(
        self, options: Mapping[str, Any], translate: Callable[[str], str] = same_text
    ) -> str:
        """The variant and the options a person chose, in words: the ``DESCRIBED_OPTIONS``
        always, the others where they differ from their default, in ``OPTIONS`` order.

        A choice is said by its value's label ("12 rounds (a year)"), any other option as
        "label: value". Keys that are not this engine's options (table options, ``setup``)
        and values the option refuses are left out: the result never shows an id.
        """
        parts = []
        for option in self.OPTIONS:
            value = options.get(option.name, option.default)
            if option.name not in self.DESCRIBED_OPTIONS and value == option.default:
                continue
            said = option.value_label(value, translate)
            if said is None:
                continue
            if option.kind != "choice":
                said = translate(OPTION_VALUE) % {"option": translate(option.label), "value": said}
            parts.append(said)
        return DESCRIBE_SEPARATOR.join(parts)

    def word_examples(self, kana_id: str) -> list[WordExample]:
        """Words this game's cards print that use ``kana_id`` (optional; none by default):
        the learner's page of a kana shows them."""
        return []

    # -- conformance hooks --
    def deck(self, state: Any) -> list[str]:
        """Every card id of this game's deck (a multiset)."""
        raise NotImplementedError

    def cards_in_play(self, state: Any) -> list[str]:
        """Every card id found in the state's zones (hands, pile, table, laid...)."""
        raise NotImplementedError

    def shuffle_hidden(self, state: Any, seat: int | None, rng: random.Random) -> Any | None:
        """A state differing from ``state`` only in what ``seat`` cannot know, or ``None``.

        The conformance check asserts ``view(shuffled, seat) == view(state, seat)``.
        """
        return None

    # -- shared helpers --
    def option_specs(self) -> list[dict[str, Any]]:
        """The options as JSON-safe dicts, for the web layer's form."""
        return [option.to_dict() for option in self.OPTIONS]

    def validate_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        return validate_options(self.OPTIONS, options)

    def check_new_game(
        self, players: Any, seed: Any, options: Mapping[str, Any] | None
    ) -> tuple[int, dict[str, Any], Any]:
        """``new_game``'s arguments checked (``ValueError`` otherwise): the player count, the
        options completed with their defaults, and ``options["setup"]`` taken out of them
        (``None`` without one)."""
        players = self.check_players(players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer; got {seed!r}")
        checked = self.validate_options(options)
        return players, checked, checked.pop("setup", None)

    def check_players(self, players: Any) -> int:
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer; got {players!r}")
        if not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise ValueError(
                f"{self.name} needs {self.MIN_PLAYERS} to {self.MAX_PLAYERS} players; got {players}"
            )
        return players

    def check_bot_level(self, level: str) -> str:
        if level not in self.BOT_LEVELS:
            raise ValueError(
                f"bot level must be one of {', '.join(self.BOT_LEVELS)}; got {level!r}"
            )
        return level


def competition_ranks(scores: Sequence[float]) -> list[int]:
    """Ranks where the highest score is 1 and ties share a rank (1, 1, 3)."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]
