"""CPU teammates for Yokai. Stateless: everything a bot knows comes from its own view.

The view holds the seat's own peeks (the family of every yokai it has seen, and when) and the
public table: the clues placed on yokai, the clues revealed beside the grid, the objective and,
for the first player at level 2, the affinity. From these a bot builds *beliefs*: the set of
families each yokai may belong to (its own peek, else a teammate's clue on it, narrowed by
families whose four cards are already placed), then plays the three steps:

- **peek** at the unknown yokai it can, those touching known ones first;
- **move** (without a frame) the yokai that makes the believed grid best: one group per family
  (the strongest term), same-family neighbours, and at level 2 the affinity;
- **signal** with clues: place a revealed clue on a yokai it knows matches and that sits with
  its family (the clue tells teammates its family and locks it where it belongs); otherwise
  reveal a new clue; with nothing left to reveal, place where the clue does least harm;
- **declare** when the believed grid wins: at the start of its turn when every yokai's family
  is determined, and after its peeks or its move with at most one undetermined (``hard``);
- **the team's frame** (level 5 always; levels 1-4 with three or four players): a convention
  every CPU teammate follows, like a bidding system at bridge. A fixed frame (``FRAMES``) is
  laid on the deal's 4 x 4 (for the scroll and the lantern, as close to it as the shape
  allows) and cut into four regions of four, one per family. A bot moves a yokai into a
  region only when it knows the yokai is of that family, so a teammate reading the public
  moves learns that family without a word (``read_frame_moves``: the table has no chat, and
  the rules allow none); misplaced yokai step out to free their places, the yokai stay
  within reach of the frame (no more off it than moves left: the count of moves left is
  public, one clue action per turn) and the last move makes it whole, which at level 5 is
  the objective's shape. A clue is only ever placed on a yokai known to sit in its region
  (a lock elsewhere would keep it out for good). A teammate whose region moves this seat's
  own peeks contradict (a human who does not play by the convention) is not read.

Levels: ``easy`` believes only its own peeks and ignores the affinity and objective;
``normal`` also reads teammates' clues and moves and plays by the frame; ``hard`` declares a
little earlier (when at most one yokai is undetermined and the rest wins).
``RandomBot`` (uniform among legal actions, never declaring) is the baseline of docs/bench.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from games.engines.base import Bot
from games.engines.yokai.data import (
    AFFINITY_FAMILIES,
    CLUE_FAMILIES,
    FAMILY_IDS,
    OBJECTIVE,
)
from games.engines.yokai.index import components, has_shape, neighbours

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
        frame = self.frame(view)
        if frame is not None:
            belief = read_frame_moves(view, belief, frame)
        by_type: dict[str, list[dict]] = {}
        for action in legal_actions:
            by_type.setdefault(action["type"], []).append(action)
        if "declare" in by_type and self.should_declare(view, belief):
            return by_type["declare"][0]
        if "peek" in by_type:
            return self.peek(belief, by_type["peek"], rng)
        if "move" in by_type:
            if frame is not None:
                return self.frame_move(view, belief, frame, by_type["move"], rng)
            return self.move(view, belief, by_type["move"], rng)
        return self.clue(view, belief, by_type, rng, frame)

    def frame(self, view: Mapping[str, Any]) -> dict[Pos, str] | None:
        if not self.goals:
            return None
        name = frame_name(view["level"], view["players"], view.get("objective"))
        return frame_of(name) if name else None

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
        """Without a frame (two players at levels 1-4, and ``easy``): the move that makes the
        believed grid best, scored as a change from the grid before: -10 per extra group of
        the moved card's family, +0.2 x the chance that two neighbours share a family, and the
        affinity (-5 while apart)."""
        known = self._known(belief)
        splits = {family: len(components(cells)) - 1 for family, cells in known.items()}
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
            score = delta + rng.random() * 0.01
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best  # type: ignore[return-value]

    def frame_move(
        self,
        view: Mapping[str, Any],
        belief: dict[Pos, frozenset[str]],
        frame: Mapping[Pos, str],
        actions: list[dict],
        rng: random.Random,
    ) -> dict:
        """Fill the team's frame (``FRAMES``), one yokai into its family's region.

        Within reach of the frame (no more yokai off it than moves left, less a margin):
        +FIX for a yokai this bot knows entering its region, -FIX for one leaving it, a yokai
        it does not know (or knows to be of another family) never enters a region (that would
        lie to teammates reading the convention), a misplaced known yokai may step out of the
        frame to free its place, and a move that completes the believed frame wins."""
        reach = frame_reach(view)
        outside = sum(1 for pos in belief if pos not in frame)
        scored = []
        for action in actions:
            source, target = (action["row"], action["col"]), (action["to_row"], action["to_col"])
            off = outside + (target not in frame) - (source not in frame)
            fams = belief[source]
            family = next(iter(fams)) if len(fams) == 1 else None
            here, there = frame.get(source), frame.get(target)
            score = 0.0
            if family is not None:
                score += FIX * ((there == family) - (here == family))
            if there is not None and there != family:
                score -= LIE
            if there is None and here is not None:
                score += PARK if family is not None and here != family else -1.0
            if off == 0 and self.frame_done(belief, frame, source, target):
                score += WIN_MARK
            over = max(off - reach, 0)
            scored.append((-over, score + rng.random() * 0.01, action))
        return max(scored, key=lambda item: (item[0], item[1]))[2]

    def frame_done(
        self,
        belief: Mapping[Pos, frozenset[str]],
        frame: Mapping[Pos, str],
        source: Pos,
        target: Pos,
    ) -> bool:
        """Every yokai in its family's region after the move, as far as this bot believes."""
        unknown = 0
        for pos, fams in belief.items():
            pos = target if pos == source else pos
            if len(fams) > 1:
                unknown += 1
                if frame.get(pos) not in fams:
                    return False
            elif frame.get(pos) not in fams:
                return False
        return unknown <= (1 if self.bold else 0)

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
        frame: Mapping[Pos, str] | None = None,
    ) -> dict:
        places = by_type.get("place", [])
        aside = view["aside"]
        scored = []
        for action in places:
            clue = aside[action["slot"]]
            pos = (action["row"], action["col"])
            value = self.placement_value(belief, pos, clue)
            if frame and belief[pos] != frozenset({frame.get(pos)}):
                value -= LOCK_OUT  # a lock keeps a yokai out of its region for good
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
# how many moves to keep in hand for bringing the yokai back into the frame (the objective's
# shape at level 5); tuned with bench/yokai_tune.py on seeds 100000+ and 200000+ (0, 1, 2 tried)
SHAPE_MARGIN = 0


def frame_reach(view: Mapping[str, Any]) -> int:
    """How many yokai may be off the team's frame after this turn's move.

    The turns left are public: each turn uses one clue action, so 2 per clue in the pile plus 1
    per revealed clue (this turn's included). After this move, ``moves`` moves are left; keep
    ``SHAPE_MARGIN`` of them in hand for the teammates' moves that cannot help, but allow one
    yokai off before the last move: a full frame must be broken by the next compulsory move
    (one card out), unless the next player declares.
    """
    moves = 2 * view["clues_left"] + len(view["aside"]) - 1
    return max(moves - SHAPE_MARGIN, min(moves, 1), 0)


# The team's convention (level 5, and levels 1-4 with three or four players): a fixed frame,
# laid on the deal's 4 x 4 (rows and columns 0-3; the scroll and the lantern as close to it as
# their shape allows) and cut into four regions of four, one per family in FAMILY_IDS order
# (a = kitsune, b = kappa, c = rokurokubi, d = oni). Every CPU teammate fills the same frame and
# moves a yokai into a region only when it knows the yokai is of that region's family, so a
# yokai a teammate moved into a region is known to be of its family: the moves themselves
# share what each seat has peeked.
FRAMES = {
    "square": ((0, 0), ("aabb", "aabb", "ccdd", "ccdd")),
    "scroll": ((1, -2), ("aabbccdd", "aabbccdd")),
    "lantern": ((0, 0), (".aa.", "baac", "bbcc", "bddc", ".dd.")),
    # level 2: the deal's 4 x 4 cut so that every two regions touch, so that the affinity,
    # which only the first player knows, holds whatever it is once the frame is full (levels
    # 1, 3 and 4 use the square's 2 x 2 blocks, which did better there)
    "affinity": ((0, 0), ("aaab", "accb", "dccb", "dddb")),
}
FRAME_PLAYERS = 3
FIX = 3.0
LIE = 4.0
PARK = 0.5


def frame_name(level: int, players: int, objective: str | None) -> str | None:
    """The team's frame (``FRAMES``) the CPU teammates play by: always at level 5 (the
    objective's), and at levels 1-4 with three or four players (two players have too few moves
    to fill it: they group the families wherever they are)."""
    if objective:
        return objective
    if players >= FRAME_PLAYERS:
        return "affinity" if level == 2 else "square"
    return None


@lru_cache(maxsize=8)
def frame_of(objective: str) -> dict[Pos, str]:
    """Place -> the family whose region of the team's frame it is."""
    (top, left), rows = FRAMES[objective]
    family = dict(zip("abcd", FAMILY_IDS, strict=True))
    return {
        (top + r, left + c): family[mark]
        for r, line in enumerate(rows)
        for c, mark in enumerate(line)
        if mark != "."
    }


def read_frame_moves(
    view: Mapping[str, Any], belief: dict[Pos, frozenset[str]], frame: Mapping[Pos, str]
) -> dict[Pos, frozenset[str]]:
    """Beliefs plus the convention: a yokai whose last move was a teammate's, into a region of
    the frame, is of that region's family (unless this seat's own peeks say otherwise). The
    public list of moves is replayed backwards from the grid of now."""
    seat = view["seat"]
    where = {pos: pos for pos in belief}  # place at that time -> place now
    last: dict[Pos, int] = {}
    for mover, row, col, to_row, to_col in reversed(view.get("moves", ())):
        now = where.pop((to_row, to_col), None)
        if now is None:  # a list that does not match the grid: read nothing more
            break
        last.setdefault(now, mover)
        where[(row, col)] = now
    # a teammate whose region moves this seat's own knowledge contradicts does not play by
    # the convention (a human player, say): none of its moves is read
    liars = {
        mover
        for pos, mover in last.items()
        if pos in frame and len(belief[pos]) == 1 and frame[pos] not in belief[pos]
    }
    out = dict(belief)
    for pos, mover in last.items():
        family = frame.get(pos)
        if mover == seat or mover in liars or family is None:
            continue
        if len(out[pos]) > 1 and family in out[pos]:
            out[pos] = frozenset({family})
    return out


LOCK_OUT = 10.0


def pair_weight(first: frozenset[str], second: frozenset[str]) -> float:
    """Neighbours are worth the chance that they are of one family."""
    common = len(first & second)
    return PAIR_WEIGHT * common / (len(first) * len(second)) if common else 0.0


GOOD_PLACEMENT = 1.0
PAIR_WEIGHT = 0.2


def make_bot(level: str) -> Bot:
    if level == "random":
        return RandomBot()
    return TeamBot(level)
