"""CPU teammates for Yokai. Stateless: everything a bot knows comes from its own view.

The view holds the seat's own peeks (the family of every yokai it has seen, and when) and the
public table: the clues placed on yokai, the clues revealed beside the grid, the objective and,
for the first player at level 2, the affinity. From these a bot builds *beliefs*: the set of
families each yokai may belong to (its own peek, else a teammate's clue on it, narrowed by
families whose four cards are already placed), then plays the three steps:

- **peek** at the unknown yokai it can, those touching known ones first;
- **move** the yokai that makes the believed grid best: one group per family (the strongest
  term), same-family neighbours, and at the levels that need it the affinity and the shape;
- **signal** with clues: place a revealed clue on a yokai it knows matches and that sits with
  its family (the clue tells teammates its family and locks it where it belongs); otherwise
  reveal a new clue; with nothing left to reveal, place where the clue does least harm;
- **declare** when the believed grid wins: at the start of its turn when every yokai's family
  is determined, and after its peeks or its move with at most one undetermined (``hard``);
- **level 5, the objective**: the number of moves left is public (one clue action per turn),
  so every move keeps the yokai within reach of the objective's best placement (no more
  yokai off it than moves left, less a margin), the last one makes the shape whole, and a
  clue is never placed on a yokai that would lock the shape out of reach.

Levels: ``easy`` believes only its own peeks and ignores the affinity and objective;
``normal`` also reads teammates' clues; ``hard`` adds the affinity and objective terms and
declares a little earlier (when at most one yokai is undetermined and the rest wins).
``RandomBot`` (uniform among legal actions, never declaring) is the baseline of docs/bench.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.engines.base import Bot
from games.engines.yokai.data import (
    AFFINITY_FAMILIES,
    CLUE_FAMILIES,
    FAMILY_IDS,
    OBJECTIVE,
)
from games.engines.yokai.index import components, has_shape, neighbours, shape_variants

Pos = tuple[int, int]
ALL = frozenset(FAMILY_IDS)


class RandomBot(Bot):
    """Uniform among the legal actions, never declaring: the comparison team of bench.md."""

    level = "random"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        actions = [a for a in legal_actions if a["type"] != "declare"] or list(legal_actions)
        return rng.choice(actions)


def beliefs(view: Mapping[str, Any], read_clues: bool) -> dict[Pos, frozenset[str]]:
    """Place -> the families its yokai may belong to, from this seat's view only."""
    belief: dict[Pos, frozenset[str]] = {}
    for cell in view["cells"]:
        pos = (cell["row"], cell["col"])
        if cell["family"] is not None:
            belief[pos] = frozenset({cell["family"]})
        elif read_clues and cell["clue"] is not None:
            belief[pos] = frozenset(CLUE_FAMILIES[cell["clue"]])
        else:
            belief[pos] = ALL
    for _ in range(3):  # a family whose four cards are determined is nobody else's
        full = {
            family
            for family, n in Counter(
                next(iter(fams)) for fams in belief.values() if len(fams) == 1
            ).items()
            if n >= 4
        }
        changed = False
        for pos, fams in belief.items():
            if len(fams) > 1 and fams & full and fams - full:
                belief[pos] = fams - full
                changed = True
        if not changed:
            break
    return belief


class TeamBot(Bot):
    def __init__(self, level: str) -> None:
        self.level = level
        self.read_clues = level != "easy"
        self.goals = level != "easy"
        self.bold = level == "hard"

    # -- the three steps --

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        belief = beliefs(view, self.read_clues)
        by_type: dict[str, list[dict]] = {}
        for action in legal_actions:
            by_type.setdefault(action["type"], []).append(action)
        if "declare" in by_type and self.should_declare(view, belief):
            return by_type["declare"][0]
        if "peek" in by_type:
            return self.peek(belief, by_type["peek"], rng)
        if "move" in by_type:
            return self.move(view, belief, by_type["move"], rng)
        return self.clue(view, belief, by_type, rng)

    def should_declare(self, view: Mapping[str, Any], belief: dict[Pos, frozenset[str]]) -> bool:
        """Declare when the believed grid wins: at the start of the turn only when every yokai
        is determined (the peeks may settle the rest), after the peeks or the move (which may
        have just completed the grid: the next teammate's move could spoil it) with at most
        one undetermined yokai for ``hard``."""
        unknown = sum(1 for fams in belief.values() if len(fams) > 1)
        start = view["step"] == "peek" and view["peeks_left"] == PEEKS
        allowed = 0 if start or not self.bold else 1
        if view["step"] == "peek" and not start:
            return False  # between the two peeks: finish looking first
        if unknown > allowed:
            return False
        return self.believed_win(view, belief)

    def peek(
        self, belief: dict[Pos, frozenset[str]], actions: list[dict], rng: random.Random
    ) -> dict:
        def interest(action: dict) -> tuple[float, float]:
            pos = (action["row"], action["col"])
            if len(belief[pos]) == 1:
                return (0, rng.random())
            near = sum(1 for n in neighbours(pos) if n in belief and len(belief[n]) == 1)
            return (len(belief[pos]) + 0.5 * near, rng.random())

        return max(actions, key=interest)

    def move(
        self,
        view: Mapping[str, Any],
        belief: dict[Pos, frozenset[str]],
        actions: list[dict],
        rng: random.Random,
    ) -> dict:
        """The move that makes the believed grid best, scored as a change from the grid before:
        -10 per extra group of the moved card's family, +0.2 x the chance that two neighbours
        share a family, and the goals (affinity -5 while apart, -4 per card off the shape)."""
        known = self._known(belief)
        splits = {family: len(components(cells)) - 1 for family, cells in known.items()}
        objective = view.get("objective") if self.goals else None
        fit = None
        pool = actions
        if objective:
            locked = {(c["row"], c["col"]) for c in view["cells"] if c["locked"]}
            fit = ShapeFit(set(belief), OBJECTIVE[objective].cells, locked)
            # The shape only counts at the end, and the number of moves left is public: each
            # turn uses one clue action, so the turns left are 2 per clue in the pile plus
            # one per revealed clue. Keep the yokai within reach of the shape: after this
            # move, no more cards off the best placement than moves left (minus a margin
            # for the moves a teammate cannot make in time).
            reach = shape_reach(view)
            off = {id(a): 16 - fit.after_move((a["row"], a["col"]), (a["to_row"], a["to_col"]))
                   for a in actions}  # fmt: skip
            pool = [a for a in actions if off[id(a)] <= reach]
            if not pool:  # out of reach already: the moves that get closest
                least = min(off.values())
                pool = [a for a in actions if off[id(a)] == least]
        # moving a yokai whose family is determined is the point of a move; the others are
        # weighed only when no such yokai can move
        determined = [a for a in pool if len(belief[(a["row"], a["col"])]) == 1]
        best, best_score = None, None
        for action in determined or pool:
            source, target = (action["row"], action["col"]), (action["to_row"], action["to_col"])
            fams = belief[source]
            delta = 0.0
            for n in neighbours(source):
                if n in belief:
                    delta -= pair_weight(fams, belief[n])
            for n in neighbours(target):
                if n in belief and n != source:
                    delta += pair_weight(fams, belief[n])
            if len(fams) == 1:
                family = next(iter(fams))
                cells = [target if pos == source else pos for pos in known[family]]
                delta -= 10.0 * (len(components(cells)) - 1 - splits[family])
                if self.goals and view.get("affinity"):
                    delta += self.affinity_term(view, {**known, family: cells})
            if fit is not None:
                delta -= SHAPE_WEIGHT * off[id(action)]
                if off[id(action)] == 0 and self.believed_win_after(view, belief, source, target):
                    delta += WIN_MARK  # this bot declares right after its move
            score = delta + rng.random() * 0.01
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best  # type: ignore[return-value]

    @staticmethod
    def _known(belief: Mapping[Pos, frozenset[str]]) -> dict[str, list[Pos]]:
        known: dict[str, list[Pos]] = {}
        for pos, fams in belief.items():
            if len(fams) == 1:
                known.setdefault(next(iter(fams)), []).append(pos)
        return known

    def clue(
        self,
        view: Mapping[str, Any],
        belief: dict[Pos, frozenset[str]],
        by_type: dict[str, list[dict]],
        rng: random.Random,
    ) -> dict:
        places = by_type.get("place", [])
        aside = view["aside"]
        shape = LockCheck(view) if self.goals and view.get("objective") and places else None
        scored = []
        for action in places:
            clue = aside[action["slot"]]
            pos = (action["row"], action["col"])
            value = self.placement_value(belief, pos, clue)
            if shape is not None:
                value += shape.lock_cost(pos)
            scored.append((value, rng.random(), action))
        if scored:
            value, _, action = max(scored, key=lambda item: (item[0], item[1]))
            if value >= GOOD_PLACEMENT or "reveal" not in by_type:
                return action
        if "reveal" in by_type:
            return by_type["reveal"][0]
        return by_type["declare"][0]

    # -- judging a grid --

    def placement_value(
        self, belief: dict[Pos, frozenset[str]], pos: Pos, clue: str | None
    ) -> float:
        """How good it is to put ``clue`` (``None``: face down) on the yokai at ``pos``."""
        fams = belief[pos]
        if len(fams) != 1:
            if clue is None:
                return -1.0
            return -2.0 + len(fams & set(CLUE_FAMILIES[clue])) / len(fams)
        family = next(iter(fams))
        if clue is not None and family not in CLUE_FAMILIES[clue]:
            return -3.0
        settled = sum(1 for n in neighbours(pos) if belief.get(n) == fams)
        precise = 0.0 if clue is None else 1.0 / len(CLUE_FAMILIES[clue])
        return settled + precise

    def believed_win_after(
        self, view: Mapping[str, Any], belief: dict[Pos, frozenset[str]], source: Pos, target: Pos
    ) -> bool:
        """Whether this bot would declare right after moving ``source`` to ``target``."""
        unknown = sum(1 for fams in belief.values() if len(fams) > 1)
        if unknown > (1 if self.bold else 0):
            return False
        moved = {(target if pos == source else pos): fams for pos, fams in belief.items()}
        return self.believed_win(view, moved)

    def believed_win(self, view: Mapping[str, Any], belief: dict[Pos, frozenset[str]]) -> bool:
        """Every determined family is one group and, as far as this bot knows, the goals are met."""
        known = self._known(belief)
        if any(len(components(cells)) > 1 for cells in known.values()):
            return False
        if view.get("affinity"):
            first, second = AFFINITY_FAMILIES[view["affinity"]]
            seconds = set(known.get(second, ()))
            if not any(n in seconds for p in known.get(first, ()) for n in neighbours(p)):
                return False
        objective = view.get("objective")
        return not objective or has_shape(belief, OBJECTIVE[objective].cells)

    @staticmethod
    def affinity_term(view: Mapping[str, Any], known: dict[str, list[Pos]]) -> float:
        """-5 while the affinity's two families are known and do not touch."""
        first, second = AFFINITY_FAMILIES[view["affinity"]]
        seconds = set(known.get(second, ()))
        if not known.get(first) or not seconds:
            return 0.0
        touching = any(n in seconds for p in known[first] for n in neighbours(p))
        return 0.0 if touching else -5.0


WIN_MARK = 100.0
PEEKS = 2
# level 5: the weight of each yokai off the objective's best placement, and how many moves to
# keep in hand for bringing them back (tuned with bench/yokai_tune.py on seeds 100000+)
SHAPE_WEIGHT = 0.3
SHAPE_MARGIN = 2


def shape_reach(view: Mapping[str, Any]) -> int:
    """Level 5: how many yokai may be off the objective's best placement after this turn's move.

    The turns left are public: each turn uses one clue action, so 2 per clue in the pile plus 1
    per revealed clue (this turn's included). After this move, ``moves`` moves are left; keep
    ``SHAPE_MARGIN`` of them in hand for the teammates' moves that cannot help, but allow one
    yokai off before the last move: a full shape must be broken by the next compulsory move
    (one card out), unless the next player declares.
    """
    moves = 2 * view["clues_left"] + len(view["aside"]) - 1
    return max(moves - SHAPE_MARGIN, min(moves, 1), 0)


class LockCheck:
    """Level 5, the clue step: a clue locks its yokai for good, so locking one that the
    objective's placement cannot cover any more within the moves left loses the game."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.cells = {(c["row"], c["col"]) for c in view["cells"]}
        self.locked = {(c["row"], c["col"]) for c in view["cells"] if c["locked"]}
        self.shape = OBJECTIVE[view["objective"]].cells
        # this turn's move is made: the moves left are the next turns'
        self.moves = 2 * view["clues_left"] + len(view["aside"]) - 1
        self.best = best_fit(self.cells, self.shape, self.locked)
        self.cache: dict[Pos, float] = {}

    def lock_cost(self, pos: Pos) -> float:
        if pos not in self.cache:
            fit = best_fit(self.cells, self.shape, self.locked | {pos})
            off = 16 - fit
            if off > max(self.moves - SHAPE_MARGIN, min(self.moves, 1), 0):
                self.cache[pos] = -LOCK_OUT
            else:
                self.cache[pos] = -LOCK_WEIGHT * (self.best - fit)
        return self.cache[pos]


def best_fit(cells: set[Pos], shape: frozenset[Pos], locked: set[Pos]) -> int:
    """How many of ``cells`` the best placement of ``shape`` covering every ``locked`` covers."""
    return max((p[3] for p in ShapeFit(cells, shape, locked).placements), default=0)


LOCK_OUT = 10.0
LOCK_WEIGHT = 1.0


def pair_weight(first: frozenset[str], second: frozenset[str]) -> float:
    """Neighbours are worth the chance that they are of one family."""
    common = len(first & second)
    return PAIR_WEIGHT * common / (len(first) * len(second)) if common else 0.0


GOOD_PLACEMENT = 1.0
PAIR_WEIGHT = 0.2


class ShapeFit:
    """How many of the grid's cells the best placement of a shape covers, before and after one
    move. Every placement (turned, mirrored, moved) covering at least the best count minus 2 is
    kept: one move changes a placement's count by at most one, so no other can become best."""

    def __init__(
        self, cells: set[Pos], shape: frozenset[Pos], locked: set[Pos] | frozenset[Pos] = ()
    ) -> None:
        counts: Counter = Counter()
        variants = list(shape_variants(frozenset(shape)))
        for index, variant in enumerate(variants):
            for r, c in cells:
                for sr, sc in variant:
                    counts[(index, r - sr, c - sc)] += 1
        if locked:  # a locked yokai never moves: a placement must cover it
            counts = Counter(
                {
                    key: count
                    for key, count in counts.items()
                    if all((r - key[1], c - key[2]) in variants[key[0]] for r, c in locked)
                }
            )
        top = max(counts.values(), default=0)
        self.placements = [
            (variants[index], dr, dc, count)
            for (index, dr, dc), count in counts.items()
            if count >= top - 2
        ]

    def after_move(self, source: Pos, target: Pos) -> int:
        best = 0
        for variant, dr, dc, count in self.placements:
            count += ((target[0] - dr, target[1] - dc) in variant) - (
                (source[0] - dr, source[1] - dc) in variant
            )
            best = max(best, count)
        return best


def make_bot(level: str) -> Bot:
    if level == "random":
        return RandomBot()
    return TeamBot(level)
