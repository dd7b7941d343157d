"""Engine-independent invariant checks and bot-vs-bot playouts.

Used by ``manage.py playout``, by the conformance test that runs every registered engine, and
by each engine's own tests. Works for any ``Engine`` through the contract plus two hooks:
``deck(state)`` / ``cards_in_play(state)`` (card conservation) and, optionally,
``shuffle_hidden(state, seat, rng)`` (views must not change when hidden information does).
The learning side of the contract is checked too: ``cards_shown(view)`` names only cards the
view holds and ``cards_held(view)`` only cards it shows (``check_views``), and
``check_practice`` checks ``practice_presets`` / ``practice`` / ``practice_groups`` and the
lobby's ``title`` / ``blurb``, ``check_display`` the Display contract (the names a person
reads), and ``check_card_questions`` the optional ``card_question`` (run
at the start and the end of every checked playout: no view may hold a question's solution).

``check_state`` returns a list of human-readable error strings (empty = all good) instead of
raising, so a playout can count and report every broken invariant.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import CardQuestion, Engine, IllegalAction, action_key

# Keys that would leak the future (the deal, the RNG) if a view contained them.
FORBIDDEN_VIEW_KEYS = frozenset({"rng", "rng_state", "seed", "pile"})
_JUNK_VALUES = (None, -1, 99, "", "zz-not-a-card", [], {})


def _json_text(value: Any) -> str | None:
    """``value`` as JSON text if it survives a JSON round trip unchanged, else ``None``."""
    try:
        text = json.dumps(value)
        return text if json.loads(text) == value else None
    except (TypeError, ValueError):
        return None


def check_conservation(engine: Engine, state: Any) -> list[str]:
    """Every card of the deck is in exactly one zone."""
    expected, found = Counter(engine.deck(state)), Counter(engine.cards_in_play(state))
    if expected == found:
        return []
    return [
        f"card conservation broken: missing {sorted((expected - found).elements())}, "
        f"extra {sorted((found - expected).elements())}"
    ]


def check_views(
    engine: Engine, state: Any, players: int, rng: random.Random, every_seat: bool = True
) -> list[str]:
    """Views never show another seat's private events; they are JSON-safe, hold no RNG, seed
    or pile, and do not change when only information hidden from the viewer changes.

    The last three (the costly ones) are checked for every seat and the spectator, or with
    ``every_seat=False`` for one of them drawn from ``rng``.
    """
    errors = []
    seats = [*range(players), None]
    deep_seats = seats if every_seat else [rng.choice(seats)]
    for seat in seats:
        view = engine.view(state, seat)
        for event in view.get("log", []):
            if event.get("private_to") not in (None, seat):
                errors.append(f"view for seat {seat} shows a private event {event}")
        if seat not in deep_seats:
            continue
        text = _json_text(view)
        if text is None:
            errors.append(f"view for seat {seat} is not JSON-safe")
            continue
        leaked = [key for key in FORBIDDEN_VIEW_KEYS if f'"{key}":' in text]
        if leaked:
            errors.append(f"view for seat {seat} contains secret key(s) {sorted(leaked)}")
        errors += check_cards_shown(engine, view, text, seat)
        shuffled = engine.shuffle_hidden(state, seat, rng)
        if shuffled is not None and engine.view(shuffled, seat) != view:
            errors.append(f"view for seat {seat} changes with information hidden from it")
    return errors


SCRIPTS_SHOWN = ("hiragana", "katakana", "")


def check_cards_shown(engine: Engine, view: Any, text: str, seat: int | None) -> list[str]:
    """``cards_shown(view)`` maps card ids found in the view (``text``: its JSON) to a script;
    ``cards_held(view)`` names only cards it shows."""
    try:
        shown = engine.cards_shown(view)
    except Exception as exc:  # noqa: BLE001 - reported as a broken invariant
        return [f"cards_shown failed for seat {seat}: {exc!r}"]
    errors = []
    for card, script in shown.items():
        if not isinstance(card, str) or json.dumps(card) not in text:
            errors.append(f"cards_shown for seat {seat} names {card!r}, absent from the view")
        if script not in SCRIPTS_SHOWN:
            errors.append(f"cards_shown for seat {seat} gives {card!r} the script {script!r}")
    try:
        held = engine.cards_held(view)
    except Exception as exc:  # noqa: BLE001 - reported as a broken invariant
        return [*errors, f"cards_held failed for seat {seat}: {exc!r}"]
    errors += [
        f"cards_held for seat {seat} names {card!r}, not in cards_shown"
        for card in held
        if card not in shown
    ]
    return errors


def check_practice(engine: Engine) -> list[str]:
    """The lobby and picker hooks: a title and a blurb; every preset is a valid ``options``
    (``validate_options`` and a real deal accept it) practising at least one kana, grouped
    by ``practice_groups`` into subsets of what it practises."""
    errors = []
    if not engine.title or not engine.blurb:
        errors.append(f"{engine.name} has no title or blurb for the lobby")
    presets = engine.practice_presets()
    if not presets:
        errors.append(f"{engine.name} offers no practice preset")
    for preset in presets:
        try:
            engine.validate_options(preset)
            engine.new_game(players=engine.MIN_PLAYERS, seed=1, options=dict(preset))
        except ValueError as exc:
            errors.append(f"preset {preset} is not a valid options set: {exc}")
            continue
        kana = engine.practice(preset)
        if not kana or not all(isinstance(k, str) and k for k in kana):
            errors.append(f"practice({preset}) is empty or holds a non-id")
        groups = engine.practice_groups(preset)
        if not groups or any(not group or not group <= kana for group in groups.values()):
            errors.append(f"practice_groups({preset}) are not non-empty subsets of practice")
    return errors


def check_display(engine: Engine) -> list[str]:
    """The Display contract: a title, ``ranked`` a bool, a label for every option and every
    choice (a choice shown as its own value would show an id), ``DESCRIBED_OPTIONS`` among
    the options, and ``describe`` of each single value saying it in words, never "key:"."""
    errors = []
    if not engine.title:
        errors.append(f"{engine.name} has no title")
    if not isinstance(engine.ranked, bool):
        errors.append(f"{engine.name}.ranked is not a bool")
    names = {option.name for option in engine.OPTIONS}
    errors += [
        f"DESCRIBED_OPTIONS names an unknown option {name!r}"
        for name in engine.DESCRIBED_OPTIONS
        if name not in names
    ]
    for option in engine.OPTIONS:
        if not option.label or option.label == option.name:
            errors.append(f"option {option.name!r} has no label")
        for value, label in option.value_labels().items():
            if option.kind == "choice" and (not label or label == value):
                errors.append(f"option {option.name!r} shows its value {value!r} as an id")
            if value == option.default and option.name not in engine.DESCRIBED_OPTIONS:
                continue  # a default is named only for the described options
            text = engine.describe({option.name: value})
            if f"{option.name}:" in text or label not in text:
                errors.append(f"describe({{{option.name!r}: {value!r}}}) gives {text!r}")
    return errors


CARD_QUESTION_SCRIPTS = ("hiragana", "katakana")


def check_card_questions(
    engine: Engine, state: Any, players: int, options: Mapping[str, Any] | None = None
) -> list[str]:
    """``card_question`` (engines that override it): for every card of the deck ``None`` or a
    deterministic ``CardQuestion`` about that card
    (a sentence, a clue, distinct choices with the answer among them, a kana script, a
    solution that the clue does not contain, asked after at least one sighting), and no view
    of ``state`` (any seat, the spectator) holds a solution: it would give the answer away."""
    if not engine.asks_about_cards:  # the base class's card_question: always None
        return []
    options = dict(options or {})
    deck = sorted(set(engine.deck(state)))
    errors: list[str] = []
    solutions = {}
    for card in deck:
        question = engine.card_question(card, options)
        if question is None:
            continue
        problem = _card_question_problem(card, question)
        if problem is None and engine.card_question(card, options) != question:
            problem = "is not deterministic"
        if problem is not None:
            errors.append(f"card_question({card!r}) {problem}")
            continue
        solutions[card] = question.solution
    for seat in [*range(players), None]:
        text = json.dumps(engine.view(state, seat), ensure_ascii=False)
        leaked = sorted(card for card, solution in solutions.items() if solution in text)
        if leaked:
            errors.append(f"view for seat {seat} holds the solution of {leaked[:3]}")
    return errors


def _card_question_problem(card: str, question: Any) -> str | None:
    if not isinstance(question, CardQuestion) or question.card != card:
        return f"is not a CardQuestion about {card!r}: {question!r}"
    if not (question.ask and question.clue and question.solution):
        return "lacks its sentence, clue or solution"
    if question.solution in question.clue:
        return "shows its solution in its clue"
    choices = question.choices
    if len(choices) < 2 or len(set(choices)) != len(choices) or question.answer not in choices:
        return f"offers {choices!r} for the answer {question.answer!r}"
    if question.script not in CARD_QUESTION_SCRIPTS or question.after_seen < 1:
        return f"has script {question.script!r} and after_seen {question.after_seen!r}"
    return None


def _illegal_variants(action: Any, legal_keys: set[str]) -> list[Any]:
    """Junk and near-miss actions (one field changed) that are not legal."""
    candidates: list[Any] = ["ask", 7, {}, {"type": "no-such-action"}]
    if isinstance(action, Mapping):
        for key in action:
            for junk in _JUNK_VALUES:
                candidates.append({**action, key: junk})
    return [c for c in candidates if action_key(c) not in legal_keys]


def check_actions(
    engine: Engine, state: Any, players: int, rng: random.Random, sample: int | None
) -> list[str]:
    """Legal actions apply without mutating ``state``; illegal ones raise ``IllegalAction``
    and leave it equal. ``sample`` = how many legal actions per seat to try (None = all)."""
    errors = []
    before = engine.to_json(state)
    acting = set(engine.to_act(state))
    for seat in range(players):
        legal = engine.legal_actions(state, seat)
        if seat not in acting:
            if legal:
                errors.append(f"seat {seat} does not act but has legal actions")
            continue
        if not legal:
            errors.append(f"seat {seat} must act but has no legal action")
            continue
        keys = {action_key(action) for action in legal}
        if len(keys) != len(legal):
            errors.append(f"seat {seat} has duplicate legal actions")
        tried = legal if sample is None else rng.sample(legal, min(sample, len(legal)))
        for action in tried:
            try:
                engine.apply(state, seat, action)
            except IllegalAction as exc:
                errors.append(f"legal action {action} refused: {exc.message}")
        illegal = _illegal_variants(tried[0], keys)
        for action in illegal if sample is None else rng.sample(illegal, min(3, len(illegal))):
            try:
                engine.apply(state, seat, action)
                errors.append(f"illegal action {action!r} accepted for seat {seat}")
            except IllegalAction:
                pass
    for seat in set(range(players)) - acting:
        try:
            engine.apply(state, seat, {"type": "pass"})
            errors.append(f"seat {seat} acted out of turn")
        except IllegalAction:
            pass
    if engine.to_json(state) != before:
        errors.append("apply mutated the state it was given")
    return errors


def check_state(
    engine: Engine, state: Any, players: int, rng: random.Random, sample: int | None = 2
) -> list[str]:
    """All invariants for one state (see the module docstring).

    ``sample``: how many legal actions per seat to apply (``None``: all of them, and the
    hidden-information check for every seat instead of one drawn at random).
    """
    errors = check_conservation(engine, state)
    text = _json_text(engine.to_json(state))
    if text is None:
        errors.append("to_json is not JSON-safe")
    elif engine.from_json(json.loads(text)) != state:
        errors.append("from_json(to_json(state)) != state")
    over = engine.is_over(state)
    if over != (not engine.to_act(state)):
        errors.append("is_over disagrees with to_act being empty")
    errors += check_views(engine, state, players, rng, every_seat=sample is None)
    errors += check_actions(engine, state, players, rng, sample)
    if over:
        errors += check_outcome(engine.outcome(state), players)
    return errors


def check_outcome(outcome: Mapping[str, Any], players: int) -> list[str]:
    scores, ranks = outcome.get("scores"), outcome.get("ranks")
    if not isinstance(scores, list) or not isinstance(ranks, list):
        return ["outcome lacks scores or ranks lists"]
    if len(scores) != players or len(ranks) != players:
        return ["outcome scores/ranks do not have one entry per seat"]
    errors = []
    for seat in range(players):
        better = sum(1 for other in scores if other > scores[seat])
        if ranks[seat] != 1 + better:
            errors.append(f"rank of seat {seat} is {ranks[seat]}, expected {1 + better}")
    return errors


# --- playouts ---------------------------------------------------------------------------------


@dataclass
class GameRecord:
    actions: int = 0
    winners: list[int] = field(default_factory=list)
    outcome: dict = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def play_game(
    engine: Engine,
    *,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    bots: Sequence[str] = ("easy",),
    check: bool = True,
    max_actions: int = 20_000,
) -> GameRecord:
    """Play one bot-vs-bot game; seat ``i`` plays ``bots[i % len(bots)]``."""
    rng = random.Random(seed)  # the bots' choices: the same games with or without checks
    check_rng = random.Random(f"checks-{seed}")
    players_bots = [engine.bot(bots[seat % len(bots)]) for seat in range(players)]
    state = engine.new_game(players=players, seed=seed, options=dict(options or {}))
    record = GameRecord()
    if check:
        record.errors += check_state(engine, state, players, check_rng)
        record.errors += check_card_questions(engine, state, players, options)
    while not engine.is_over(state):
        if record.actions >= max_actions:
            record.errors.append(f"game not over after {max_actions} actions")
            break
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        action = players_bots[seat].choose(engine.bot_view(state, seat), legal, rng)
        if check and action_key(action) not in {action_key(a) for a in legal}:
            record.errors.append(f"bot {bots[seat % len(bots)]} chose an illegal {action}")
        state, _events = engine.apply(state, seat, action)
        record.actions += 1
        if check:
            record.errors += check_state(engine, state, players, check_rng)
    if check:
        record.errors += check_card_questions(engine, state, players, options)
    if engine.is_over(state):
        record.outcome = engine.outcome(state)
        # A cooperative game ranks the whole team first and says in ``won`` whether
        # the team won: a lost game has no winner.
        if record.outcome.get("won") is False:
            record.winners = []
        else:
            record.winners = [s for s, rank in enumerate(record.outcome["ranks"]) if rank == 1]
    return record


def playout(
    engine: Engine,
    *,
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    bots: Sequence[str] = ("easy",),
    check: bool = True,
) -> dict[str, Any]:
    """Play ``games`` seeded games (seeds ``seed``, ``seed+1``...) and summarise them."""
    started = time.perf_counter()
    summary: dict[str, Any] = {
        "engine": engine.name,
        "players": players,
        "bots": [bots[seat % len(bots)] for seat in range(players)],
        "options": dict(options or {}),
        "games": games,
        "actions": 0,
        "invariant_errors": 0,
        "errors": [],
        "wins_by_seat": [0] * players,
    }
    for index in range(games):
        record = play_game(
            engine, players=players, seed=seed + index, options=options, bots=bots, check=check
        )
        summary["actions"] += record.actions
        summary["invariant_errors"] += len(record.errors)
        summary["errors"] += [f"game seed {seed + index}: {e}" for e in record.errors][:5]
        for winner in record.winners:
            summary["wins_by_seat"][winner] += 1
    seconds = time.perf_counter() - started
    summary["errors"] = summary["errors"][:20]
    summary["seconds"] = round(seconds, 3)
    summary["games_per_s"] = round(games / seconds, 2) if seconds else None
    summary["actions_per_s"] = round(summary["actions"] / seconds, 1) if seconds else None
    return summary
