"""Simulated learners: does Kanagame's loop teach kana better than flashcards, minute for minute?

    .venv/bin/python bench/srs_sim.py [--learners 10] [--seeds held-out] [--minutes 6,10,15]
        [--game 4,8] [--exposure 0,0.1,0.25] [--arms fsrs,fsrs+game,kanagame] [--json]
        [--lesson-budget]                    # session 14's lesson rule, off in the product
    .venv/bin/python bench/srs_sim.py --tune --seeds dev     # the lesson's rules; dev seeds only

Pure Python apart from ``django.setup()``: it runs the product's own code — ``learning.srs``
(FSRS through the ``fsrs`` library), ``learning.picker.rank``, ``learning.kana_table``, the
lesson's ``lesson_plan``, the quiz's ``quiz_order`` / ``quiz_pending`` / ``quiz_kinds`` /
``readings_apart``, writing's ``writing_kind`` and the daily table's prompt mode
— on simulated learners whose memory follows a ground-truth model that is NOT FSRS (stated
in docs/learning.md, section "Simulation"). Every arm gets the same learner minutes a day
(answering, studying and playing all count), days 0-29; nothing days 30-43; a free-recall
test (glyph -> reading) of the 90 Kazoku kana (45 hiragana + 45 katakana) on day 44. The sweep
runs every budget x minutes of play x world x exposure cell (play shorter than the day).

Arms (names as printed and in docs/bench.md):

leitner          flashcards, 5 boxes reviewed every 1, 2, 4, 8, 16 days
fixed            flashcards, reviews 1, 3, 7, 14, 30 days after the last success
fsrs             flashcards scheduled by the product's FSRS, new cards learnt as Anki does
                 (study, a learning step of a minute or more, first review the next day)
fsrs+game        the same game as the loop (same minutes of play, prompts off), then FSRS
                 flashcards for the rest of the day's minutes
kanagame         the product's daily session: lessons (none while due kana are pending) and
                 warm-up quiz runs (typed recall alternating with writing) for the minutes not
                 played, then the game the picker chose with prompts on the cards newly shown
                 not answered right in the last 12 hours (the daily table's mode "seen")

Every arm that plays gets the same exposure effect (``--exposure``, swept). Seeds: a
development set (the loop's rules were tuned on it; ``--tune`` accepts only it) and a
held-out set (the figures).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
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
from learning.picker import KanaStatus, need_of, rank  # noqa: E402
from learning.services.daily import DAILY_PROMPTS, PLAY_FIRST_FACTOR, play_first_rule  # noqa: E402
from learning.services.lesson import (  # noqa: E402
    LESSON_ANSWER_SECONDS,
    LESSON_BUDGET,
    LESSON_DAY_MAX,
    LESSON_PENDING_MAX,
    LESSON_SIZE,
    lesson_plan,
)
from learning.services.play import ASK_REMEMBERED, ASK_SHOWN  # noqa: E402
from learning.services.quiz import (  # noqa: E402
    BACKLOG_FACTOR,
    QUIZ_LENGTH,
    SCRIPT_BALANCE,
    quiz_kinds,
    quiz_order,
    quiz_pending,
)
from learning.services.quiz import readings_apart as quiz_apart  # noqa: E402
from learning.services.warmup import warmup_seconds  # noqa: E402
from learning.services.writing import writing_kind  # noqa: E402

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
COST_LESSON = COST_STUDY_NEW  # a lesson card: the kana, its reading, sound and strokes
# a written answer (learning.writing): recall the glyph from its reading, draw its 1-4 strokes
# on the canvas (about a second and a half each, placing included), press Check, read the
# verdict. No measured figure yet (docs/learning.md, Writing): 12 s, half again a typed answer.
COST_WRITE = 12.0
# a written answer refused although the kana was recalled: a stroke out of order, backwards or
# misplaced (learning.writing.check judges order and direction). An assumption (no data yet):
# one drawing in ten. The memory is strengthened (it was recalled), the answer graded wrong.
WRITE_SLIP = 0.1
NEW_PER_DAY = 10  # flashcard arms introduce at most this many new cards a day
LEARNING_STEP_MIN = 1.0  # a new flashcard's learning step (Anki's first step: 1 minute)
# the game (Kazoku families, 4 players, human + 3 CPUs): per minute of play
GAME_EXPOSURES_PER_MIN = 6.0  # cards newly shown in the learner's own view
GAME_HAND_ENTRIES_PER_MIN = 1.5  # cards entering the learner's hand (prompt candidates)
DEV_SEEDS = (101, 102)  # the loop's rules were tuned on these
HELD_OUT_SEEDS = (2026, 2027)  # the figures of docs/bench.md


def dev_seeds_only(text: str) -> list[int]:
    """The comma-separated seeds of a tuning tool's ``--seeds``, refused unless every one is a
    development seed (an allow-list: a held-out seed never tunes a rule)."""
    seeds = [int(s) for s in text.split(",")]
    if not set(seeds) <= set(DEV_SEEDS):
        raise SystemExit(f"development seeds only ({DEV_SEEDS}): this tool tunes a rule")
    return seeds


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
D_RECALL_RIGHT = 0.05  # a right answer: the kana told apart from its look-alikes a little
D_RECALL_WRONG = 0.15  # confused, then corrected by the feedback
# Issue 27: four choices showing a look-alike used to train discrimination 5x faster (0.25 /
# 0.35). No published figure supports a bonus of that size for picking among buttons over
# recalling, so choices now train it like recall (what is published: contrasting confusable
# items helps, e.g. interleaving (Kang & Pashler 2012), for both formats alike).
D_CONTRAST_RIGHT = D_RECALL_RIGHT
D_CONTRAST_WRONG = D_RECALL_WRONG
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
    asked: set = field(default_factory=set)  # items answered at least once
    first_asked: dict = field(default_factory=dict)  # item -> day of its first answer
    kinds: Counter = field(default_factory=Counter)  # answers by kind (the loop)


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


def write_answer(world: World, learner: Learner, item: Item, day: float) -> tuple[bool, str, float]:
    """A drawn kana (reading -> glyph): production recall like a typed answer (a look-alike
    drawn is a confusion), and a recalled kana drawn wrong (``WRITE_SLIP``) is refused."""
    ok, other, recall = free_recall(world, learner, item, day)
    if ok and learner.rng.random() < WRITE_SLIP:
        return False, "", recall
    return ok, other, recall


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


def _next_session(day: float) -> float:
    """The start of the next day's session (sessions start at whole days)."""
    return math.floor(day + 1e-9) + 1.0


@dataclass(frozen=True)
class Rules:
    """The loop's tunable rules (tuned on DEV_SEEDS only; the product's values are the
    defaults)."""

    lesson_size: int = LESSON_SIZE  # kana a lesson teaches (learning.services.lesson)
    lesson_day_max: int = LESSON_DAY_MAX  # lesson cards a day at most
    lesson_pending_max: int = LESSON_PENDING_MAX  # a lesson waits while this many are pending
    # the lesson keeps to the day's minutes (lesson_plan's review_seconds, from
    # lesson.warmup_seconds: the learner's goal is in minutes, the simulated day's budget);
    # the product's switch, off (docs/bench.md session 14: tried, not adopted): False is the
    # rules above alone, as for a goal in reviews
    lesson_budget: bool = LESSON_BUDGET
    lesson_answer_seconds: float = LESSON_ANSWER_SECONDS  # an answer, as the rule counts it
    warmup: bool = True  # lesson and quiz runs before the game (the daily session)
    prompts: str = DAILY_PROMPTS  # the daily table's prompt mode (learning.services.daily)
    writing: bool = True  # typed recall alternates with writing (learning.services.writing)
    # a right pick among choices: Hard unless fast on a stable kana (srs.rating_for); False:
    # the earlier rule (Good unless slow), for the ablation that justifies the change
    guess_aware: bool = True
    # under a backlog the warm-up asks the due kana still likely remembered first
    # (quiz.quiz_order, with the warm-up's seconds as the product computes them,
    # warmup.warmup_seconds); None: most overdue first whatever the backlog (the earlier rule)
    backlog_factor: float | None = BACKLOG_FACTOR
    # in play, a kana not answered right recently is also asked when fsrs' retrievability is
    # under this, whatever its state; 1.0: every such kana (the product's mode "seen",
    # ``play.ASK_REMEMBERED``); None: only kana new, due or weak (``srs.worth_asking``, the
    # rule before session 19)
    play_ask_below: float | None = 1.0 if DAILY_PROMPTS in ASK_REMEMBERED else None
    # the game before the warm-up from the second day on (the product's
    # ``daily.play_first_rule``: not on the first day, whose lesson comes first, nor when the
    # day's due kana's answers are more than this many warm-ups); True: every day but the
    # first, False: the warm-up first every day (the order before session 24)
    play_first: bool | float = PLAY_FIRST_FACTOR
    # the warm-up's due kana of the lagging script first: its mean retrievability over its
    # basic kana below this times the other's (quiz.quiz_order's ``balance``,
    # quiz.lagging_script); None: one order across both scripts (the product's default)
    script_balance: float | None = SCRIPT_BALANCE


@dataclass(frozen=True)
class Run:
    """One run's settings: minutes a day, of which minutes of play, and the exposure effect."""

    minutes: float = 10.0
    game: float = 4.0
    exposure: float = 0.1
    rules: Rules = Rules()


class FixedIntervals:
    STEPS = (1, 3, 7, 14, 30)

    def __init__(self):
        self.step, self.next = {}, {}

    def add(self, pair, day):
        self.step[pair], self.next[pair] = 0, _next_session(day)

    def due(self, pair):
        return self.next[pair]

    def learn(self, pair, ok, day, ms):
        """The learning step's review: the first review stays the next day."""

    def review(self, pair, ok, day, ms):
        self.step[pair] = min(self.step[pair] + 1, len(self.STEPS) - 1) if ok else 0
        self.next[pair] = day + self.STEPS[self.step[pair]]


class Leitner(FixedIntervals):
    STEPS = (1, 2, 4, 8, 16)


class FsrsCards:
    """The product's FSRS, as Anki runs a new card: studied, reviewed once a few minutes later
    (the learning step; a right answer is at best Good there, never Easy: Easy seconds after
    seeing both sides is no evidence of memory), first review the next day at the earliest."""

    def __init__(self):
        self.scheduler = srs.scheduler_build(fuzzing=False)
        self.cards = {}

    def add(self, pair, day):
        self.cards[pair] = srs.card_new(card_id=len(self.cards) + 1, now=_moment(day))

    def due(self, pair):
        return (self.cards[pair].due - EPOCH).total_seconds() / 86400

    def learn(self, pair, ok, day, ms):
        rating = srs.rating_for(correct=ok, response_ms=ms)
        rating = min(rating, srs.Rating.Good)
        card, _log = self.scheduler.review_card(self.cards[pair], rating, _moment(day), ms)
        if ok:  # graduated from the learning step: the next review is tomorrow or later
            card.due = max(card.due, _moment(_next_session(day)))
        self.cards[pair] = card

    def review(self, pair, ok, day, ms):
        self.cards[pair] = srs.review(
            scheduler=self.scheduler, card=self.cards[pair], correct=ok, response_ms=ms,
            at=_moment(day),
        ).card  # fmt: skip


class Flashcards:
    """A learner studying flashcards for a given number of seconds a day, as Anki does: cards
    in their learning step first once a minute has passed, due cards (most overdue), new cards
    (at most NEW_PER_DAY a day, in a random order; each studied, then reviewed once at least
    LEARNING_STEP_MIN minutes later, again until right), then, while time remains, learning
    cards early and the cards due soonest (reviewed ahead: the learner keeps studying)."""

    def __init__(self, world: World, learner: Learner, schedule):
        self.world, self.learner, self.schedule = world, learner, schedule
        self.introduced: list[tuple[str, str]] = []
        self.learning: dict[tuple[str, str], float] = {}  # pair -> when its step is due
        self.seen: dict[tuple[str, str], float] = {}  # pair -> when it was last shown
        self.order = list(ITEMS)
        learner.rng.shuffle(self.order)

    def _next(self, moment: float, fresh: int, today: float):
        ready = [p for p, at in self.learning.items() if at <= moment]
        if ready:
            return min(ready, key=self.learning.get), "step"
        settled = [p for p in self.introduced if p not in self.learning]
        due = [p for p in settled if self.schedule.due(p) <= moment]
        if due:
            return min(due, key=self.schedule.due), "review"
        if self.order and fresh < NEW_PER_DAY:
            return self.order[-1], "study"
        if self.learning:  # nothing else to do: the step comes early (Anki's learn-ahead)
            return min(self.learning, key=self.learning.get), "step"
        # review ahead, but never a card already seen today: Anki offers no same-day
        # re-review of a graduated card, and a fast answer there would read as Easy
        ahead = [p for p in settled if self.seen.get(p, -1.0) < today]
        if ahead:
            return min(ahead, key=self.schedule.due), "review"
        if self.order:  # time to spare: more new cards than the daily limit
            return self.order[-1], "study"
        return None, ""

    def session(self, start: float, seconds: float) -> None:
        spent, fresh = 0.0, 0
        learner = self.learner
        while True:
            moment = start + spent / 86400
            pair, what = self._next(moment, fresh, start)
            if pair is None:
                break
            cost = COST_STUDY_NEW if what == "study" else COST_RECALL
            if spent + cost > seconds:
                break
            item = learner.items[pair]
            if what == "study":
                self.order.pop()
                study_new(self.world, item, moment)
                self.schedule.add(pair, moment)
                self.introduced.append(pair)
                self.learning[pair] = moment + LEARNING_STEP_MIN / 1440
                self.seen[pair] = moment
                learner.studies += 1
                fresh += 1
            else:
                ok, _, recall = free_recall(self.world, learner, item, moment)
                ms = response_ms(learner.rng, recall, ok)
                if what == "step":
                    self.schedule.learn(pair, ok, moment, ms)
                    if ok:
                        del self.learning[pair]
                    else:
                        self.learning[pair] = moment + LEARNING_STEP_MIN / 1440
                else:
                    self.schedule.review(pair, ok, moment, ms)
                self.seen[pair] = moment
                learner.reviews += 1
                learner.asked.add(pair)
                learner.first_asked.setdefault(pair, moment)
            spent += cost
        learner.seconds += spent


def statuses_of(scheduler, cards: dict, day: float) -> dict[tuple[str, str], KanaStatus]:
    """What learning.selectors gives the picker, from FSRS cards."""
    return {pair: cell.status for pair, cell in cells_of(scheduler, cards, {}, {}, day).items()}


@dataclass(frozen=True)
class Cell:
    """What ``learning.selectors.KanaCell`` gives the quiz's order (``quiz.quiz_order``)."""

    kana_id: str
    script: str
    state: str
    due: datetime | None
    weak: bool
    retrievability: float
    introduced_at: datetime | None
    status: KanaStatus
    last_correct: bool | None = None
    last_review: datetime | None = None


def cells_of(scheduler, cards: dict, introduced: dict, answered: dict, day: float) -> dict:
    """Every item as the product's selectors see it: never answered is ``new``;
    ``answered``: pair -> whether its last answer was right."""
    now = _moment(day)
    found = {}
    for pair in ITEMS:
        card = cards.get(pair)
        taught = introduced.get(pair)
        if card is None or card.last_review is None:
            if taught is not None:
                found[pair] = Cell(pair[0], pair[1], "new", None, False, 0.0, _moment(taught),
                                   KanaStatus(state="new"))  # fmt: skip
            continue
        state = srs.state_of(reps=1, due=card.due, stability=card.stability, now=now)
        recall = srs.retrievability(scheduler=scheduler, card=card, now=now)
        weak = srs.is_weak(scheduler=scheduler, card=card, now=now)
        status = KanaStatus(state=state, retrievability=recall, weak=weak)
        at = _moment(taught) if taught is not None else None
        found[pair] = Cell(pair[0], pair[1], state, card.due, weak, recall, at, status,
                           answered.get(pair), card.last_review)  # fmt: skip
    return found


def game_minutes(world, learner, run: Run, day: float, statuses, on_hand=None,
                 ask_shown: bool = False) -> None:  # fmt: skip
    """``run.game`` minutes of Kazoku families in the variant and script the picker chose:
    cards newly shown (exposures; with ``ask_shown``, the daily table's prompt mode, each is
    then offered to ``on_hand`` too), cards entering the hand (exposures, then ``on_hand``:
    the loop's prompts, which return the seconds they took: answering is done at the table,
    inside the game's minutes, so fewer cards go by). Hands lean towards kana that need work
    (the player asks for them). Asking for a card names it on a button that shows its glyph:
    no retrieval is counted for it."""
    best = rank(statuses=statuses, engines=("kazoku-families",))[0]
    learner.picks[best.options["variant"] + "/" + best.options["script"]] += 1
    script = best.options["script"]
    rng = learner.rng
    weights = [1.0 + 0.5 * need_of(statuses.get((k, _script(script, k, rng)))) for k in CARDS]
    left, clock = run.game * 60.0, day
    while left > 0:
        share = min(1.0, left / 60.0)  # the last minute may be cut short
        for _ in range(_poisson(rng, GAME_EXPOSURES_PER_MIN * share)):
            k = rng.choice(CARDS)
            pair = (k, _script(script, k, rng))
            learner.exposures += 1
            expose(world, learner.items[pair], clock, run.exposure)
            if on_hand is not None and ask_shown:
                taken = on_hand(pair, clock)
                left -= taken
                clock += taken / 86400
        for _ in range(_poisson(rng, GAME_HAND_ENTRIES_PER_MIN * share)):
            k = rng.choices(CARDS, weights=weights)[0]
            pair = (k, _script(script, k, rng))
            learner.exposures += 1
            expose(world, learner.items[pair], clock, run.exposure)
            if on_hand is not None:
                taken = on_hand(pair, clock)
                left -= taken
                clock += taken / 86400
        left -= 60.0 * share
        clock += 60.0 * share / 86400
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
    """The product's daily session, with its own code: the lessons (``lesson.lesson_plan``:
    none while due kana are pending, another one when nothing is), the warm-up quiz runs
    (``quiz.quiz_order``, ``quiz.quiz_kinds``, ``quiz.readings_apart``, writing from
    ``writing.writing_kind``), the game the picker chose (``picker.rank``) with prompts on
    cards newly shown (the daily table's mode ``seen``: not ``srs.recently_right``, whatever
    the kana's state, ``play.ASK_REMEMBERED``; typed once ``srs.recall_ready``), FSRS
    (``srs.review``) and the
    distractors (``kana_table.distractors``). No step the product lacks: no quiz after the
    game."""

    def __init__(self, world: World, learner: Learner, run: Run, recorder=None):
        self.world, self.learner, self.run, self.rules = world, learner, run, run.rules
        self.scheduler = srs.scheduler_build(fuzzing=False)
        self.cards: dict[tuple[str, str], object] = {}
        self.last_correct: dict[tuple[str, str], bool] = {}
        self.introduced: dict[tuple[str, str], float] = {}  # pair -> day it was taught
        # writing_kind's inputs: right typed answers, times of the last typed / written one
        self.typed_right: Counter = Counter()
        self.last_typed: dict[tuple[str, str], float] = {}
        self.last_written: dict[tuple[str, str], float] = {}
        # bench/srs_predict.py: every answer, with the true P(correct), the true recall and
        # the true chance of answering a look-alike once recalled (its --diagnose)
        self.recorder = recorder
        self.spent = 0.0
        self.offset = 0.0  # seconds of the day before the warm-up (the game, with play_first)
        self.taught_today = 0
        self.orders: dict[int, str] = {}  # each day's order (``_play_first``)

    def typed(self, pair) -> bool:
        return srs.recall_ready(last_correct=self.last_correct.get(pair))

    def cost(self, pair, kind: str | None = None) -> float:
        if pair not in self.cards and pair not in self.introduced:
            return COST_STUDY_NEW  # never taught nor asked: the feedback is its first study
        if kind == "write":
            return COST_WRITE
        return COST_TYPED if self.typed(pair) else COST_CHOICE

    def ask(self, pair: tuple[str, str], day: float, kind: str, typed: str | bool | None = None):
        """One prompt; ``typed``: the product's kind when the caller has it (``"write"``,
        ``True`` typed, ``False`` choices; None: the play prompt's rule). Its seconds."""
        learner, item = self.learner, self.learner.items[pair]
        card = self.cards.get(pair)
        written = typed == "write"
        typed = self.typed(pair) if typed is None else bool(typed)
        cost = self.cost(pair, "write" if written else None)
        choices = []
        recall_now = item.recall(day)
        if typed:
            p_conf, _ = item.confusion()
            p_true = recall_now * (1 - p_conf) * ((1 - WRITE_SLIP) if written else 1.0)
            answer = write_answer if written else free_recall
            ok, other, recall = answer(self.world, learner, item, day)
        else:
            learned = [k for k, _ in self._learned(pair)]
            distractors = kana_table.distractors(
                kana_id=pair[0], script=pair[1], learned=learned, count=3, rng=learner.rng
            )
            choices = [pair[0], *distractors]
            p_conf, _ = item.confusion(set(choices))
            p_true = recall_now * (1 - p_conf) + (1 - recall_now) / len(choices)
            ok, other, recall = choice_answer(self.world, learner, item, day, choices)
        if other:
            learner.confusions[(pair, other)] += 1
        ms = response_ms(learner.rng, recall, ok) + (4000 if written else 0)
        label = "write" if written else "typed" if typed else kind
        if self.recorder is not None:
            self.recorder.append({
                "learner": learner.index, "day": day, "kana": pair[0], "script": pair[1],
                "kind": label, "choices": len(choices), "correct": ok, "ms": ms,
                "answer_kind": "write" if written else "typed" if typed else "reading",
                "taught": pair in self.introduced, "in_play": kind == "play_prompt",
                "p_true": p_true, "recall_true": recall_now, "p_confusion": p_conf,
            })  # fmt: skip
        card = card or srs.card_new(card_id=len(self.cards) + 1, now=_moment(day))
        if typed or self.rules.guess_aware:
            self.cards[pair] = srs.review(
                scheduler=self.scheduler, card=card, correct=ok,
                response_ms=None if written else ms,  # srs.UNTIMED_KINDS: right is Good
                at=_moment(day), recognition=not typed,
            ).card  # fmt: skip
        else:
            rating = srs.Rating.Again if not ok else (
                srs.Rating.Hard if ms > srs.SLOW_MS else srs.Rating.Good)  # fmt: skip
            self.cards[pair] = self.scheduler.review_card(card, rating, _moment(day), ms)[0]
        if written:
            self.last_written[pair] = day
        elif typed:
            self.last_typed[pair] = day
            self.typed_right[pair] += ok
        self.last_correct[pair] = ok
        learner.reviews += 1
        learner.kinds[label] += 1
        learner.asked.add(pair)
        learner.first_asked.setdefault(pair, day)
        return cost

    def _learned(self, pair):
        """The learner's confusions involving this kana, both ways (play.confusions_for)."""
        found: Counter = Counter()
        for (p, other), n in self.learner.confusions.items():
            if p == pair:
                found[other] += n
            elif other == pair[0] and p[1] == pair[1]:
                found[p[0]] += n
        return sorted(found.items(), key=lambda item: (-item[1], item[0]))

    def _clock(self, day: int) -> float:
        return day + (self.offset + self.spent) / 86400

    def _cells(self, day: int) -> dict:
        return cells_of(self.scheduler, self.cards, self.introduced, self.last_correct,
                        self._clock(day))  # fmt: skip

    def lesson(self, day: int, seconds: float, cells: dict) -> bool:
        """The lesson's cards now (``lesson.lesson_plan``), each a study of the kana; False
        when there is none to teach."""
        met = set(self.introduced) | set(self.cards)
        waiting = sum(1 for pair in self.introduced if pair not in self.cards)
        size = self.rules.lesson_size
        taught = [at for at in self.introduced.values()]
        since = day - math.floor(max(taught)) if taught else None
        pending, review_seconds = 0, None
        if not self.taught_today % size and not waiting:
            pending = quiz_pending(cells.values(), _moment(self._clock(day)))
            if self.rules.lesson_budget:  # the product's lesson_review_seconds: the goal's
                # minutes less the last daily game's (none on the first day)
                review_seconds = warmup_seconds(
                    goal_minutes=self.run.minutes, game_minutes=self.run.game if day else None
                )
        plan = lesson_plan(met=met, taught_today=self.taught_today, pool=ITEMS, waiting=waiting,
                           size=size, pending=pending, day_max=self.rules.lesson_day_max,
                           pending_max=self.rules.lesson_pending_max,
                           days_since_lesson=since, review_seconds=review_seconds,
                           answer_seconds=self.rules.lesson_answer_seconds)  # fmt: skip
        for pair in plan:
            if self.spent + COST_LESSON > seconds:
                return False
            moment = self._clock(day)
            study_new(self.world, self.learner.items[pair], moment)
            self.introduced[pair] = moment
            self.learner.studies += 1
            self.spent += COST_LESSON
            self.taught_today += 1
        return bool(plan)

    def _kinds(self, pairs) -> list[str]:
        kinds = quiz_kinds([self.last_correct.get(pair) for pair in pairs])
        if not self.rules.writing:
            return kinds
        return [
            writing_kind(
                kind=kind,
                glyph=kana_table.info(*pair).glyph,
                typed_right=self.typed_right[pair],
                last_typed=self.last_typed.get(pair),
                last_written=self.last_written.get(pair),
            )  # fmt: skip
            for pair, kind in zip(pairs, kinds, strict=True)
        ]

    def warmup(self, day: int, seconds: float) -> None:
        """Lessons and quiz runs (the product's ``quiz_start``: ten questions in
        ``quiz_order``, kinds from ``quiz_kinds`` then ``writing_kind``, readings kept apart)
        until the warm-up's seconds are spent: a lesson whenever ``lesson_plan`` has one. The
        quiz's order knows the day's warm-up as the product computes it from a goal in minutes
        (``warmup_seconds``: the daily game's 4 minutes on day 0, before any was played)."""
        budget = warmup_seconds(goal_minutes=self.run.minutes,
                                game_minutes=self.run.game if day else None)  # fmt: skip
        while True:
            cells = self._cells(day)
            if self.lesson(day, seconds, cells):
                continue
            if self.spent + COST_CHOICE > seconds:
                return
            ordered = quiz_order(cells.values(), now=_moment(self._clock(day)), seconds=budget,
                                 factor=self.rules.backlog_factor,
                                 balance=self.rules.script_balance)[:QUIZ_LENGTH]  # fmt: skip
            pairs = quiz_apart([(c.kana_id, c.script) for c in ordered])
            if not pairs:
                return
            for pair, kind in zip(pairs, self._kinds(pairs), strict=True):
                if self.spent + self.cost(pair, kind) > seconds:
                    return
                given = "write" if kind == "write" else kind == "typed"
                self.spent += self.ask(pair, self._clock(day), "quiz_choice", given)

    def day(self, day: int) -> None:
        """The daily session: lessons and the warm-up for the non-play minutes, then the game
        with prompts (their time inside the game's minutes); with ``play_first``, from the
        second day on, the game and then the warm-up."""
        run = self.run
        self.spent = 0.0
        self.offset = 0.0
        self.taught_today = 0
        warmup_seconds = (run.minutes - run.game) * 60.0
        self.orders[day] = "game first" if self._play_first(day) else "warm-up first"
        if self.orders[day] == "game first":
            self.play(day, float(day))
            self.offset = run.game * 60.0
            if self.rules.warmup:
                self.warmup(day, warmup_seconds)
        else:
            if self.rules.warmup:
                self.warmup(day, warmup_seconds)
            self.play(day, day + warmup_seconds / 86400)
        self.learner.seconds += self.spent

    def _play_first(self, day: int) -> bool:
        """The product's ``daily.play_first_rule`` at the day's start (returning: a kana
        answered before today), with ``Rules.play_first`` as its factor."""
        rule = self.rules.play_first
        if not isinstance(rule, bool | int | float):
            raise ValueError(f"play_first: {rule!r}")
        start = _moment(float(day))
        returning = any(
            card.last_review is not None and card.last_review < start
            for card in self.cards.values()
        )
        if isinstance(rule, bool):
            return rule and returning
        budget = warmup_seconds(goal_minutes=self.run.minutes, game_minutes=self.run.game)
        due = sum(1 for c in self._cells(day).values() if c.state == "due")
        return play_first_rule(returning=returning, due=due, warmup_seconds=budget, factor=rule)

    def play(self, day: int, start: float) -> None:
        """The game from ``start`` with the daily table's prompts."""
        run = self.run
        statuses = statuses_of(self.scheduler, self.cards, start)

        def on_hand(pair, moment) -> float:
            card = self.cards.get(pair)
            if card is not None and card.last_review is not None:
                now = _moment(moment)
                if srs.recently_right(last_correct=self.last_correct.get(pair),
                                      last_review=card.last_review, now=now):  # fmt: skip
                    return 0.0
                state = srs.state_of(reps=1, due=card.due, stability=card.stability, now=now)
                weak = srs.is_weak(scheduler=self.scheduler, card=card, now=now)
                below = self.rules.play_ask_below
                if not srs.worth_asking(state=state, weak=weak) and not (
                    below is not None
                    and srs.retrievability(scheduler=self.scheduler, card=card, now=now) < below
                ):
                    return 0.0
            return self.ask(pair, moment, "play_prompt")

        game_minutes(self.world, self.learner, run, start, statuses, on_hand,
                     ask_shown=self.rules.prompts in ASK_SHOWN)  # fmt: skip


def arm_product(world, learner, run: Run, recorder=None):
    loop = Product(world, learner, run, recorder)
    for day in range(STUDY_DAYS):
        loop.day(day)


def _script(script: str, kana_id: str, rng: random.Random) -> str:
    return script if script != "mixed" else rng.choice(SCRIPTS)


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
SWEEP_ARMS = ("fsrs", "fsrs+game", "kanagame")


FIRST_ASKED_DAYS = (5, 10, 20, 30)  # run_one's "first_asked": kana met before these days


def run_one(job) -> dict:
    world_name, arm, index, seed, run = job
    world = next(w for w in WORLDS if w.name == world_name)
    learner = learner_make(world, index, seed)
    ARMS[arm](world, learner, run)
    score = {p: test_recall(learner.items[p], float(TEST_DAY)) for p in ITEMS}
    visual = [p for p in ITEMS if p[0] in kana_table.confusable_ids(p[1])]

    def mean(pairs):
        return sum(score[p] for p in pairs) / len(pairs)

    return {
        "world": world_name,
        "arm": arm,
        "seed": seed,
        "learner": index,
        "recall": mean(ITEMS),
        "recall_confusable": mean(visual),
        "recall_hiragana": mean([p for p in ITEMS if p[1] == "hiragana"]),
        "recall_katakana": mean([p for p in ITEMS if p[1] == "katakana"]),
        "asked_by_day_30": sum(1 for day in learner.first_asked.values() if day < STUDY_DAYS),
        # per script, the kana first answered before each of FIRST_ASKED_DAYS
        "first_asked": {
            script: [
                sum(1 for p, at in learner.first_asked.items() if p[1] == script and at < day)
                for day in FIRST_ASKED_DAYS
            ]
            for script in SCRIPTS
        },
        "answers": learner.reviews + learner.studies,
        "answer_minutes": learner.seconds / 60.0,
        "play_minutes": learner.game_seconds / 60.0,
        "minutes": (learner.seconds + learner.game_seconds) / 60.0,
        "kinds": dict(learner.kinds),
    }


def _ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / max(n - 1, 1))
    return m, 1.96 * sd / math.sqrt(n)


def _summary(group: list[dict]) -> dict:
    recall, ci = _ci([r["recall"] for r in group])
    found = {"recall": round(100 * recall, 1), "recall_ci95": round(100 * ci, 1)}
    for key in ("recall_confusable", "recall_hiragana", "recall_katakana"):
        found[key] = round(100 * sum(r[key] for r in group) / len(group), 1)
    for key in ("minutes", "play_minutes", "answer_minutes", "answers", "asked_by_day_30"):
        found[key] = round(sum(r[key] for r in group) / len(group), 1)
    found["asked_all_by_day_30"] = round(
        sum(r["asked_by_day_30"] == len(ITEMS) for r in group) / len(group), 3
    )
    kinds: Counter = Counter()
    for r in group:
        kinds.update(r["kinds"])
    total = sum(kinds.values())
    found["kinds"] = {k: round(n / total, 3) for k, n in sorted(kinds.items())} if total else {}
    return found


def _paired(a: list[dict], b: list[dict]) -> dict:
    other = {(r["seed"], r["learner"]): r for r in b}
    diffs = [100 * (r["recall"] - other[(r["seed"], r["learner"])]["recall"]) for r in a]
    m, ci = _ci(diffs)
    return {"mean": round(m, 1), "ci95": round(ci, 1)}


def recall_text(rows) -> str:
    """Day-44 recall of (recall, hiragana, katakana) rows in % with the katakana / hiragana
    ratio: "26.2 (83 %)" (the tuning tools' tables)."""
    recall, hira, kata = (statistics.mean(r[i] for r in rows) for i in range(3))
    ratio = f" ({kata / hira * 100:.0f} %)" if hira else ""
    return f"{recall * 100:.1f}{ratio}"


def paired_text(before, after) -> str:
    """The mean paired change of the rows' first figure, in points, ±95 %: "+6.3 (±1.6)"."""
    diffs = [b[0] - a[0] for a, b in zip(before, after, strict=True)]
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    return f"{statistics.mean(diffs) * 100:+.1f} (±{half * 100:.1f})"


def cells_for(*, budgets, games, worlds, exposures) -> list[tuple]:
    """The sweep's cells (budget, play, world, exposure); play must leave warm-up time."""
    return [
        (budget, game, world, exposure)
        for budget in budgets
        for game in games
        if game < budget
        for world in worlds
        for exposure in exposures
    ]


def sweep(*, seeds, learners: int, cells, arms=SWEEP_ARMS, rules=Rules(), processes: int) -> dict:
    """{"B min/G play/world/exposure=E": {arm: figures, "kanagame_minus_fsrs_game",
    "kanagame_minus_fsrs"}} over seeds x learners (the same learners in every arm). Arms
    that do not play are run once per (budget, world) and shared by the cells."""
    jobs, keys = [], []
    for budget, game, world, exposure in cells:
        for arm in arms:
            run = Run(budget, game if arm in PLAYING else 0.0, exposure if arm in PLAYING else 0.0,
                      rules)  # fmt: skip
            key = (budget, run.game, world, run.exposure, arm)
            if key in keys:
                continue
            keys.append(key)
            jobs.extend((world, arm, i, seed, run) for seed in seeds for i in range(learners))
    if processes > 1:
        with Pool(processes) as pool:
            rows = pool.map(run_one, jobs, chunksize=2)
    else:
        rows = list(map(run_one, jobs))
    groups: dict = defaultdict(list)
    for job, row in zip(jobs, rows, strict=True):
        run = job[4]
        groups[(run.minutes, run.game, job[0], run.exposure, job[1])].append(row)
    out: dict = {}
    for budget, game, world, exposure in cells:
        found: dict = {}
        for arm in arms:
            playing = arm in PLAYING
            key = (budget, game if playing else 0.0, world, exposure if playing else 0.0, arm)
            found[arm] = _summary(groups[key])
        if "kanagame" in arms and "fsrs+game" in arms:
            found["kanagame_minus_fsrs_game"] = _paired(
                groups[(budget, game, world, exposure, "kanagame")],
                groups[(budget, game, world, exposure, "fsrs+game")],
            )
        if "kanagame" in arms and "fsrs" in arms:
            found["kanagame_minus_fsrs"] = _paired(
                groups[(budget, game, world, exposure, "kanagame")],
                groups[(budget, 0.0, world, 0.0, "fsrs")],
            )
        out[f"{budget:g} min/{game:g} play/{world}/exposure={exposure:g}"] = found
    return out


TUNE_LESSON_SIZES = (3, 5, 8, 12)
TUNE_BACKLOG_FACTORS = (1.0, 1.5, 2.0)
TUNE_PLAY_ASK = (0.8, 0.9, 0.95, 1.0)
# the lesson's rules --tune compares (development seeds only): its size, how many pending kana
# hold a new lesson back, how many cards a day at most (the product's values: docs/bench.md)
TUNE_RULES = {
    **{f"size {n}": Rules(lesson_size=n) for n in TUNE_LESSON_SIZES},
    **{f"pending max {n}": Rules(lesson_pending_max=n) for n in (1, 5, 10)},
    **{f"day max {n}": Rules(lesson_day_max=n) for n in (5, 15, 30)},
    "lesson budget": Rules(lesson_budget=True),
    **{f"backlog {f:g}": Rules(backlog_factor=f) for f in TUNE_BACKLOG_FACTORS},
    "backlog off": Rules(backlog_factor=None),
    **{f"play ask below {r:g}": Rules(play_ask_below=r) for r in TUNE_PLAY_ASK},
    "play ask needing work": Rules(play_ask_below=None),
}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=10, help="per seed, arm and cell")
    parser.add_argument(
        "--seeds", default="held-out", help="held-out | dev | comma-separated integers"
    )
    parser.add_argument("--minutes", default="6,10,15", help="learner minutes a day (swept)")
    parser.add_argument("--game", default="4,8", help="of which minutes of play (swept)")
    parser.add_argument("--exposure", default="0,0.1,0.25", help="exposure effects swept")
    parser.add_argument("--worlds", default=",".join(w.name for w in WORLDS))
    parser.add_argument("--arms", default=",".join(SWEEP_ARMS))
    parser.add_argument("--lesson-size", type=int, default=Rules.lesson_size)
    parser.add_argument(
        "--old-choice-grading", action="store_true", help="a right pick is Good unless slow"
    )
    parser.add_argument(
        "--lesson-budget", action="store_true",
        help="the lesson keeps to the day's minutes (session 14's rule, off in the product)",
    )  # fmt: skip
    parser.add_argument(
        "--due-by-date", action="store_true",
        help="due kana most overdue first whatever the backlog (the order before session 18)",
    )  # fmt: skip
    parser.add_argument(
        "--play-asks-needing-work", action="store_true",
        help="play asks only kana new, due or weak (the daily table's rule before session 19)",
    )  # fmt: skip
    parser.add_argument(
        "--play-first", type=float, default=None, metavar="F",
        help="the game before the warm-up unless the due kana are a backlog F warm-ups long "
        f"(Rules.play_first; session 24; the product's: {PLAY_FIRST_FACTOR:g}; 0: the warm-up "
        "first every day)",
    )  # fmt: skip
    parser.add_argument(
        "--script-balance", type=float, default=None, metavar="R",
        help="the warm-up's due kana of the script whose mean retrievability is below R times "
        "the other's first (Rules.script_balance; session 25; the product's: "
        f"{SCRIPT_BALANCE}; 0: off)",
    )  # fmt: skip
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--tune", action="store_true",
        help=f"the lesson's rules {tuple(TUNE_RULES)} (development seeds only)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    seeds = {"held-out": HELD_OUT_SEEDS, "dev": DEV_SEEDS}.get(args.seeds) or tuple(
        int(s) for s in args.seeds.split(",")
    )
    if args.tune and not set(seeds) <= set(DEV_SEEDS):
        parser.error(f"--tune runs on the development seeds {DEV_SEEDS} only (--seeds dev)")
    cells = cells_for(
        budgets=[float(m) for m in args.minutes.split(",")],
        games=[float(g) for g in args.game.split(",")],
        worlds=args.worlds.split(","),
        exposures=[float(e) for e in args.exposure.split(",")],
    )
    started = time.perf_counter()
    rule_sets = {f"size {args.lesson_size}": Rules(lesson_size=args.lesson_size,
                                         guess_aware=not args.old_choice_grading,
                                         lesson_budget=args.lesson_budget,
                                         backlog_factor=None if args.due_by_date
                                         else BACKLOG_FACTOR,
                                         play_ask_below=None if args.play_asks_needing_work
                                         else Rules.play_ask_below,
                                         play_first=Rules.play_first
                                         if args.play_first is None
                                         else args.play_first or False,
                                         script_balance=Rules.script_balance
                                         if args.script_balance is None
                                         else args.script_balance or None)}  # fmt: skip
    arms = tuple(args.arms.split(","))
    if args.tune:
        rule_sets = TUNE_RULES
        arms = ("kanagame", "fsrs+game")
    found = {
        size: sweep(
            seeds=seeds,
            learners=args.learners,
            cells=cells,
            arms=arms,
            rules=rules,
            processes=args.processes,
        )  # fmt: skip
        for size, rules in rule_sets.items()
    }
    result = {
        "seeds": list(seeds),
        "learners_per_seed": args.learners,
        "seconds": round(time.perf_counter() - started, 1),
        "rules": {str(name): cells for name, cells in found.items()},
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _markdown(result)
    return result


def _markdown(result: dict) -> None:
    print(
        f"seeds {result['seeds']}, {result['learners_per_seed']} learners per seed, "
        f"{result['seconds']} s"
    )
    for name, cells in result["rules"].items():
        arms = [a for a in next(iter(cells.values())) if not a.startswith("kanagame_minus")]
        print(f"\nlesson rules: {name}\n")
        print("| cell | " + " | ".join(arms) + " | loop − fsrs+game | loop − fsrs |"
              " loop: katakana / hiragana | loop: asked by day 30 (all) |")  # fmt: skip
        print("| --- |" + " ---: |" * (len(arms) + 4))
        for key, found in cells.items():
            row = [f"{found[a]['recall']} (±{found[a]['recall_ci95']})" for a in arms]
            for diff in ("kanagame_minus_fsrs_game", "kanagame_minus_fsrs"):
                d = found.get(diff)
                row.append(f"{d['mean']:+.1f} (±{d['ci95']})" if d else "")
            loop = found.get("kanagame")
            if loop:
                ratio = loop["recall_katakana"] / max(loop["recall_hiragana"], 1e-9)
                row.append(f"{loop['recall_katakana']} / {loop['recall_hiragana']} "
                           f"({100 * ratio:.0f} %)")  # fmt: skip
                row.append(f"{loop['asked_by_day_30']} ({100 * loop['asked_all_by_day_30']:.0f} %)")
            else:
                row += ["", ""]
            print(f"| {key} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
