"""Simulated learners: does Kanagame's loop teach kana better than flashcards?

    .venv/bin/python bench/srs_sim.py [--learners 200] [--seed 2026] [--budget 8] [--json]

Pure Python (no Django): it runs the product's own pure code, ``learning.srs`` (FSRS through
the ``fsrs`` library), ``learning.picker.rank`` and ``learning.kana_table.distractors``, on
simulated learners whose memory follows a ground-truth model that is NOT FSRS (stated in
docs/learning.md, section "Simulation"). Four arms share the same learners (same seeds):

(a) fixed intervals   flashcards, reviews 1, 3, 7, 14, 30 days after the last success
(b) Leitner           flashcards, 5 boxes reviewed every 1, 2, 4, 8, 16 days
(c) FSRS flashcards   flashcards scheduled by fsrs defaults at retention 0.9
(d) Kanagame loop     warm-up of FSRS-due kana as recognition prompts with confusion-aware
                      distractors, then a game the picker chose: exposures of the cards in
                      play and prompts on cards entering the hand (mode "new"), same FSRS.

Study days 0-29 under the same daily time budget, no study days 30-43, free-recall test
(glyph -> reading) on day 44 of the 90 Kazoku kana (45 hiragana + 45 katakana).
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
WARMUP_SHARE = 1.0  # product: the warm-up uses at most this share of the answer budget
TYPED_STABILITY = srs.TYPED_STABILITY_DAYS  # product: stable kana are asked typed (play.py)


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
EXPOSURE_GAIN = 0.25  # seeing a card in play (romaji shown): a small restudy
EXPOSURE_FIRST = 0.5  # first sight of a kana in play: half the encoding of a flashcard study
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


def expose(world: World, item: Item, day: float) -> None:
    """A card seen in play with its romaji: first sight encodes weakly, later ones restudy."""
    if item.last < 0:
        study_new(world, item, day, EXPOSURE_FIRST)
        return
    recall = item.recall(day)
    item.stability *= 1.0 + EXPOSURE_GAIN * math.exp(-item.difficulty) * math.sqrt(1.0 - recall)
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


def _flashcards(world: World, learner: Learner, budget: float, schedule) -> None:
    """Shared loop of arms a-c: due cards first (most overdue), then new ones, within time."""
    introduced: list[tuple[str, str]] = []
    order = list(ITEMS)
    learner.rng.shuffle(order)
    for day in range(STUDY_DAYS):
        clock = float(day)
        spent, answers = 0.0, 0
        due = sorted((p for p in introduced if schedule.due(p) <= clock + 0.5), key=schedule.due)
        for pair in due:
            if answers >= budget:
                break
            moment = clock + spent / 86400
            ok, _, recall = free_recall(world, learner, learner.items[pair], moment)
            schedule.review(pair, ok, moment, response_ms(learner.rng, recall, ok))
            spent += COST_RECALL
            answers += 1
            learner.reviews += 1
        fresh = 0
        while order and fresh < NEW_PER_DAY and answers < budget:
            pair = order.pop()
            moment = clock + spent / 86400
            study_new(world, learner.items[pair], moment)
            schedule.add(pair, moment)
            introduced.append(pair)
            spent += COST_STUDY_NEW
            answers += 1  # a study of a new card counts as one item of workload
            learner.studies += 1
            fresh += 1
        learner.seconds += spent


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
            scheduler=self.scheduler,
            card=self.cards[pair],
            correct=ok,
            response_ms=ms,
            at=_moment(day),
        ).card


def arm_fixed(world, learner, budget, game_minutes=0.0):
    _flashcards(world, learner, budget, FixedIntervals())


def arm_leitner(world, learner, budget, game_minutes=0.0):
    _flashcards(world, learner, budget, Leitner())


def arm_fsrs(world, learner, budget, game_minutes=0.0):
    _flashcards(world, learner, budget, FsrsCards())


class Product:
    """The Kanagame loop, with the product's own FSRS, picker and distractors."""

    def __init__(
        self,
        world: World,
        learner: Learner,
        *,
        exposures_teach: bool = True,
        contrast: bool = True,
        recognition_grading: bool = True,
    ):
        self.world, self.learner = world, learner
        self.scheduler = srs.scheduler_build(fuzzing=False)
        self.cards: dict[tuple[str, str], object] = {}
        self.picks: Counter = Counter()
        self.exposures_teach = exposures_teach  # ablation: play shows kana but teaches nothing
        self.contrast = contrast  # ablation: random distractors instead of look-alikes
        # ablation: a fast right choice rated Easy like a fast typed answer
        self.recognition_grading = recognition_grading

    def statuses(self, day: float) -> dict[tuple[str, str], KanaStatus]:
        """What learning.selectors.kana_statuses_for gives the picker, from the FSRS cards."""
        now = _moment(day)
        found = {}
        for pair, card in self.cards.items():
            state = srs.state_of(reps=1, due=card.due, stability=card.stability, now=now)
            recall = srs.retrievability(scheduler=self.scheduler, card=card, now=now)
            weak = card.state != srs.State.Review or recall < srs.WEAK_RETRIEVABILITY
            found[pair] = KanaStatus(state=state, retrievability=recall, weak=weak)
        return found

    def see(self, pair: tuple[str, str], day: float) -> None:
        self.learner.exposures += 1
        if self.exposures_teach:
            expose(self.world, self.learner.items[pair], day)

    def ask(self, pair: tuple[str, str], day: float) -> float:
        """One prompt (choices or typed, as play.py decides); returns its time cost."""
        learner, item = self.learner, self.learner.items[pair]
        card = self.cards.get(pair)
        typed = card is not None and (card.stability or 0.0) >= TYPED_STABILITY
        if typed:
            ok, other, recall = free_recall(self.world, learner, item, day)
            cost = COST_TYPED
        else:
            learned = [k for k, _ in self._learned(pair)]
            rng = learner.rng
            if self.contrast:
                distractors = kana_table.distractors(
                    kana_id=pair[0], script=pair[1], learned=learned, count=3, rng=rng
                )
            else:
                distractors = rng.sample([k for k in CARDS if k != pair[0]], 3)
            distractors = [k for k in distractors if k in CARDS] or distractors
            ok, other, recall = choice_answer(
                self.world, learner, item, day, [pair[0], *distractors]
            )
            cost = COST_CHOICE
        if other:
            learner.confusions[(pair, other)] += 1
        card = card or srs.card_new(card_id=len(self.cards) + 1, now=_moment(day))
        self.cards[pair] = srs.review(
            scheduler=self.scheduler,
            card=card,
            correct=ok,
            response_ms=response_ms(learner.rng, recall, ok),
            at=_moment(day),
            recognition=self.recognition_grading and not typed,
        ).card
        learner.reviews += 1
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

    def day(self, day: int, budget: float, game_minutes: float) -> None:
        """Warm-up (due kana, at most WARMUP_SHARE of the answer budget), then the game;
        prompts stop when the day's answer budget is spent (the game goes on)."""
        clock, spent, answers = float(day), 0.0, 0
        now = _moment(clock)
        due = sorted(
            (p for p, c in self.cards.items() if c.due <= now + timedelta(hours=12)),
            key=lambda p: self.cards[p].due,
        )
        for pair in due:
            if answers >= WARMUP_SHARE * budget:
                break
            spent += self.ask(pair, clock + spent / 86400)
            answers += 1
        statuses = self.statuses(clock + spent / 86400)
        best = rank(statuses=statuses, engines=("kazoku-families",))[0]
        self.picks[best.options["variant"] + "/" + best.options["script"]] += 1
        spent += self.play(
            best.options, clock + spent / 86400, game_minutes, budget - answers, statuses
        )
        self.learner.seconds += spent
        self.learner.game_seconds += game_minutes * 60.0

    def play(self, options, day, minutes: float, budget: float, statuses) -> float:
        """A game: exposures of cards in play; cards entering the hand are asked about
        (mode "new": kana new to the learner, due or weak; play.py) while the day's answer
        budget lasts. Returns the seconds spent answering."""
        rng = self.learner.rng
        spent, answers = 0.0, 0
        script = options["script"]
        # cards the learner collects: families with kana that need work come to the hand
        # a bit more often (the player asks for them), never exclusively
        weights = [1.0 + 0.5 * _need(statuses.get((k, _script(script, k, rng)))) for k in CARDS]
        for minute in range(int(minutes)):
            clock = day + minute / 1440
            for _ in range(_poisson(rng, GAME_EXPOSURES_PER_MIN)):
                k = rng.choice(CARDS)
                self.see((k, _script(script, k, rng)), clock)
            for _ in range(_poisson(rng, GAME_HAND_ENTRIES_PER_MIN)):
                k = rng.choices(CARDS, weights=weights)[0]
                pair = (k, _script(script, k, rng))
                self.see(pair, clock)
                status = statuses.get(pair)
                wanted = status is None or srs.worth_asking(state=status.state, weak=status.weak)
                if wanted and answers < budget:
                    spent += self.ask(pair, clock)
                    answers += 1
        return spent


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


def arm_product(world, learner, budget, game_minutes, **ablation):
    loop = Product(world, learner, **ablation)
    for day in range(STUDY_DAYS):
        loop.day(day, budget, game_minutes)
    learner.picks = loop.picks


def arm_product_no_exposure(world, learner, budget, game_minutes):
    """Ablation: exposures in play teach nothing (only prompts and the warm-up do)."""
    arm_product(world, learner, budget, game_minutes, exposures_teach=False)


def arm_product_choices_easy(world, learner, budget, game_minutes):
    """Ablation: four-button answers graded like typed ones (fast right choice = Easy)."""
    arm_product(world, learner, budget, game_minutes, recognition_grading=False)


def arm_product_random_choices(world, learner, budget, game_minutes):
    """Ablation: prompts draw three random kana instead of look-alikes / own confusions."""
    arm_product(world, learner, budget, game_minutes, contrast=False)


ARMS = {
    "a_fixed": arm_fixed,
    "b_leitner": arm_leitner,
    "c_fsrs": arm_fsrs,
    "d_kanagame": arm_product,
    "d-no-exposure": arm_product_no_exposure,
    "d-random-choices": arm_product_random_choices,
    "d-choices-easy": arm_product_choices_easy,
}
MAIN_ARMS = ("a_fixed", "b_leitner", "c_fsrs", "d_kanagame")


def run_one(job) -> dict:
    world_name, arm, index, seed, budget, game_minutes = job
    world = next(w for w in WORLDS if w.name == world_name)
    learner = learner_make(world, index, seed)
    ARMS[arm](world, learner, budget, game_minutes)
    confusable = [p for p, item in learner.items.items() if item.confusers]
    visual = [p for p in ITEMS if p[0] in kana_table.confusable_ids(p[1])]
    score = {p: test_recall(learner.items[p], float(TEST_DAY)) for p in ITEMS}
    return {
        "world": world_name,
        "arm": arm,
        "learner": index,
        "recall": sum(score.values()) / len(ITEMS),
        "recall_confusable": sum(score[p] for p in visual) / len(visual),
        "recall_any_confuser": sum(score[p] for p in confusable) / len(confusable),
        "reviews": learner.reviews,
        "studies": learner.studies,
        "workload": learner.reviews + learner.studies,
        "exposures": learner.exposures,
        "minutes": learner.seconds / 60.0,
        "game_minutes": learner.game_seconds / 60.0,
        "picks": dict(learner.picks),
    }


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--budget",
        type=int,
        default=40,
        help="answers a day (flashcard recalls and new-card studies, quiz "
        "questions and prompts): the workload, the same for every arm",
    )
    parser.add_argument(
        "--game",
        type=float,
        default=10.0,
        help="minutes a day of play (product arm only; not study time)",
    )
    parser.add_argument("--worlds", default=",".join(w.name for w in WORLDS))
    parser.add_argument(
        "--arms", default=",".join(MAIN_ARMS), help=f"default: the four arms; all: {','.join(ARMS)}"
    )
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="tables for docs/bench.md")
    args = parser.parse_args(argv)
    jobs = [
        (world, arm, index, args.seed, args.budget, args.game)
        for world in args.worlds.split(",")
        for arm in args.arms.split(",")
        for index in range(args.learners)
    ]
    started = time.perf_counter()
    with Pool(args.processes) as pool:
        rows = pool.map(run_one, jobs, chunksize=8)
    table = defaultdict(list)
    for row in rows:
        table[(row["world"], row["arm"])].append(row)
    summary = {}
    for (world, arm), group in table.items():
        n = len(group)

        def mean(key: str, group=group, n=n) -> float:
            return sum(r[key] for r in group) / n

        sd = math.sqrt(sum((r["recall"] - mean("recall")) ** 2 for r in group) / max(n - 1, 1))
        summary.setdefault(world, {})[arm] = {
            "recall": round(100 * mean("recall"), 1),
            "recall_ci95": round(100 * 1.96 * sd / math.sqrt(n), 1),
            "recall_confusable": round(100 * mean("recall_confusable"), 1),
            "recall_any_confuser": round(100 * mean("recall_any_confuser"), 1),
            "reviews": round(mean("reviews"), 1),
            "studies": round(mean("studies"), 1),
            "workload": round(mean("workload"), 1),
            "exposures": round(mean("exposures"), 1),
            "minutes": round(mean("minutes"), 1),
            "game_minutes": round(mean("game_minutes"), 1),
        }
        if arm == "d_kanagame":
            picks = Counter()
            for r in group:
                picks.update(r["picks"])
            summary[world][arm]["picks"] = dict(picks.most_common(6))
    paired = {}
    for world in summary:
        product = {r["learner"]: r for r in table.get((world, "d_kanagame"), [])}
        for arm in summary[world]:
            if arm == "d_kanagame" or not product:
                continue
            others = {r["learner"]: r for r in table[(world, arm)]}
            paired.setdefault(world, {})[arm] = {
                key: _paired(product, others, key)
                for key in ("recall", "recall_confusable", "workload")
            }
    result = {
        "learners": args.learners,
        "seed": args.seed,
        "answers_per_day": args.budget,
        "game_min": args.game,
        "seconds": round(time.perf_counter() - started, 1),
        "worlds": summary,
        "product_minus": paired,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    elif args.markdown:
        _markdown(result)
    else:
        _print(result)
    return result


def _paired(product: dict, others: dict, key: str) -> dict:
    """Mean and 95% interval of (product - arm) over the same learners."""
    scale = 1.0 if key == "workload" else 100.0
    diffs = [scale * (product[i][key] - others[i][key]) for i in product if i in others]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1))
    return {"mean": round(mean, 1), "ci95": round(1.96 * sd / math.sqrt(n), 1)}


def _markdown(result: dict) -> None:
    print("| world | arm | day-44 recall % (±95%) | confusable kana % | workload | exposures |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for world, arms in result["worlds"].items():
        for arm, r in sorted(arms.items()):
            print(
                f"| {world} | {arm} | {r['recall']} (±{r['recall_ci95']}) | "
                f"{r['recall_confusable']} | {r['workload']} | {r['exposures']} |"
            )
    print()
    print("| world | product minus | recall (points, ±95%) | confusable (points) | workload |")
    print("| --- | --- | ---: | ---: | ---: |")
    for world, arms in result["product_minus"].items():
        for arm, d in sorted(arms.items()):
            print(
                f"| {world} | {arm} | {d['recall']['mean']:+.1f} (±{d['recall']['ci95']}) | "
                f"{d['recall_confusable']['mean']:+.1f} (±{d['recall_confusable']['ci95']}) "
                f"| {d['workload']['mean']:+.1f} |"
            )


def _print(result: dict) -> None:
    print(
        f"learners/arm={result['learners']} seed={result['seed']} "
        f"workload<={result['answers_per_day']} answers/day, play={result['game_min']} min/day "
        f"(product only)  ({result['seconds']} s)"
    )
    print(
        f"{'world':16} {'arm':16} {'recall%':>8} {'±95%':>5} {'confus%':>8} {'anyconf%':>8} "
        f"{'workload':>8} {'reviews':>8} {'expos':>7}"
    )
    for world, arms in result["worlds"].items():
        for arm, r in sorted(arms.items()):
            print(
                f"{world:16} {arm:16} {r['recall']:8.1f} {r['recall_ci95']:5.1f} "
                f"{r['recall_confusable']:8.1f} {r['recall_any_confuser']:8.1f} "
                f"{r['workload']:8.1f} {r['reviews']:8.1f} {r['exposures']:7.1f}"
            )
    print(
        "\nproduct (d) minus arm, same learners: recall, confusable recall (points), "
        "workload (answers + new-card studies)"
    )
    for world, arms in result["product_minus"].items():
        for arm, d in sorted(arms.items()):
            print(
                f"{world:16} {arm:16} {d['recall']['mean']:+6.1f} ±{d['recall']['ci95']:.1f}"
                f"  {d['recall_confusable']['mean']:+6.1f} ±{d['recall_confusable']['ci95']:.1f}"
                f"  {d['workload']['mean']:+8.1f}"
            )


if __name__ == "__main__":
    main()
