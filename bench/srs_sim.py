"""Simulated learners: does Kanagame's loop teach kana better than flashcards, minute for minute?

    .venv/bin/python bench/srs_sim.py [--learners 20] [--seeds held-out] [--minutes 6]
        [--game 4] [--exposure 0,0.1,0.25] [--json]

Pure Python (no Django): it runs the product's own pure code, ``learning.srs`` (FSRS through
the ``fsrs`` library), ``learning.picker.rank`` and ``learning.kana_table.distractors``, on
simulated learners whose memory follows a ground-truth model that is NOT FSRS (stated in
docs/learning.md, section "Simulation"). Every arm gets the same learner minutes a day
(answering, studying and playing all count), days 0-29; nothing days 30-43; a free-recall
test (glyph -> reading) of the 90 Kazoku kana (45 hiragana + 45 katakana) on day 44.

Arms (names as printed and in docs/bench.md):

leitner          flashcards, 5 boxes reviewed every 1, 2, 4, 8, 16 days
fixed            flashcards, reviews 1, 3, 7, 14, 30 days after the last success
fsrs             flashcards scheduled by fsrs defaults at retention 0.9 (the product's srs)
fsrs+game        the same game as the loop (same minutes of play, prompts off), then FSRS
                 flashcards for the rest of the day's minutes
kanagame         the product's loop: warm-up of due kana as prompts, the game the picker
                 chose with prompts on cards entering the hand, then prompts (the quiz) for
                 the rest of the day's minutes

Every arm that plays gets the same exposure effect (``--exposure``, swept). Seeds: a
development set (the loop's rules were tuned on it) and a held-out set (the figures).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from multiprocessing import Pool
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
django.setup()  # the picker reads engines and, in ``recommend``, the database (unused here)

from games.engines import get_engine  # noqa: E402
from learning import kana_table, srs  # noqa: E402
from learning.picker import KanaStatus, rank  # noqa: E402

EPOCH = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)
STUDY_DAYS = 30
TEST_DAY = 44
SCRIPTS = ("hiragana", "katakana")
CARDS = tuple(get_engine("kazoku-families").deck(None))  # the 45 Kazoku kana, deck order
ITEMS = [(k, s) for s in SCRIPTS for k in CARDS]
HEAVY_PAIRS = {  # the look-alikes the "confusion" world makes severe
    ("katakana", frozenset({"shi", "tsu"})),
    ("katakana", frozenset({"so", "n"})),
    ("hiragana", frozenset({"nu", "me"})),
    ("hiragana", frozenset({"wa", "ne"})),
    ("hiragana", frozenset({"wa", "re"})),
    ("hiragana", frozenset({"ne", "re"})),
}

# --- time costs (seconds) -------------------------------------------------------------------
COST_STUDY_NEW = 10.0  # flashcard: first presentation of a new card, both sides
COST_RECALL = 8.0  # flashcard: recall, flip, self-check
COST_CHOICE = 5.0  # recognition prompt with four buttons
COST_TYPED = 8.0  # typed-romaji prompt
NEW_PER_DAY = 10  # flashcard arms introduce at most this many new cards a day
# the game (Kazoku families, 4 players, human + 3 CPUs): per minute of play
GAME_EXPOSURES_PER_MIN = 6.0  # cards newly shown in the learner's own view
GAME_HAND_ENTRIES_PER_MIN = 1.5  # cards entering the learner's hand (prompt candidates)
TYPED_STABILITY = srs.TYPED_STABILITY_DAYS  # product: stable kana are asked typed (play.py)
DEV_SEEDS = (101, 102)  # the loop's rules were tuned on these
HELD_OUT_SEEDS = (2026, 2027)  # the figures of docs/bench.md


@dataclass(frozen=True)
class World:
    name: str
    init_stability: float  # days, after a first study of an average item
    gain: float  # stability growth factor of a successful free recall
    confusion: float  # severity of a visual look-alike pair
    heavy_confusion: float  # severity of the HEAVY_PAIRS
    idiosyncratic: float  # severity of each learner's own 3 confusion pairs


WORLDS = (
    World(
        "average",
        init_stability=1.5,
        gain=4.0,
        confusion=0.25,
        heavy_confusion=0.25,
        idiosyncratic=0.2,
    ),
    World(
        "fast-forgetting",
        init_stability=0.8,
        gain=2.8,
        confusion=0.25,
        heavy_confusion=0.25,
        idiosyncratic=0.2,
    ),
    World(
        "confusion",
        init_stability=1.5,
        gain=4.0,
        confusion=0.3,
        heavy_confusion=0.65,
        idiosyncratic=0.25,
    ),
)

# ground-truth learning rates (docs/learning.md explains each)
GAIN_RECOGNITION = 0.6  # a recognition success strengthens memory less than a free recall
# seeing a card in play: a restudy of strength ``exposure`` (swept: 0, 0.1, 0.25), and a
# first sight encodes 2 * exposure of a flashcard study (0.5 at 0.25)
LAPSE_KEEP = 0.4  # a failed retrieval keeps this share of stability (then relearned)
D_START = 0.2  # discrimination between an item and its look-alikes, before any contrast
D_CONTRAST_RIGHT = 0.25  # a choice among its look-alikes, answered right
D_CONTRAST_WRONG = 0.35  # ... answered wrong, then corrected (feedback)
D_RECALL_RIGHT = 0.05  # free recall without the look-alike in view
D_RECALL_WRONG = 0.15  # free recall, confused, then corrected
D_EXPOSURE = 0.01


@dataclass
class Item:
    difficulty: float
    confusers: dict[str, float]  # look-alike kana id -> severity (same script)
    stability: float = 0.0
    last: float = -1.0  # day of the last encoding event; -1 = never met
    discrimination: float = D_START

    def recall(self, day: float) -> float:
        """Probability of retrieving the item's identity now (exponential forgetting)."""
        if self.last < 0:
            return 0.0
        return math.exp(-(day - self.last) / self.stability)

    def confusion(self, present: set[str] | None = None) -> tuple[float, str]:
        """Probability that a retrieved item is answered as a look-alike, and which one."""
        options = {k: c for k, c in self.confusers.items() if present is None or k in present}
        if not options:
            return 0.0, ""
        keep = 1.0
        for severity in options.values():
            keep *= 1.0 - severity * (1.0 - self.discrimination)
        return 1.0 - keep, max(options, key=options.get)


@dataclass
class Learner:
    index: int
    items: dict[tuple[str, str], Item]
    rng: random.Random
    reviews: int = 0  # answers (flashcard recalls, prompts): the workload
    studies: int = 0  # first presentations of new flashcards (also workload)
    exposures: int = 0
    seconds: float = 0.0  # answering and flashcard time (the study workload)
    game_seconds: float = 0.0  # playing (product only): not study time, reported apart
    picks: Counter = field(default_factory=Counter)
    confusions: Counter = field(default_factory=Counter)  # what the product has observed


def _kana_difficulty(world_seed: int) -> dict[tuple[str, str], float]:
    rng = random.Random(world_seed)
    base = {}
    for kana_id, script in ITEMS:
        d = rng.gauss(0.0, 0.3) + (0.2 if script == "katakana" else 0.0)
        if kana_id in kana_table.confusable_ids(script):
            d += 0.2
        base[(kana_id, script)] = d
    return base


def learner_make(world: World, index: int, seed: int) -> Learner:
    """The same learner (ability, difficulties, own confusions) in every arm."""
    rng = random.Random(f"{seed}:{world.name}:{index}")
    ability = rng.gauss(0.0, 0.25)
    base = _kana_difficulty(seed)
    items = {}
    for kana_id, script in ITEMS:
        confusers = {}
        for other in kana_table.look_alikes(kana_id, script):
            if other not in CARDS:
                continue
            heavy = (script, frozenset({kana_id, other})) in HEAVY_PAIRS
            confusers[other] = world.heavy_confusion if heavy else world.confusion
        items[(kana_id, script)] = Item(
            difficulty=base[(kana_id, script)] - ability + rng.gauss(0.0, 0.15),
            confusers=confusers,
        )
    for _ in range(3):  # three confusions of this learner's own, within a row or column
        script = rng.choice(SCRIPTS)
        a = rng.choice(CARDS)
        info = kana_table.info(a, script)
        mates = [
            k
            for k in CARDS
            if k != a
            and (
                kana_table.info(k, script).row == info.row
                or kana_table.info(k, script).column == info.column
            )
        ]
        if not mates:  # ん shares neither row nor column
            continue
        b = rng.choice(mates)
        items[(a, script)].confusers.setdefault(b, world.idiosyncratic)
        items[(b, script)].confusers.setdefault(a, world.idiosyncratic)
    return Learner(index=index, items=items, rng=random.Random(f"{seed}:{world.name}:{index}:run"))


# --- ground-truth events ----------------------------------------------------------------------


def _strengthen(world: World, item: Item, day: float, factor: float) -> None:
    """Spacing effect: a success grows stability more the harder the retrieval was
    (nothing at recall 1: massed repetition adds little)."""
    recall = item.recall(day)
    growth = world.gain * factor * math.exp(-item.difficulty) * math.sqrt(max(1.0 - recall, 0))
    item.stability *= 1.0 + growth
    item.last = day


def study_new(world: World, item: Item, day: float, strength: float = 1.0) -> None:
    item.stability = world.init_stability * strength * math.exp(-item.difficulty)
    item.last = day


def _relearn(world: World, item: Item, day: float) -> None:
    floor = world.init_stability * math.exp(-item.difficulty)
    item.stability = max(floor, item.stability * LAPSE_KEEP)
    item.last = day


def _nudge(item: Item, rate: float) -> None:
    if item.confusers:
        item.discrimination += rate * (1.0 - item.discrimination)


def free_recall(world: World, learner: Learner, item: Item, day: float) -> tuple[bool, str, float]:
    """Flashcard or typed answer: (correct, answered look-alike, recall before)."""
    recall = item.recall(day)
    rng = learner.rng
    confused_with = ""
    if rng.random() < recall:
        p_conf, other = item.confusion()
        if rng.random() < p_conf:
            confused_with = other
    else:
        recall_ok = False
        _relearn(world, item, day)
        _nudge(item, D_RECALL_RIGHT)
        return recall_ok, "", recall
    if confused_with:
        _relearn(world, item, day)
        _nudge(item, D_RECALL_WRONG)
        return False, confused_with, recall
    _strengthen(world, item, day, 1.0)
    _nudge(item, D_RECALL_RIGHT)
    return True, "", recall


def choice_answer(
    world: World, learner: Learner, item: Item, day: float, choices: list[str]
) -> tuple[bool, str, float]:
    """Four-button recognition: look-alikes among the choices can trigger a confusion;
    without retrieval the learner guesses among the choices."""
    rng = learner.rng
    recall = item.recall(day)
    present = set(choices)
    contrast = bool(present & set(item.confusers))
    if rng.random() < recall:
        p_conf, other = item.confusion(present)
        if rng.random() < p_conf:
            _relearn(world, item, day)
            _nudge(item, D_CONTRAST_WRONG)
            return False, other, recall
        _strengthen(world, item, day, GAIN_RECOGNITION)
        _nudge(item, D_CONTRAST_RIGHT if contrast else D_RECALL_RIGHT)
        return True, "", recall
    guess = rng.choice(choices)
    _relearn(world, item, day)  # feedback shows the right answer
    _nudge(item, D_CONTRAST_WRONG if contrast else D_RECALL_WRONG)
    return guess == choices[0], guess if guess != choices[0] else "", recall


def expose(world: World, item: Item, day: float, effect: float) -> None:
    """A card seen in play: first sight encodes weakly, later ones restudy a little
    (``effect``: the exposure effect of the run, 0 = seeing teaches nothing)."""
    if effect <= 0:
        return
    if item.last < 0:
        study_new(world, item, day, 2 * effect)
        return
    recall = item.recall(day)
    item.stability *= 1.0 + effect * math.exp(-item.difficulty) * math.sqrt(1.0 - recall)
    _nudge(item, D_EXPOSURE)


def test_recall(item: Item, day: float) -> float:
    """Day-44 free recall: retrieved and not confused with a look-alike."""
    p_conf, _ = item.confusion()
    return item.recall(day) * (1.0 - p_conf)


def response_ms(rng: random.Random, recall: float, correct: bool) -> int:
    """Fluent answers are fast: the time the FSRS grading (srs.rating_for) sees."""
    base = 1500 + 7000 * (1.0 - recall) + rng.gauss(0, 600)
    return int(max(600, base if correct else base + 1500))


# --- arms -------------------------------------------------------------------------------------


def _moment(day: float) -> datetime:
    return EPOCH + timedelta(days=day)


@dataclass(frozen=True)
class Rules:
    """The loop's tunable rules (tuned on DEV_SEEDS; the product's values are the defaults)."""

    typed_from: float = TYPED_STABILITY  # stability (days) from which a kana is asked typed
    ask_below: float = srs.WEAK_RETRIEVABILITY  # in play, ask a reviewed kana below this recall
    warmup: bool = True  # due kana asked before the game
    # a right pick among choices: Hard unless fast on a stable kana (srs.rating_for); False:
    # the earlier rule (Good unless slow), for the ablation that justifies the change
    guess_aware: bool = True


@dataclass(frozen=True)
class Run:
    """One run's settings: minutes a day, of which minutes of play, and the exposure effect."""

    minutes: float = 6.0
    game: float = 4.0
    exposure: float = 0.1
    rules: Rules = Rules()


class FixedIntervals:
    STEPS = (1, 3, 7, 14, 30)

    def __init__(self):
        self.step, self.next = {}, {}

    def add(self, pair, day):
        self.step[pair], self.next[pair] = 0, day + self.STEPS[0]

    def due(self, pair):
        return self.next[pair]

    def review(self, pair, ok, day, ms):
        self.step[pair] = min(self.step[pair] + 1, len(self.STEPS) - 1) if ok else 0
        self.next[pair] = day + self.STEPS[self.step[pair]]


class Leitner(FixedIntervals):
    STEPS = (1, 2, 4, 8, 16)


class FsrsCards:
    def __init__(self):
        self.scheduler = srs.scheduler_build(fuzzing=False)
        self.cards = {}

    def add(self, pair, day):
        self.cards[pair] = srs.card_new(card_id=len(self.cards) + 1, now=_moment(day))

    def due(self, pair):
        return (self.cards[pair].due - EPOCH).total_seconds() / 86400

    def review(self, pair, ok, day, ms):
        self.cards[pair] = srs.review(
            scheduler=self.scheduler, card=self.cards[pair], correct=ok, response_ms=ms,
            at=_moment(day),
        ).card  # fmt: skip


class Flashcards:
    """A learner studying flashcards for a given number of seconds a day: due cards first
    (most overdue), then new ones (at most NEW_PER_DAY a day, in a random order), then,
    while time remains, the cards due soonest (reviewed ahead: the learner keeps studying)."""

    def __init__(self, world: World, learner: Learner, schedule):
        self.world, self.learner, self.schedule = world, learner, schedule
        self.introduced: list[tuple[str, str]] = []
        self.order = list(ITEMS)
        learner.rng.shuffle(self.order)

    def session(self, start: float, seconds: float) -> None:
        spent, fresh = 0.0, 0
        learner = self.learner
        while True:
            moment = start + spent / 86400
            due = [p for p in self.introduced if self.schedule.due(p) <= moment]
            if due:
                pair, cost = min(due, key=self.schedule.due), COST_RECALL
            elif self.order and fresh < NEW_PER_DAY:
                pair, cost = self.order[-1], COST_STUDY_NEW
            elif self.introduced:
                pair, cost = min(self.introduced, key=self.schedule.due), COST_RECALL
            elif self.order:
                pair, cost = self.order[-1], COST_STUDY_NEW
            else:
                return
            if spent + cost > seconds:
                break
            if cost == COST_STUDY_NEW:
                self.order.pop()
                study_new(self.world, learner.items[pair], moment)
                self.schedule.add(pair, moment)
                self.introduced.append(pair)
                learner.studies += 1
                fresh += 1
            else:
                ok, _, recall = free_recall(self.world, learner, learner.items[pair], moment)
                self.schedule.review(pair, ok, moment, response_ms(learner.rng, recall, ok))
                learner.reviews += 1
            spent += cost
        learner.seconds += spent


def statuses_of(scheduler, cards: dict, day: float) -> dict[tuple[str, str], KanaStatus]:
    """What learning.selectors gives the picker, from FSRS cards."""
    now = _moment(day)
    found = {}
    for pair, card in cards.items():
        if card.last_review is None:
            continue
        state = srs.state_of(reps=1, due=card.due, stability=card.stability, now=now)
        recall = srs.retrievability(scheduler=scheduler, card=card, now=now)
        weak = card.state != srs.State.Review or recall < srs.WEAK_RETRIEVABILITY
        found[pair] = KanaStatus(state=state, retrievability=recall, weak=weak)
    return found


def game_minutes(world, learner, run: Run, day: float, statuses, on_hand=None) -> None:
    """``run.game`` minutes of Kazoku families in the variant and script the picker chose:
    cards newly shown (exposures), cards entering the hand (exposures, then ``on_hand``:
    the loop's prompts). Hands lean towards kana that need work (the player asks for them)."""
    best = rank(statuses=statuses, engines=("kazoku-families",))[0]
    learner.picks[best.options["variant"] + "/" + best.options["script"]] += 1
    script = best.options["script"]
    rng = learner.rng
    weights = [1.0 + 0.5 * _need(statuses.get((k, _script(script, k, rng)))) for k in CARDS]
    for minute in range(int(run.game)):
        clock = day + minute / 1440
        for _ in range(_poisson(rng, GAME_EXPOSURES_PER_MIN)):
            k = rng.choice(CARDS)
            learner.exposures += 1
            expose(world, learner.items[(k, _script(script, k, rng))], clock, run.exposure)
        for _ in range(_poisson(rng, GAME_HAND_ENTRIES_PER_MIN)):
            k = rng.choices(CARDS, weights=weights)[0]
            pair = (k, _script(script, k, rng))
            learner.exposures += 1
            expose(world, learner.items[pair], clock, run.exposure)
            if on_hand is not None:
                on_hand(pair, clock)
    learner.game_seconds += run.game * 60.0


def arm_flashcards(schedule_class):
    def arm(world, learner, run: Run, recorder=None):
        cards = Flashcards(world, learner, schedule_class())
        for day in range(STUDY_DAYS):
            cards.session(float(day), run.minutes * 60.0)

    return arm


def arm_fsrs_game(world, learner, run: Run, recorder=None):
    """The same game as the loop (prompts off), then FSRS flashcards for the rest."""
    schedule = FsrsCards()
    cards = Flashcards(world, learner, schedule)
    for day in range(STUDY_DAYS):
        statuses = statuses_of(schedule.scheduler, schedule.cards, float(day))
        game_minutes(world, learner, run, float(day), statuses)
        cards.session(day + run.game / 1440, (run.minutes - run.game) * 60.0)


class Product:
    """The Kanagame loop, with the product's own FSRS, picker, distractors and prediction."""

    def __init__(self, world: World, learner: Learner, run: Run, recorder=None):
        self.world, self.learner, self.run, self.rules = world, learner, run, run.rules
        self.scheduler = srs.scheduler_build(fuzzing=False)
        self.cards: dict[tuple[str, str], object] = {}
        # bench/srs_predict.py: every answer, with the true P(correct), the true recall and
        # the true chance of answering a look-alike once recalled (its --diagnose)
        self.recorder = recorder
        self.budget = 0.0
        self.spent = 0.0

    def left(self) -> float:
        return self.budget - self.spent

    def typed(self, pair) -> bool:
        card = self.cards.get(pair)
        return card is not None and (card.stability or 0.0) >= self.rules.typed_from

    def ask(self, pair: tuple[str, str], day: float, kind: str) -> None:
        """One prompt (choices or typed, as play.py decides), its time counted."""
        learner, item = self.learner, self.learner.items[pair]
        card = self.cards.get(pair)
        typed = self.typed(pair)
        choices = []
        if typed:
            p_conf, _ = item.confusion()
            recall_now = item.recall(day)
            p_true = recall_now * (1 - p_conf)
            ok, other, recall = free_recall(self.world, learner, item, day)
            cost = COST_TYPED
        else:
            learned = [k for k, _ in self._learned(pair)]
            distractors = kana_table.distractors(
                kana_id=pair[0], script=pair[1], learned=learned, count=3, rng=learner.rng
            )
            choices = [pair[0], *distractors]
            p_conf, _ = item.confusion(set(choices))
            recall_now = item.recall(day)
            p_true = recall_now * (1 - p_conf) + (1 - recall_now) / len(choices)
            ok, other, recall = choice_answer(self.world, learner, item, day, choices)
            cost = COST_CHOICE
        if other:
            learner.confusions[(pair, other)] += 1
        ms = response_ms(learner.rng, recall, ok)
        if self.recorder is not None:
            self.recorder.append({
                "learner": learner.index, "day": day, "kana": pair[0], "script": pair[1],
                "kind": "typed" if typed else kind, "choices": len(choices), "correct": ok,
                "ms": ms, "p_true": p_true, "recall_true": recall_now, "p_confusion": p_conf,
            })  # fmt: skip
        card = card or srs.card_new(card_id=len(self.cards) + 1, now=_moment(day))
        if typed or self.rules.guess_aware:
            self.cards[pair] = srs.review(
                scheduler=self.scheduler, card=card, correct=ok, response_ms=ms,
                at=_moment(day), recognition=not typed,
            ).card  # fmt: skip
        else:
            rating = srs.Rating.Again if not ok else (
                srs.Rating.Hard if ms > srs.SLOW_MS else srs.Rating.Good)  # fmt: skip
            self.cards[pair] = self.scheduler.review_card(card, rating, _moment(day), ms)[0]
        learner.reviews += 1
        self.spent += cost

    def _learned(self, pair):
        """The learner's confusions involving this kana, both ways (play.confusions_for)."""
        found: Counter = Counter()
        for (p, other), n in self.learner.confusions.items():
            if p == pair:
                found[other] += n
            elif other == pair[0] and p[1] == pair[1]:
                found[p[0]] += n
        return sorted(found.items(), key=lambda item: (-item[1], item[0]))

    def cost(self, pair) -> float:
        return COST_TYPED if self.typed(pair) else COST_CHOICE

    def quiz_order(self, day: float) -> list[tuple[str, str]]:
        """learning.services.quiz.quiz_kana_for: due, weak, new (gojuon order), lowest recall."""
        statuses = statuses_of(self.scheduler, self.cards, day)
        due = sorted(
            (p for p, s in statuses.items() if s.state == "due"), key=lambda p: self.cards[p].due
        )
        weak = sorted(
            (p for p, s in statuses.items() if s.weak and s.state != "due"),
            key=lambda p: statuses[p].retrievability,
        )
        new = [p for p in ITEMS if p not in statuses]
        rest = sorted(statuses, key=lambda p: statuses[p].retrievability)
        seen: dict = {}
        for pair in [*due, *weak, *new[:NEW_PER_DAY], *rest]:
            seen.setdefault(pair, None)
        return list(seen)

    def day(self, day: int) -> None:
        """Warm-up (due kana), the game with prompts (mode "new"), then the quiz for the rest
        of the day's minutes. Prompts stop when the minutes are spent (the game goes on)."""
        run = self.run
        self.budget, self.spent = run.minutes * 60.0, 0.0
        reserve = run.game * 60.0
        clock = float(day)
        if self.rules.warmup:
            now = _moment(clock)
            due = sorted(
                (p for p, c in self.cards.items() if c.due <= now + timedelta(hours=12)),
                key=lambda p: self.cards[p].due,
            )
            for pair in due:
                if self.left() - reserve < self.cost(pair):
                    break
                self.ask(pair, clock + self.spent / 86400, "quiz_choice")
        start = clock + self.spent / 86400
        statuses = statuses_of(self.scheduler, self.cards, start)
        self.spent += reserve

        def on_hand(pair, moment):
            if self.left() < self.cost(pair):
                return
            card = self.cards.get(pair)
            if card is not None and card.last_review is not None:
                now = _moment(moment)
                state = srs.state_of(reps=1, due=card.due, stability=card.stability, now=now)
                recall = srs.retrievability(scheduler=self.scheduler, card=card, now=now)
                learning = card.state != srs.State.Review
                if state != "due" and not learning and recall >= self.rules.ask_below:
                    return
            self.ask(pair, moment, "play_prompt")

        game_minutes(self.world, self.learner, run, start, statuses, on_hand)
        clock = start + (run.game + 1) / 1440
        while True:  # the quiz, for what is left of the day's minutes
            asked = False
            for pair in self.quiz_order(clock + self.spent / 86400):
                if self.left() < self.cost(pair):
                    continue
                self.ask(pair, clock + self.spent / 86400, "quiz_choice")
                asked = True
            if not asked:
                break
        self.learner.seconds += self.spent - reserve


def arm_product(world, learner, run: Run, recorder=None):
    loop = Product(world, learner, run, recorder)
    for day in range(STUDY_DAYS):
        loop.day(day)


def _script(script: str, kana_id: str, rng: random.Random) -> str:
    return script if script != "mixed" else rng.choice(SCRIPTS)


def _need(status: KanaStatus | None) -> float:
    from learning.picker import need_of

    return need_of(status)


def _poisson(rng: random.Random, mean: float) -> int:
    limit, k, p = math.exp(-mean), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


ARMS = {
    "leitner": arm_flashcards(Leitner),
    "fixed": arm_flashcards(FixedIntervals),
    "fsrs": arm_flashcards(FsrsCards),
    "fsrs+game": arm_fsrs_game,
    "kanagame": arm_product,
}
PLAYING = ("fsrs+game", "kanagame")  # the arms that play (and get the exposure effect)


def run_one(job) -> dict:
    world_name, arm, index, seed, run = job
    world = next(w for w in WORLDS if w.name == world_name)
    learner = learner_make(world, index, seed)
    ARMS[arm](world, learner, run)
    score = {p: test_recall(learner.items[p], float(TEST_DAY)) for p in ITEMS}
    visual = [p for p in ITEMS if p[0] in kana_table.confusable_ids(p[1])]
    return {
        "world": world_name,
        "arm": arm,
        "seed": seed,
        "learner": index,
        "recall": sum(score.values()) / len(ITEMS),
        "recall_confusable": sum(score[p] for p in visual) / len(visual),
        "answers": learner.reviews + learner.studies,
        "answer_minutes": learner.seconds / 60.0,
        "play_minutes": learner.game_seconds / 60.0,
        "minutes": (learner.seconds + learner.game_seconds) / 60.0,
    }


def simulate(*, seeds, learners: int, worlds, exposures, run: Run, processes: int) -> dict:
    """{world/exposure: {arm: figures}} averaged over seeds x learners (paired learners)."""
    jobs = []
    for world in worlds:
        for exposure in exposures:
            setting = Run(run.minutes, run.game, exposure, run.rules)
            for arm in ARMS:
                if exposure != exposures[0] and arm not in PLAYING:
                    continue  # flashcard arms do not play: the exposure changes nothing
                for seed in seeds:
                    jobs.extend((world, arm, i, seed, setting) for i in range(learners))
    if processes > 1:
        with Pool(processes) as pool:
            rows = pool.map(run_one, jobs, chunksize=4)
    else:
        rows = list(map(run_one, jobs))
    exposure_of = {id(job): job[4].exposure for job in jobs}
    groups: dict = defaultdict(list)
    for job, row in zip(jobs, rows, strict=True):
        groups[(row["world"], exposure_of[id(job)], row["arm"])].append(row)
    out: dict = {}
    for world in worlds:
        for exposure in exposures:
            key = f"{world}/exposure={exposure:g}"
            arms = {}
            for arm in ARMS:
                group = groups.get((world, exposure, arm)) or groups.get((world, exposures[0], arm))
                n = len(group)
                mean = {k: sum(r[k] for r in group) / n for k in group[0] if k not in (
                    "world", "arm", "seed", "learner")}  # fmt: skip
                sd = math.sqrt(sum((r["recall"] - mean["recall"]) ** 2 for r in group) / (n - 1))
                arms[arm] = {
                    "minutes": round(mean["minutes"], 1),
                    "recall": round(100 * mean["recall"], 1),
                    "recall_ci95": round(100 * 1.96 * sd / math.sqrt(n), 1),
                    "recall_confusable": round(100 * mean["recall_confusable"], 1),
                    "play_minutes": round(mean["play_minutes"], 1),
                    "answer_minutes": round(mean["answer_minutes"], 1),
                    "answers": round(mean["answers"], 1),
                }
            base = {(r["seed"], r["learner"]): r for r in groups[(world, exposure, "kanagame")]}
            other = {(r["seed"], r["learner"]): r for r in groups[(world, exposure, "fsrs+game")]}
            diffs = [100 * (base[k]["recall"] - other[k]["recall"]) for k in base]
            m = sum(diffs) / len(diffs)
            sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / max(len(diffs) - 1, 1))
            out[key] = {
                "arms": arms,
                "kanagame_minus_fsrs_game": {
                    "mean": round(m, 1), "ci95": round(1.96 * sd / math.sqrt(len(diffs)), 1)
                },
            }  # fmt: skip
    return out


def grading_ablation(*, seeds, learners: int, worlds, exposure: float, processes: int) -> dict:
    """The loop with the product's grading of right picks (Hard unless fast on a stable kana)
    against the earlier rule (Good unless slow), same learners: {world: figures}."""
    rules = {"hard_unless_fast_and_stable": Rules(), "good_unless_slow": Rules(guess_aware=False)}
    jobs = [
        (world, "kanagame", i, seed, Run(exposure=exposure, rules=rule))
        for world in worlds
        for rule in rules.values()
        for seed in seeds
        for i in range(learners)
    ]
    with Pool(processes) as pool:
        rows = pool.map(run_one, jobs, chunksize=4)
    out: dict = {}
    for world in worlds:
        found = {}
        for name, rule in rules.items():
            found[name] = {
                (r["seed"], r["learner"]): r
                for job, r in zip(jobs, rows, strict=True)
                if job[0] == world and job[4].rules == rule
            }
        new, old = found.values()
        diffs = [100 * (new[k]["recall"] - old[k]["recall"]) for k in new]
        m = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / max(len(diffs) - 1, 1))
        out[world] = {
            **{
                name: {
                    "recall": round(100 * sum(r["recall"] for r in g.values()) / len(g), 1),
                    "answers": round(sum(r["answers"] for r in g.values()) / len(g), 1),
                    "minutes": round(sum(r["minutes"] for r in g.values()) / len(g), 1),
                }
                for name, g in found.items()
            },
            "difference": {
                "mean": round(m, 1),
                "ci95": round(1.96 * sd / math.sqrt(len(diffs)), 1),
            },
        }
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=20, help="per seed, arm and world")
    parser.add_argument(
        "--seeds", default="held-out", help="held-out | dev | comma-separated integers"
    )
    parser.add_argument("--minutes", type=float, default=6.0, help="learner minutes a day")
    parser.add_argument("--game", type=float, default=4.0, help="of which minutes of play")
    parser.add_argument("--exposure", default="0,0.1,0.25", help="exposure effects swept")
    parser.add_argument("--worlds", default=",".join(w.name for w in WORLDS))
    parser.add_argument("--typed-from", type=float, default=Rules.typed_from)
    parser.add_argument("--ask-below", type=float, default=Rules.ask_below)
    parser.add_argument("--no-warmup", action="store_true")
    parser.add_argument(
        "--old-choice-grading", action="store_true", help="a right pick is Good unless slow"
    )
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="the table of docs/bench.md")
    parser.add_argument(
        "--grading-ablation", action="store_true",
        help="only the loop, product grading of right picks against the earlier rule",
    )  # fmt: skip
    args = parser.parse_args(argv)
    seeds = {"held-out": HELD_OUT_SEEDS, "dev": DEV_SEEDS}.get(args.seeds) or tuple(
        int(s) for s in args.seeds.split(",")
    )
    if args.grading_ablation:
        found = grading_ablation(
            seeds=seeds, learners=args.learners, worlds=args.worlds.split(","),
            exposure=float(args.exposure.split(",")[0]), processes=args.processes,
        )  # fmt: skip
        print(json.dumps({"seeds": list(seeds), "worlds": found}, indent=2))
        return found
    rules = Rules(
        typed_from=args.typed_from,
        ask_below=args.ask_below,
        warmup=not args.no_warmup,
        guess_aware=not args.old_choice_grading,
    )
    run = Run(minutes=args.minutes, game=args.game, rules=rules)
    started = time.perf_counter()
    worlds = simulate(
        seeds=seeds,
        learners=args.learners,
        worlds=args.worlds.split(","),
        exposures=[float(e) for e in args.exposure.split(",")],
        run=run,
        processes=args.processes,
    )
    result = {
        "seeds": list(seeds),
        "learners_per_seed": args.learners,
        "minutes_per_day": args.minutes,
        "play_minutes_per_day": args.game,
        "rules": {
            "typed_from": rules.typed_from,
            "ask_below": rules.ask_below,
            "warmup": rules.warmup,
        },  # fmt: skip
        "seconds": round(time.perf_counter() - started, 1),
        "worlds": worlds,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _markdown(result)
    return result


def _markdown(result: dict) -> None:
    arms = list(ARMS)
    print(
        f"seeds {result['seeds']}, {result['learners_per_seed']} learners per seed, "
        f"{result['minutes_per_day']} min/day ({result['play_minutes_per_day']} of play for "
        f"the arms that play), rules {result['rules']}, {result['seconds']} s"
    )
    print()
    print("| world / exposure | " + " | ".join(arms) + " | kanagame − fsrs+game |")
    print("| --- |" + " ---: |" * (len(arms) + 1))
    for key, found in result["worlds"].items():
        cells = [
            f"{found['arms'][a]['recall']} (±{found['arms'][a]['recall_ci95']}) "
            f"· {found['arms'][a]['minutes']:.0f} min"
            for a in arms
        ]
        d = found["kanagame_minus_fsrs_game"]
        print(f"| {key} | " + " | ".join(cells) + f" | {d['mean']:+.1f} (±{d['ci95']}) |")


if __name__ == "__main__":
    main()
