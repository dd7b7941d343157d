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
- **declare** at the start of its turn when every yokai's family is determined and the believed
  grid wins.

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
        if view["step"] != "peek" or view["peeks_left"] < 2:
            return False
        unknown = sum(1 for fams in belief.values() if len(fams) > 1)
        if unknown > (1 if self.bold else 0):
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
        fit = ShapeFit(set(belief), OBJECTIVE[objective].cells) if objective else None
        # the shape only counts at the end: it weighs more as the clue actions run out
        turns_left = 2 * view["clues_left"] + len(view["aside"])
        shape_weight = SHAPE_WEIGHT if turns_left > view["players"] else SHAPE_WEIGHT_LATE
        # moving a yokai whose family is determined is the point of a move; the others are
        # weighed only when no such yokai can move
        determined = [a for a in actions if len(belief[(a["row"], a["col"])]) == 1]
        best, best_score = None, None
        for action in determined or actions:
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
                delta -= shape_weight * (16 - fit.after_move(source, target))
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
        scored = []
        for action in places:
            clue = aside[action["slot"]]
            pos = (action["row"], action["col"])
            scored.append((self.placement_value(belief, pos, clue), rng.random(), action))
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
SHAPE_WEIGHT = 4.0
SHAPE_WEIGHT_LATE = 12.0


def pair_weight(first: frozenset[str], second: frozenset[str]) -> float:
    """Neighbours are worth the chance that they are of one family."""
    common = len(first & second)
    return 0.2 * common / (len(first) * len(second)) if common else 0.0


GOOD_PLACEMENT = 1.0


class ShapeFit:
    """How many of the grid's cells the best placement of a shape covers, before and after one
    move. Every placement (turned, mirrored, moved) covering at least the best count minus 2 is
    kept: one move changes a placement's count by at most one, so no other can become best."""

    def __init__(self, cells: set[Pos], shape: frozenset[Pos]) -> None:
        counts: Counter = Counter()
        variants = list(shape_variants(frozenset(shape)))
        for index, variant in enumerate(variants):
            for r, c in cells:
                for sr, sc in variant:
                    counts[(index, r - sr, c - sc)] += 1
        top = max(counts.values())
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
