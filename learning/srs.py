"""Spaced repetition for kana, written like py-fsrs: pure functions around the `fsrs` library.

No Django, no wall clock: every function that needs "now" takes it as an argument (an aware
UTC datetime), and card states round-trip through JSON (``card_to_json`` / ``card_from_json``).
The Django side (learning/services/memory.py) stores the JSON in ``KanaMemory.card``.

Grading an answer (documented in docs/learning.md, tested in tests/learning/test_srs.py):

- wrong answer                          -> ``Rating.Again``
- right, but slower than ``SLOW_MS``    -> ``Rating.Hard``
- right, faster than ``FAST_MS``        -> ``Rating.Easy`` (typed answers), but Good while the
                                           card is new or in its (re)learning steps
- right otherwise                       -> ``Rating.Good`` (typed answers)
- right with no measured time           -> ``Rating.Good`` (typed answers)
- right among k choices                 -> ``Rating.Hard``, or ``Rating.Good`` when faster
                                           than ``FAST_MS`` and the kana was already stable
                                           (stability >= ``STABLE_FOR_GOOD_DAYS``): one
                                           right pick in four may be a guess

Predictions (``predict``): P(correct) before an answer is the card's *predicted recall*
(``predicted_recall``: fsrs' power law on the exact elapsed time, fractional days, with the
prediction's own decay ``PREDICTION_DECAY``), with guessing folded in for k choices:
R + (1 - R) / k. Scheduling signals (weak, the picker's need, the quiz order) keep fsrs' own
curve (``retrievability``): the prediction is calibrated, the scheduler is not changed.

Mastery states of one (learner, kana, script):

- ``new``: never answered;
- ``due``: answered, and the scheduler's due time has come;
- ``mastered``: not due, stability at least ``MASTERED_STABILITY_DAYS`` days;
- ``learning``: everything else.

A reviewed kana is *weak* when its retrievability now is below ``WEAK_RETRIEVABILITY``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, ReviewLog, Scheduler, State

FAST_MS = 2_500  # a right answer quicker than this is "easy"
SLOW_MS = 8_000  # a right answer slower than this is "hard"
MASTERED_STABILITY_DAYS = 21.0
WEAK_RETRIEVABILITY = 0.8
DESIRED_RETENTION = 0.9

STATES = ("new", "learning", "due", "mastered")
STABLE_FOR_GOOD_DAYS = 3.0  # a right pick among choices is Good only when this stable and fast
# P(recall) of a kana never answered before (seen in play perhaps, never asked): measured on
# the simulated first answers (bench/srs_predict.py), kept low and never 0 (log-loss).
UNSEEN_RECALL = 0.1
PREDICTION_FLOOR = 0.02  # predictions are kept in [floor, 1 - floor]: nobody is that sure
# The decay of the prediction's forgetting curve, R = (1 + F * t / S) ** -d. fsrs 6's default
# (0.1542, w20) has a flat tail: a card failed yesterday (S of an hour or two) asked a day
# later, t/S of 5 to 30, is still predicted at 55-65 % recall. Tuned on the development seeds
# only (bench/srs_predict.py --tune, docs/bench.md); fsrs 4.5 and 5 used 0.5.
PREDICTION_DECAY = 0.4
FSRS_DEFAULT_DECAY = float(Scheduler().parameters[20])  # w20 of the library's defaults


def _aware_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("srs needs timezone-aware datetimes (UTC)")
    return moment.astimezone(UTC)


def rating_for(
    *,
    correct: bool,
    response_ms: int | None,
    recognition: bool = False,
    stability: float | None = None,
) -> Rating:
    """The FSRS rating of one answer (see the module docstring for the thresholds).

    ``recognition``: the answer was picked among a few choices. One right pick in four may
    be a guess, so it is Hard, unless it was fast and the kana was already stable
    (``stability``, the card's stability in days before this answer, at least
    ``STABLE_FOR_GOOD_DAYS``): then Good. Never Easy.
    """
    if not correct:
        return Rating.Again
    if recognition:
        fast = response_ms is not None and response_ms < FAST_MS
        stable = (stability or 0.0) >= STABLE_FOR_GOOD_DAYS
        return Rating.Good if fast and stable else Rating.Hard
    if response_ms is None:
        return Rating.Good
    if response_ms < FAST_MS:
        return Rating.Easy
    if response_ms > SLOW_MS:
        return Rating.Hard
    return Rating.Good


# prompt kinds answered among choices ("card": a glyph picked for a card's question)
RECOGNITION_KINDS = frozenset({"reading", "glyph", "card"})
# Answers whose time is recorded but does not grade them: drawing a kana (``write``) takes
# seconds of hand movement per stroke on top of recall, so 8 s would call most right
# drawings Hard and 2.5 s none Easy. A right one is Good, like a typed answer of unknown time.
UNTIMED_KINDS = frozenset({"write"})


def is_recognition(answer_kind: str) -> bool:
    """An answer picked among a few choices (a ``reading``, ``glyph`` or ``card`` prompt)."""
    return answer_kind in RECOGNITION_KINDS


def scheduler_build(
    *,
    parameters: Sequence[float] | None = None,
    desired_retention: float = DESIRED_RETENTION,
    fuzzing: bool = True,
) -> Scheduler:
    """A scheduler with the library's default parameters unless fitted ones are given."""
    kwargs = {"desired_retention": desired_retention, "enable_fuzzing": fuzzing}
    if parameters:
        kwargs["parameters"] = tuple(float(p) for p in parameters)
    return Scheduler(**kwargs)


def card_new(*, card_id: int, now: datetime) -> Card:
    """A fresh card, due now (``card_id`` is the KanaMemory row's primary key)."""
    return Card(card_id=card_id, due=_aware_utc(now))


def card_to_json(card: Card) -> dict:
    return card.to_dict()


def card_from_json(data: dict) -> Card:
    return Card.from_dict(data)


@dataclass(frozen=True)
class Review:
    card: Card
    log: ReviewLog
    rating: Rating


def review(
    *,
    scheduler: Scheduler,
    card: Card,
    correct: bool,
    response_ms: int | None,
    at: datetime,
    recognition: bool = False,
) -> Review:
    """Grade one answer and return the new card (the given card is not changed)."""
    rating = rating_for(
        correct=correct,
        response_ms=response_ms,
        recognition=recognition,
        stability=card.stability if card.last_review is not None else None,
    )
    if in_learning_steps(card):
        rating = min(rating, Rating.Good)
    new_card, log = scheduler.review_card(
        card, rating, review_datetime=_aware_utc(at), review_duration=response_ms
    )
    return Review(card=new_card, log=log, rating=rating)


def in_learning_steps(card: Card) -> bool:
    """A card never reviewed or in its (re)learning steps: answered minutes after it was
    first seen or failed. A fast right answer then shows the kana was *just* seen, not that
    it is known: it is at best Good, never Easy (Easy there would graduate the card with fsrs'
    Easy stability, 8 days, as the simulation's flashcards once did; issue 27)."""
    return card.last_review is None or card.state in (State.Learning, State.Relearning)


def retrievability(*, scheduler: Scheduler, card: Card | None, now: datetime) -> float:
    """fsrs' own probability of recall now (its decay, the exact elapsed time); 0 for a card
    never reviewed. The scheduling signal: weak, the picker's need, the quiz order."""
    return recall_probability(scheduler=scheduler, card=card, now=now)


def recall_probability(
    *, scheduler: Scheduler, card: Card | None, now: datetime, decay: float | None = None
) -> float:
    """P(recall) now, from the card's stability and the *exact* time since its last review.

    fsrs' ``get_card_retrievability`` counts whole days (a review 20 hours later reads as 0
    days, recall 1.0); this is the same power law, R = (1 + F * t / S) ** C, with
    ``t`` in fractional days, C = -decay (default: the scheduler's w20, fsrs' own curve) and
    F = 0.9 ** (1 / C) - 1, so that R = 0.9 at t = S whatever the decay.
    0 for a card never reviewed.
    """
    if card is None or card.last_review is None or not card.stability:
        return 0.0
    days = max(0.0, (_aware_utc(now) - card.last_review).total_seconds() / 86400.0)
    exponent = -(scheduler.parameters[20] if decay is None else decay)
    factor = 0.9 ** (1 / exponent) - 1
    return float((1 + factor * days / card.stability) ** exponent)


def prediction_decay(scheduler: Scheduler) -> float:
    """The decay of the prediction's curve: ``PREDICTION_DECAY`` with fsrs' default
    parameters; a learner's own w20 once the optimiser has fitted their parameters."""
    own = float(scheduler.parameters[20])
    return PREDICTION_DECAY if own == FSRS_DEFAULT_DECAY else own


def predicted_recall(
    *, scheduler: Scheduler, card: Card | None, now: datetime, decay: float | None = None
) -> float:
    """The predicted chance of recalling the kana now (typed, no choices to guess among):
    ``recall_probability`` with the prediction's decay (``prediction_decay``; ``decay``
    overrides it, for the benchmark's tuning sweep). ``UNSEEN_RECALL`` for a kana never
    answered."""
    if card is None or card.last_review is None:
        return UNSEEN_RECALL
    decay = prediction_decay(scheduler) if decay is None else decay
    return recall_probability(scheduler=scheduler, card=card, now=now, decay=decay)


# P(recall) of a kana taught by a lesson card (its reading, sound and strokes) and never
# answered yet: its first answer comes minutes later in the warm-up. Fitted on the development
# seeds' first answers (bench/srs_predict.py --fit, bench/srs_calib.py --fit-out; docs/bench.md).
TAUGHT_RECALL = 0.74
# P(correct recall) of a kana never taught nor answered but already seen in play (its card in
# the learner's view: a question at a table comes as the card shows). Fitted like
# TAUGHT_RECALL; in the simulation a first sight encodes the kana at once (bench/srs_sim.py's
# exposure model, an assumption), which makes this high: a figure of the simulation, not of
# learners. A kana never seen keeps UNSEEN_RECALL.
SEEN_RECALL = 0.788
# Per-kind calibration of the predicted recall of a reviewed kana, before the guess floor:
# R' = sigmoid(a + b logit R + c ln S + d L + e L ln S + f ln(t + 1 min) + g (D - 5) / 5), S the
# card's stability and t the time since its last answer in days, L 1 for a card in its
# (re)learning steps (one pick after a lesson, or a lapse: fsrs' S is then a guess), D fsrs'
# difficulty of the card (1-10). The power law alone
# under-predicts typed answers the day after a first right pick and over-predicts those after
# a lapse; picks an hour after a wrong answer are right more often than it says (docs/bench.md,
# "SRS predictions (issue 27, the learning loop)"). The weights per kind are fitted on the
# development seeds only (120 learners, days 15-29, by Fisher scoring: bench/srs_calib.py
# --fitter isotonic --fit-out; docs/bench.md, "Session 10"), refitted in session 24 on the
# daily session with the game first (its play questions meet due kana: session 10's weights
# were 0.097 off on development learners left out of the fit, 0.045 refitted), and scored on
# the held-out ones; b > 0 and f <= 0, so a longer wait never raises a prediction.
PREDICTION_CALIBRATION: dict[str, tuple[float, ...]] = {
    "choice": (0.608, 0.05, 0.314, 0.608, 0.314, -0.767, 0.54),
    "play_choice": (0.495, 0.05, 0.257, 0.495, 0.257, -0.615, 0.44),
    "typed": (-0.189, 1.014, -0.521, -0.393, 0.325, 0.0, 0.418),
    "write": (0.296, 0.454, -0.193, -0.301, 0.21, 0.0, 0.337),
}
IDENTITY_CALIBRATION = (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
# Then, per kind, a monotone map of that recall (isotonic regression, pool-adjacent-violators
# over 20 equal-count bins, fitted with the weights on the development seeds only:
# bench/srs_calib.py --fit-out): (R' -> recall) knots, linear between them, anchored at
# (0, 0) and (1, 1) beyond the answers seen (a certain recall stays certain). It
# fixes what the logistic form cannot (quiz picks: under-predicted at the guess floor,
# over-predicted around 0.5; docs/bench.md, "Session 10: calibration on held-out seeds").
# Non-decreasing, so a longer wait is still never predicted higher; before the guess floor,
# so a pick is never predicted below a guess. Picks at a table had session 8's weights and no
# map until session 24 (refitted then, with the game first, they score better on development
# learners left out of the fit: log-loss 0.535 against 0.598).
PREDICTION_ISOTONIC: dict[str, tuple[tuple[float, float], ...]] = {
    "choice": (
        (0.0, 0.0),
        (0.0826, 0.1715),
        (0.1547, 0.2124),
        (0.2136, 0.2165),
        (0.2778, 0.2413),
        (0.3513, 0.2418),
        (0.44, 0.3057),
        (0.5518, 0.4113),
        (0.6782, 0.615),
        (0.7807, 0.8555),
        (0.8465, 0.9249),
        (0.9539, 0.9318),
        (1.0, 1.0),
    ),
    "play_choice": (
        (0.0, 0.0),
        (0.1697, 0.2124),
        (0.3124, 0.2336),
        (0.4247, 0.3275),
        (0.547, 0.4807),
        (0.6197, 0.5649),
        (0.6977, 0.7696),
        (0.769, 0.8456),
        (0.8268, 0.8807),
        (0.9537, 0.923),
        (1.0, 1.0),
    ),
    "typed": (
        (0.0, 0.0),
        (0.2649, 0.2515),
        (0.2989, 0.3442),
        (0.3914, 0.3835),
        (0.4994, 0.4567),
        (0.6327, 0.5946),
        (0.7573, 0.8005),
        (0.8168, 0.8384),
        (0.8458, 0.8728),
        (0.8679, 0.9015),
        (0.8855, 0.9093),
        (0.9018, 0.9245),
        (0.9156, 0.9289),
        (0.9282, 0.9332),
        (0.9372, 0.941),
        (0.9536, 0.9425),
        (0.9737, 0.9514),
        (1.0, 1.0),
    ),
    "write": (
        (0.0, 0.0),
        (0.3239, 0.3233),
        (0.3899, 0.4009),
        (0.4901, 0.4912),
        (0.578, 0.5457),
        (0.6624, 0.6642),
        (0.7241, 0.7156),
        (0.7557, 0.7601),
        (0.7735, 0.7886),
        (0.7836, 0.7931),
        (0.7915, 0.7966),
        (0.7981, 0.8186),
        (0.8115, 0.8264),
        (0.8294, 0.8274),
        (0.8421, 0.8319),
        (0.8496, 0.8354),
        (0.8646, 0.848),
        (1.0, 1.0),
    ),
}


def calibration_kind(answer_kind: str, source: str = "quiz") -> str:
    """The calibration an answer kind uses: ``choice`` (picked among buttons in the quiz),
    ``play_choice`` (among buttons at a table, ``source`` "prompt": often minutes after the
    warm-up's feedback), ``write`` (drawn) or ``typed`` (typed romaji, and answers of no
    kind)."""
    if is_recognition(answer_kind):
        return "play_choice" if source == "prompt" else "choice"
    return "write" if answer_kind == "write" else "typed"


def calibration_features(
    recall: float,
    stability: float,
    learning: bool = False,
    elapsed: float = 1.0,
    difficulty: float = 5.0,
) -> tuple[float, ...]:
    """(1, logit R, ln S, L, L ln S, ln(t + 1 min), (D - 5) / 5): what the calibration weighs
    (R clipped away from 0 and 1; ``elapsed`` t in days)."""
    x = min(1.0 - 1e-6, max(1e-6, recall))
    log_s = math.log(max(stability, 1e-3))
    flag = float(learning)
    log_t = math.log(max(elapsed, 0.0) + 1 / 1440)
    return 1.0, math.log(x / (1.0 - x)), log_s, flag, flag * log_s, log_t, (difficulty - 5) / 5


def calibrated(
    recall: float,
    kind: str,
    stability: float = 1.0,
    calibration: dict | None = None,
    learning: bool = False,
    elapsed: float = 1.0,
    difficulty: float = 5.0,
) -> float:
    """``recall`` of a card of ``stability`` days (``learning``: in its (re)learning steps,
    ``difficulty``: fsrs' D) last answered ``elapsed`` days ago, through the kind's calibration
    (``PREDICTION_CALIBRATION``; ``calibration`` replaces it, for the benchmark's fit)."""
    weights = (PREDICTION_CALIBRATION if calibration is None else calibration).get(
        kind, IDENTITY_CALIBRATION
    )
    features = calibration_features(recall, stability, learning, elapsed, difficulty)
    z = sum(w * f for w, f in zip(weights, features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def isotonic(recall: float, knots: Sequence[Sequence[float]]) -> float:
    """``recall`` through a monotone map given by (x, y) knots sorted by x: linear between
    knots, the end values outside them; no knots: unchanged."""
    if not knots:
        return recall
    if recall <= knots[0][0]:
        return float(knots[0][1])
    for (x0, y0), (x1, y1) in zip(knots, knots[1:], strict=False):
        if recall <= x1:
            return float(y0 + (y1 - y0) * (recall - x0) / (x1 - x0)) if x1 > x0 else float(y1)
    return float(knots[-1][1])


def predict(
    *,
    scheduler: Scheduler,
    card: Card | None,
    now: datetime,
    choices: int = 0,
    decay: float | None = None,
    kind: str = "",
    taught: bool = False,
    calibration: dict | None = None,
    source: str = "quiz",
    seen: bool = False,
    monotone: dict | None = None,
) -> float:
    """P(correct) of the next answer of ``kind`` (an answer kind: ``reading``, ``typed``,
    ``write``...): for a kana never answered, ``TAUGHT_RECALL`` when a lesson card taught it
    (``taught``), else ``SEEN_RECALL`` when seen in play (``seen``), else ``UNSEEN_RECALL``;
    otherwise the predicted recall (``predicted_recall``)
    through the calibration of the kind and ``source`` (``calibration_kind``, ``calibrated``)
    and the kind's monotone map (``PREDICTION_ISOTONIC``, ``isotonic``; ``monotone`` replaces
    it, and with ``calibration`` given and no ``monotone`` there is none).
    Then a lucky guess among ``choices`` buttons (R + (1 - R) / k; ``choices`` 0 for a typed
    or written answer). Clipped to [PREDICTION_FLOOR, 1 - PREDICTION_FLOOR]. ``decay`` and
    ``calibration`` override the product's, for the benchmark's fitting."""
    if card is None or card.last_review is None:
        recall = TAUGHT_RECALL if taught else SEEN_RECALL if seen else UNSEEN_RECALL
    else:
        recall = predicted_recall(scheduler=scheduler, card=card, now=now, decay=decay)
        group = calibration_kind(kind or ("reading" if choices > 1 else "typed"), source)
        elapsed = (_aware_utc(now) - card.last_review).total_seconds() / 86400.0
        recall = calibrated(
            recall,
            group,
            card.stability or 1.0,
            calibration,
            in_learning_steps(card),
            elapsed,
            card.difficulty or 5.0,
        )
        if monotone is None:
            monotone = PREDICTION_ISOTONIC if calibration is None else {}
        recall = isotonic(recall, monotone.get(group, ()))
    if choices > 1:
        recall = recall + (1.0 - recall) / choices
    return min(1.0 - PREDICTION_FLOOR, max(PREDICTION_FLOOR, recall))


def state_of(*, reps: int, due: datetime | None, stability: float | None, now: datetime) -> str:
    """The mastery state (``new`` | ``learning`` | ``due`` | ``mastered``) of one kana."""
    if reps == 0 or due is None:
        return "new"
    if _aware_utc(due) <= _aware_utc(now):
        return "due"
    if (stability or 0.0) >= MASTERED_STABILITY_DAYS:
        return "mastered"
    return "learning"


def is_weak(*, scheduler: Scheduler, card: Card | None, now: datetime) -> bool:
    """A reviewed card whose retrievability has fallen below ``WEAK_RETRIEVABILITY``.

    A card still in its (re)learning steps counts as weak: it was just failed or is new.
    """
    if card is None or card.last_review is None:
        return False
    if card.state in (State.Learning, State.Relearning):
        return True
    return retrievability(scheduler=scheduler, card=card, now=now) < WEAK_RETRIEVABILITY


# A kana answered right this recently is not asked again (quiz, prompts in play): fsrs' learning
# steps (1 and 10 minutes) would ask a kana just taught two or three times within the session,
# at a recall near 1, where a retrieval teaches next to nothing (the spacing effect); Anki's
# learning step is one review, then the next day. Issue 27: the daily session's waste.
RECENT_RIGHT = timedelta(hours=12)


def recently_right(
    *, last_correct: bool | None, last_review: datetime | None, now: datetime
) -> bool:
    """Answered right less than ``RECENT_RIGHT`` ago: not asked again yet (a wrong answer is
    asked again, after its feedback)."""
    if last_correct is not True or last_review is None:
        return False
    return _aware_utc(now) - _aware_utc(last_review) < RECENT_RIGHT


def recall_ready(*, last_correct: bool | None) -> bool:
    """Ask this kana by recall (typed romaji, or written) rather than among four buttons?
    Yes as soon as its last answer was right (one right pick is enough); four buttons only
    for a kana never answered or whose last answer was wrong (issue 27: recall over
    recognition)."""
    return last_correct is True


def worth_asking(*, state: str, weak: bool) -> bool:
    """Prompt mode "new": ask about a kana never answered, due, or weak; a kana reviewed
    recently and still well remembered is not asked again (it would teach little)."""
    return state in ("new", "due") or weak


@dataclass(frozen=True)
class KanaStatus:
    """What the picker needs to know about one (kana, script) of a learner."""

    state: str  # new | learning | due | mastered
    retrievability: float = 0.0  # fsrs' own curve: the scheduling signal (need, weak)
    weak: bool = False
    predicted_recall: float | None = None  # the prediction (``predicted_recall``), shown


MIN_REVIEWS_TO_FIT = 512  # fsrs' Optimizer needs about this many reviews to beat the defaults
