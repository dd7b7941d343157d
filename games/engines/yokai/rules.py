"""Yokai (engine ``yokai``): a cooperative memory game on a moving grid of 16 face-down cards.

Rules (``shared/rules/yokai.fr.txt``; interpretation notes in ``docs/rules/yokai.md``):

- 2–4 players, one team: everyone wins or loses together. 16 yokai cards, four families of
  four (kitsune きつね, kappa かっぱ, rokurokubi ろくろくび, oni おに), dealt face down in a
  4 × 4 grid. Clue cards are drawn per player count (``data.CLUE_COUNTS``: singles, pairs,
  triples) and shuffled into a face-down pile; the rest stay in the box.
- The player "most afraid of ghosts" plays first (option ``first``); turns go round the table.
- A turn has three steps, in order:
  1. **peek** at 2 yokai, privately (one action per card; a card with a clue on it is locked
     and cannot be peeked), then put them back: as printed the view shows them during this
     turn only; option ``memory_aids`` (a help for beginners) keeps every peek on the board;
  2. **move** 1 unlocked yokai to an empty place so that the 16 cards stay one orthogonally
     connected group (diagonal contact does not count, never two groups). If no yokai can
     move, the step is skipped;
  3. **clue**: reveal the top clue card of the pile (it is put face up beside the grid), or
     place a revealed clue on a yokai without a clue. A placed clue stays for the rest of the
     game, locks that yokai (no peek, no move) and claims it is one of the clue's families.
     Clues are never stacked on one yokai.
- The game ends when a player declares the yokai appeased (``declare``, any time during their
  turn) or when the last clue card has been used (pile empty and every revealed clue placed).
  All yokai are turned over: the team wins if every family forms one orthogonally connected
  group, and, at level 2, the affinity's two families touch, and, at level 5, the yokai form
  the objective's shape.
- Score of a won game: a clue rightly placed +1, wrongly placed −1, revealed but not placed
  +2, never revealed +5; rating by player count (``data.RATING_THRESHOLDS``).
- Levels (option ``level``): 1 base rules; 2 an affinity card, seen only by the first player;
  3 revealed clues are stacked: only the last one revealed can be placed; 4 clues are drawn
  face down and only lock a yokai (a placed face-down clue scores +1: it claims nothing);
  5 an objective card seen by all.

Actions: ``{"type": "peek", "row": r, "col": c}``, ``{"type": "move", "row": r, "col": c,
"to_row": r2, "to_col": c2}``, ``{"type": "reveal"}``, ``{"type": "place", "slot": i, "row": r,
"col": c}`` (slot = index among the clues beside the grid, in reveal order), ``{"type":
"declare"}``. States are frozen; randomness is used only at the deal, from
``random.Random(seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from games.engines.base import (
    Bot,
    Engine,
    IllegalAction,
    Option,
    gettext_noop,
    latest_events,
)
from games.engines.yokai.bots import make_bot
from games.engines.yokai.data import (
    AFFINITIES,
    AFFINITY_FAMILIES,
    CLUE_COUNTS,
    CLUE_FAMILIES,
    CLUES,
    FAMILY,
    FAMILY_IDS,
    FAMILY_OF_YOKAI,
    GRID_SIZE,
    OBJECTIVE,
    OBJECTIVES,
    POINTS_REVEALED,
    POINTS_RIGHT,
    POINTS_UNREVEALED,
    POINTS_WRONG,
    YOKAI,
    families_on,
    rating,
)
from games.engines.yokai.index import (
    all_destinations,
    families_touch,
    family_groups_connected,
    has_shape,
    is_connected,
)

ENGINE_NAME = "yokai"
PEEKS_PER_TURN = 2
LOG_WINDOW = 40
STEPS = ("peek", "move", "clue", "over")
SETUP_KEYS = frozenset(
    {"hands", "pile", "table", "first", "grid", "clues", "affinity", "objective"}
)
SCRIPTS = ("hiragana", "katakana")
ACTION_FIELDS = {
    "peek": frozenset({"type", "row", "col"}),
    "move": frozenset({"type", "row", "col", "to_row", "to_col"}),
    "reveal": frozenset({"type"}),
    "place": frozenset({"type", "slot", "row", "col"}),
    "declare": frozenset({"type"}),
}


class YokaiState(NamedTuple):
    """A game position: immutable plain data."""

    players: int
    seed: int
    level: int
    options: tuple[tuple[str, Any], ...]  # validated options but ``setup``, by name
    first: int
    grid: tuple[tuple[int, int, str], ...]  # (row, col, yokai card), sorted by place
    clue_pile: tuple[str, ...]  # face down; clue_pile[0] is revealed next
    boxed: tuple[str, ...]  # clue cards left in the box at the deal
    aside: tuple[str, ...]  # clues drawn and not yet placed, in reveal order
    placed: tuple[tuple[int, int, str], ...]  # (row, col, clue), in the order placed
    affinity: str | None  # level 2
    objective: str | None  # level 5
    peeks: tuple[tuple[tuple[str, int], ...], ...]  # per seat: (card, turn last peeked)
    turn: int  # the seat playing (the last one once over)
    step: str  # "peek" | "move" | "clue" | "over"
    turn_no: int  # 1 for the first turn of the game
    peeked_now: tuple[str, ...]  # cards peeked during this turn
    ended_by: str | None  # "declared" | "clues_used"
    log: tuple[tuple[dict, ...], ...]  # the deal's events, then one group per apply


def grid_map(state: YokaiState) -> dict[tuple[int, int], str]:
    return {(r, c): card for r, c, card in state.grid}


def locked_places(state: YokaiState) -> set[tuple[int, int]]:
    return {(r, c) for r, c, _ in state.placed}


def memory_aids(state: YokaiState) -> bool:
    """The table option (tables created before it existed play the printed game)."""
    return bool(dict(state.options).get("memory_aids", False))


def families_seen(state: YokaiState, seat: int | None, *, aids: bool) -> dict[str, int]:
    """card -> the turn it was last peeked, for the yokai ``seat`` sees now. As printed (« Regardez-
    les secrètement. Puis remettez-les à leur place. ») a seat sees the yokai it peeked at during
    the turn it is playing; with memory aids, every yokai it ever peeked at."""
    if seat is None:
        return {}
    if aids:
        return dict(state.peeks[seat])
    if seat == state.turn and state.step != "over":
        return dict.fromkeys(state.peeked_now, state.turn_no)
    return {}


def faces_down(level: int) -> bool:
    """Level 4 draws clues face down: they only lock a yokai."""
    return level == 4


# --- the end -------------------------------------------------------------------------------------


def judge(state: YokaiState) -> dict[str, Any]:
    """All yokai turned over: is the team's grid appeased, and what does it score?"""
    grid = grid_map(state)
    families_ok = family_groups_connected(grid, FAMILY_OF_YOKAI)
    affinity_ok = objective_ok = None
    if state.affinity is not None:
        affinity_ok = families_touch(grid, FAMILY_OF_YOKAI, *AFFINITY_FAMILIES[state.affinity])
    if state.objective is not None:
        objective_ok = has_shape(grid, OBJECTIVE[state.objective].cells)
    won = families_ok and affinity_ok is not False and objective_ok is not False
    right = wrong = 0
    for r, c, clue in state.placed:
        if faces_down(state.level) or FAMILY_OF_YOKAI[grid[(r, c)]] in CLUE_FAMILIES[clue]:
            right += 1
        else:
            wrong += 1
    breakdown = {
        "right": right,
        "wrong": wrong,
        "revealed": len(state.aside),
        "unrevealed": len(state.clue_pile),
    }
    points = (
        right * POINTS_RIGHT
        + wrong * POINTS_WRONG
        + len(state.aside) * POINTS_REVEALED
        + len(state.clue_pile) * POINTS_UNREVEALED
    )
    return {
        "won": won,
        "families_ok": families_ok,
        "affinity_ok": affinity_ok,
        "objective_ok": objective_ok,
        "points": points if won else None,
        "rating": rating(points, state.players) if won else None,
        "breakdown": breakdown,
    }


# --- one apply ------------------------------------------------------------------------------------


class _Turn:
    """The mutable scratch of one ``apply``; frozen back into a state at the end."""

    def __init__(self, state: YokaiState) -> None:
        self.state = state
        self.grid = grid_map(state)
        self.clue_pile = state.clue_pile
        self.aside = state.aside
        self.placed = state.placed
        self.peeks = state.peeks
        self.turn = state.turn
        self.step = state.step
        self.turn_no = state.turn_no
        self.peeked_now = state.peeked_now
        self.ended_by = state.ended_by
        self.events: list[dict] = []

    def peek(self, seat: int, pos: tuple[int, int]) -> None:
        card = self.grid[pos]
        row, col = pos
        self.events.append(
            {
                "type": "peek",
                "seat": seat,
                "row": row,
                "col": col,
                "card": card,
                "family": FAMILY_OF_YOKAI[card],
                "private_to": seat,
            }
        )
        self.events.append({"type": "peek", "seat": seat, "row": row, "col": col, "except": seat})
        memory = dict(self.peeks[seat])
        memory[card] = self.turn_no
        self.peeks = (
            *self.peeks[:seat],
            tuple(sorted(memory.items())),
            *self.peeks[seat + 1 :],
        )
        self.peeked_now = (*self.peeked_now, card)
        if len(self.peeked_now) == min(PEEKS_PER_TURN, len(self.peekable())):
            self.start_move_step()

    def peekable(self) -> list[tuple[int, int]]:
        locked = {(r, c) for r, c, _ in self.placed}
        return [p for p in self.grid if p not in locked]

    def start_move_step(self) -> None:
        self.step = "move"
        if not movable_sources(self.grid, {(r, c) for r, c, _ in self.placed}):
            self.events.append({"type": "no_move", "seat": self.turn})
            self.step = "clue"

    def move(self, seat: int, source: tuple[int, int], target: tuple[int, int]) -> None:
        self.grid[target] = self.grid.pop(source)
        self.events.append(
            {
                "type": "move",
                "seat": seat,
                "row": source[0],
                "col": source[1],
                "to_row": target[0],
                "to_col": target[1],
            }
        )
        self.step = "clue"

    def reveal(self, seat: int) -> None:
        clue, self.clue_pile = self.clue_pile[0], self.clue_pile[1:]
        self.aside = (*self.aside, clue)
        slot = len(self.aside) - 1
        if faces_down(self.state.level):
            self.events.append({"type": "draw_clue", "seat": seat, "slot": slot})
        else:
            self.events.append({"type": "reveal", "seat": seat, "clue": clue, "slot": slot})
        self.end_turn()

    def place(self, seat: int, slot: int, pos: tuple[int, int]) -> None:
        clue = self.aside[slot]
        self.aside = (*self.aside[:slot], *self.aside[slot + 1 :])
        self.placed = (*self.placed, (pos[0], pos[1], clue))
        self.events.append(
            {
                "type": "place",
                "seat": seat,
                "slot": slot,
                "clue": None if faces_down(self.state.level) else clue,
                "row": pos[0],
                "col": pos[1],
            }
        )
        self.end_turn()

    def end_turn(self) -> None:
        if not self.clue_pile and not self.aside:
            self.finish("clues_used")
            return
        self.turn = (self.turn + 1) % self.state.players
        self.turn_no += 1
        self.step = "peek"
        self.peeked_now = ()
        self.events.append({"type": "turn", "seat": self.turn, "turn_no": self.turn_no})

    def finish(self, reason: str) -> None:
        self.ended_by = reason
        self.step = "over"
        self.peeked_now = ()
        verdict = judge(self.frozen())
        self.events.append(
            {
                "type": "game_over",
                "reason": reason,
                "won": verdict["won"],
                "points": verdict["points"],
                "rating": verdict["rating"],
            }
        )

    def frozen(self) -> YokaiState:
        return self.state._replace(
            grid=tuple(sorted((r, c, card) for (r, c), card in self.grid.items())),
            clue_pile=self.clue_pile,
            aside=self.aside,
            placed=self.placed,
            peeks=self.peeks,
            turn=self.turn,
            step=self.step,
            turn_no=self.turn_no,
            peeked_now=self.peeked_now,
            ended_by=self.ended_by,
            log=(*self.state.log, tuple(self.events)),
        )


def movable_sources(
    grid: Mapping[tuple[int, int], str], locked: set[tuple[int, int]]
) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Each unlocked yokai's legal destinations (yokai with none left out)."""
    occupied = frozenset(grid)
    moves = all_destinations(occupied, sorted(occupied - locked))
    return {source: targets for source, targets in moves.items() if targets}


# --- the engine -----------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return type(value) is int


def _log_copy(memory: Mapping[str, int] | None) -> Callable[[Mapping[str, Any]], dict]:
    """How the log window copies an event: a private peek names its yokai only while the seat
    still sees it (``memory``: the yokai it sees now; None once every yokai is turned over)."""
    if memory is None:
        return dict

    def copy(event: Mapping[str, Any]) -> dict:
        if "card" in event and event["card"] not in memory:
            return {k: v for k, v in event.items() if k not in ("card", "family")}
        return dict(event)

    return copy


class YokaiEngine(Engine):
    name = ENGINE_NAME
    title = gettext_noop("Yokai")
    blurb = gettext_noop(
        "A cooperative memory game: peek at face-down spirits, move them and give clues until "
        "each family of yokai is gathered. Read the family names in kana."
    )
    DESCRIBED_OPTIONS = ("level", "script")
    cooperative = True  # one team: ``outcome()["won"]`` says whether every seat won
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    # "random" plays uniformly among the legal actions (never declaring): the baseline team.
    BOT_LEVELS = ("easy", "normal", "hard", "random")
    OPTIONS = (
        Option(
            "level",
            "int",
            1,
            gettext_noop("Level"),
            help=gettext_noop(
                "1 base rules; 2 a secret affinity; 3 stacked clues; 4 face-down clues; "
                "5 an objective shape."
            ),
            min=1,
            max=5,
        ),
        Option(
            "script",
            "choice",
            "hiragana",
            gettext_noop("Script"),
            choices=SCRIPTS,
            choice_labels=(gettext_noop("Hiragana"), gettext_noop("Katakana")),
        ),
        Option(
            "first",
            "int",
            0,
            gettext_noop("Seat of the player most afraid of ghosts (plays first)"),
            min=0,
            max=3,
            seat=True,
        ),
        Option(
            "memory_aids",
            "bool",
            False,
            gettext_noop("Memory aids: the board keeps showing the families you peeked at"),
            help=gettext_noop(
                "A help for beginners. As printed, Yokai is a memory game: you look at two "
                "yokai and put them back, and remember them yourself."
            ),
        ),
    )

    # -- setting up --

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> YokaiState:
        players, checked, setup = self.check_new_game(players, seed, options)
        level = checked["level"]
        rng = random.Random(seed)
        if setup is not None:
            grid, pile, affinity, objective, first = self._stacked(setup, players, level)
        else:
            if checked["first"] >= players:
                raise ValueError(f"option 'first' must be a seat between 0 and {players - 1}")
            grid, pile, affinity, objective = self._deal(players, level, rng)
            first = checked["first"]
        boxed = tuple(clue for clue in CLUES if clue not in pile)
        state = YokaiState(
            players=players,
            seed=seed,
            level=level,
            options=tuple(sorted(checked.items())),
            first=first,
            grid=tuple(
                sorted((i // GRID_SIZE, i % GRID_SIZE, card) for i, card in enumerate(grid))
            ),
            clue_pile=tuple(pile),
            boxed=boxed,
            aside=(),
            placed=(),
            affinity=affinity,
            objective=objective,
            peeks=((),) * players,
            turn=first,
            step="peek",
            turn_no=1,
            peeked_now=(),
            ended_by=None,
            log=(
                (
                    {
                        "type": "deal",
                        "clues": len(pile),
                        "level": level,
                        "objective": objective,
                    },
                    {"type": "turn", "seat": first, "turn_no": 1},
                ),
            ),
        )
        return state

    def _deal(
        self, players: int, level: int, rng: random.Random
    ) -> tuple[list[str], list[str], str | None, str | None]:
        grid = list(YOKAI)
        rng.shuffle(grid)
        pile: list[str] = []
        for size, count in zip((1, 2, 3), CLUE_COUNTS[players], strict=True):
            of_size = [clue for clue in CLUES if len(CLUE_FAMILIES[clue]) == size]
            pile += rng.sample(of_size, count)
        rng.shuffle(pile)
        affinity = rng.choice(AFFINITIES) if level == 2 else None
        objective = rng.choice(OBJECTIVES).id if level == 5 else None
        return grid, pile, affinity, objective

    def _stacked(
        self, setup: Any, players: int, level: int
    ) -> tuple[list[str], list[str], str | None, str | None, int]:
        """Check ``options["setup"]`` (see docs/rules/yokai.md) and return the deal it gives."""
        if not isinstance(setup, Mapping):
            raise ValueError("setup must be an object with grid, clues and first")
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:
            raise ValueError(f"unknown setup key(s): {', '.join(unknown)}")
        hands = setup.get("hands", [[]] * players)
        if not isinstance(hands, list) or len(hands) != players or any(h != [] for h in hands):
            raise ValueError(f"setup.hands must be {players} empty lists: Yokai deals no hands")
        for key in ("pile", "table"):
            if setup.get(key, []) != []:
                raise ValueError(f"setup.{key} must be empty: Yokai uses grid and clues")
        families = setup.get("grid")
        if (
            not isinstance(families, list)
            or len(families) != GRID_SIZE * GRID_SIZE
            or sorted(families) != sorted(f for f in FAMILY_IDS for _ in range(4))
        ):
            raise ValueError(
                "setup.grid must list 16 family ids, row by row, four of each of "
                + ", ".join(FAMILY_IDS)
            )
        numbers = dict.fromkeys(FAMILY_IDS, 0)
        grid = []
        for family in families:
            numbers[family] += 1
            grid.append(f"{family}-{numbers[family]}")
        clues = setup.get("clues")
        if (
            not isinstance(clues, list)
            or not clues
            or any(clue not in CLUE_FAMILIES for clue in clues)
            or len(set(clues)) != len(clues)
        ):
            raise ValueError("setup.clues must be a non-empty list of distinct clue ids")
        affinity = setup.get("affinity")
        objective = setup.get("objective")
        if level == 2:
            if affinity not in AFFINITY_FAMILIES:
                raise ValueError(f"setup.affinity must be one of {', '.join(AFFINITIES)}")
        elif affinity is not None:
            raise ValueError("setup.affinity is only used at level 2")
        if level == 5:
            if objective not in OBJECTIVE:
                raise ValueError(f"setup.objective must be one of {', '.join(OBJECTIVE)}")
        elif objective is not None:
            raise ValueError("setup.objective is only used at level 5")
        first = setup.get("first", 0)
        if not _is_int(first) or not 0 <= first < players:
            raise ValueError(f"setup.first must be a seat between 0 and {players - 1}")
        return grid, list(clues), affinity, objective, first

    # -- playing --

    def to_act(self, state: YokaiState) -> list[int]:
        return [] if state.step == "over" else [state.turn]

    def is_over(self, state: YokaiState) -> bool:
        return state.step == "over"

    def legal_actions(self, state: YokaiState, seat: int) -> list[dict]:
        if state.step == "over" or seat != state.turn:
            return []
        grid = grid_map(state)
        locked = locked_places(state)
        actions: list[dict] = []
        if state.step == "peek":
            actions = [
                {"type": "peek", "row": r, "col": c}
                for (r, c), card in sorted(grid.items())
                if (r, c) not in locked and card not in state.peeked_now
            ]
        elif state.step == "move":
            actions = [
                {"type": "move", "row": r, "col": c, "to_row": tr, "to_col": tc}
                for (r, c), targets in movable_sources(grid, locked).items()
                for tr, tc in targets
            ]
        else:
            if state.clue_pile:
                actions.append({"type": "reveal"})
            slots = range(len(state.aside))
            if state.level == 3:
                slots = slots[-1:]
            free = sorted(pos for pos in grid if pos not in locked)
            actions += [
                {"type": "place", "slot": slot, "row": r, "col": c}
                for slot in slots
                for r, c in free
            ]
        actions.append({"type": "declare"})
        return actions

    def apply(self, state: YokaiState, seat: int, action: Any) -> tuple[YokaiState, list[dict]]:
        kind = self._check(state, seat, action)
        turn = _Turn(state)
        if kind == "declare":
            turn.events.append({"type": "declare", "seat": seat})
            turn.finish("declared")
        elif kind == "peek":
            turn.peek(seat, (action["row"], action["col"]))
        elif kind == "move":
            turn.move(seat, (action["row"], action["col"]), (action["to_row"], action["to_col"]))
        elif kind == "reveal":
            turn.reveal(seat)
        else:
            turn.place(seat, action["slot"], (action["row"], action["col"]))
        return turn.frozen(), [dict(event) for event in turn.events]

    # -- validation (nothing is built before every check has passed) --

    def _check(self, state: YokaiState, seat: Any, action: Any) -> str:
        if state.step == "over":
            raise IllegalAction("The game is over.")
        if not _is_int(seat) or not 0 <= seat < state.players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if seat != state.turn:
            raise IllegalAction(f"It is not your turn: seat {state.turn} is playing.")
        kind = action.get("type") if type(action) is dict else None
        if type(kind) is not str or kind not in ACTION_FIELDS:
            raise IllegalAction("Unknown action: peek, move a yokai, reveal or place a clue.")
        if action.keys() != ACTION_FIELDS[kind] or not all(
            _is_int(action[key]) for key in ACTION_FIELDS[kind] - {"type"}
        ):
            raise IllegalAction(f"A {kind} action has the fields {sorted(ACTION_FIELDS[kind])}.")
        if kind == "declare":
            return kind
        step = {"peek": "peek", "move": "move", "reveal": "clue", "place": "clue"}[kind]
        if step != state.step:
            raise IllegalAction(self._step_message(state.step))
        getattr(self, f"_check_{kind}")(state, action)
        return kind

    @staticmethod
    def _step_message(step: str) -> str:
        return {
            "peek": "First peek at two yokai.",
            "move": "Now move one yokai.",
            "clue": "Now reveal a clue or place a revealed one.",
        }[step]

    def _check_peek(self, state: YokaiState, action: Mapping) -> None:
        pos = (action["row"], action["col"])
        grid = grid_map(state)
        if pos not in grid:
            raise IllegalAction("There is no yokai at that place.")
        if pos in locked_places(state):
            raise IllegalAction("A clue locks this yokai: it cannot be peeked at.")
        if grid[pos] in state.peeked_now:
            raise IllegalAction("You already peeked at this yokai this turn: choose another one.")

    def _check_move(self, state: YokaiState, action: Mapping) -> None:
        source, target = (action["row"], action["col"]), (action["to_row"], action["to_col"])
        grid = grid_map(state)
        if source not in grid:
            raise IllegalAction("There is no yokai at that place.")
        if source in locked_places(state):
            raise IllegalAction("A clue locks this yokai: it cannot move.")
        if target in grid:
            raise IllegalAction("That place is taken: move the yokai to an empty place.")
        moved = (set(grid) - {source}) | {target}
        if not is_connected(moved):
            raise IllegalAction(
                "The yokai must stay one group, joined by their sides (not only by corners)."
            )

    def _check_reveal(self, state: YokaiState, action: Mapping) -> None:
        if not state.clue_pile:
            raise IllegalAction("No clue card is left to reveal: place a revealed one.")

    def _check_place(self, state: YokaiState, action: Mapping) -> None:
        slot, pos = action["slot"], (action["row"], action["col"])
        if not 0 <= slot < len(state.aside):
            raise IllegalAction("There is no such revealed clue.")
        if state.level == 3 and slot != len(state.aside) - 1:
            raise IllegalAction("At level 3 only the last clue revealed can be placed.")
        if pos not in grid_map(state):
            raise IllegalAction("There is no yokai at that place.")
        if pos in locked_places(state):
            raise IllegalAction("This yokai already has a clue: clues are never stacked.")

    # -- what players see --

    def view(self, state: YokaiState, seat: int | None) -> dict:
        if seat is not None and not (_is_int(seat) and 0 <= seat < state.players):
            raise ValueError(f"no seat {seat!r} at this table")
        return self._view(state, seat, aids=memory_aids(state))

    def bot_view(self, state: YokaiState, seat: int) -> dict:
        """A CPU teammate remembers every yokai it peeked at, memory aids or not (a computer
        forgets nothing; the humans' boards follow the table's option): ``view`` as with the
        aids on. Never sent to a browser (``games/services/play.py`` gives it to the bot)."""
        return self._view(state, seat, aids=True)

    def _view(self, state: YokaiState, seat: int | None, *, aids: bool) -> dict:
        over = state.step == "over"
        script = dict(state.options)["script"]
        memory = families_seen(state, seat, aids=aids)
        clues_at = {(r, c): clue for r, c, clue in state.placed}
        hidden_clues = faces_down(state.level) and not over
        shown: list[str] = []
        cells = []
        for r, c, card in state.grid:
            known = over or card in memory
            clue = clues_at.get((r, c))
            cells.append(
                {
                    "row": r,
                    "col": c,
                    "card": card if known else None,
                    "family": FAMILY_OF_YOKAI[card] if known else None,
                    "seen": memory.get(card),
                    "now": seat == state.turn and card in state.peeked_now,
                    "locked": clue is not None,
                    "clue": None if clue is None or hidden_clues else clue,
                }
            )
            if known:
                shown.append(card)
            if clue is not None and not hidden_clues:
                shown.append(clue)
        aside = [None if hidden_clues else clue for clue in state.aside]
        shown += [clue for clue in aside if clue is not None]
        affinity = state.affinity if (over or seat == state.first) else None
        if affinity is not None:
            shown.append(affinity)
        return {
            "engine": ENGINE_NAME,
            "options": dict(state.options),
            "level": state.level,
            "players": state.players,
            "seat": seat,
            "first": state.first,
            "turn": None if over else state.turn,
            "to_act": self.to_act(state),
            "step": state.step,
            "turn_no": state.turn_no,
            "peeks_left": PEEKS_PER_TURN - len(state.peeked_now) if state.step == "peek" else 0,
            "cells": cells,
            # the yokai this seat holds up to look at during its turn (its peeks of this turn):
            # the learning hook asks recognition questions about cards entering a "hand"
            "hand": list(state.peeked_now) if seat == state.turn and not over else [],
            "clues_left": len(state.clue_pile),
            "aside": aside,
            "placed": len(state.placed),
            # every move of the game, public (the log above keeps only the recent events):
            # [seat, from row, from col, to row, to col], oldest first
            "moves": [
                [e["seat"], e["row"], e["col"], e["to_row"], e["to_col"]]
                for group in state.log
                for e in group
                if e["type"] == "move"
            ],
            "affinity": affinity,
            "affinity_hidden": state.affinity is not None and affinity is None,
            "objective": state.objective,
            "kana": {card: self._kana(card, script) for card in shown},
            "log": latest_events(
                reversed(state.log), seat, LOG_WINDOW, copy=_log_copy(memory if not over else None)
            ),
            "memory_aids": aids,
            "over": over,
            "outcome": self.outcome(state) if over else None,
        }

    @staticmethod
    def _kana(card: str, script: str) -> dict[str, str]:
        names = [getattr(FAMILY[family], script) for family in families_on(card)]
        return {"glyph": "・".join(names), "script": script}

    def outcome(self, state: YokaiState) -> dict:
        """One team: every seat has the same score and rank 1; ``won`` says whether the team
        won. ``scores`` hold the team's points when it won, 0 when it lost (no count then)."""
        verdict = judge(state)
        points = verdict["points"] if verdict["won"] else 0
        return {
            "scores": [points] * state.players,
            "ranks": [1] * state.players,
            "cooperative": True,
            "over": state.step == "over",
            "ended_by": state.ended_by,
            **verdict,
        }

    # -- persistence --

    def to_json(self, state: YokaiState) -> dict:
        return {
            "engine": ENGINE_NAME,
            "players": state.players,
            "seed": state.seed,
            "level": state.level,
            "options": dict(state.options),
            "first": state.first,
            "grid": [list(cell) for cell in state.grid],
            "clue_pile": list(state.clue_pile),
            "boxed": list(state.boxed),
            "aside": list(state.aside),
            "placed": [list(p) for p in state.placed],
            "affinity": state.affinity,
            "objective": state.objective,
            "peeks": [[list(p) for p in seat] for seat in state.peeks],
            "turn": state.turn,
            "step": state.step,
            "turn_no": state.turn_no,
            "peeked_now": list(state.peeked_now),
            "ended_by": state.ended_by,
            "log": [[dict(event) for event in group] for group in state.log],
        }

    def from_json(self, data: Mapping[str, Any]) -> YokaiState:
        return YokaiState(
            players=data["players"],
            seed=data["seed"],
            level=data["level"],
            options=tuple(sorted(dict(data["options"]).items())),
            first=data["first"],
            grid=tuple((r, c, card) for r, c, card in data["grid"]),
            clue_pile=tuple(data["clue_pile"]),
            boxed=tuple(data["boxed"]),
            aside=tuple(data["aside"]),
            placed=tuple((r, c, clue) for r, c, clue in data["placed"]),
            affinity=data["affinity"],
            objective=data["objective"],
            peeks=tuple(tuple((card, t) for card, t in seat) for seat in data["peeks"]),
            turn=data["turn"],
            step=data["step"],
            turn_no=data["turn_no"],
            peeked_now=tuple(data["peeked_now"]),
            ended_by=data["ended_by"],
            log=tuple(tuple(dict(event) for event in group) for group in data["log"]),
        )

    # -- players and learning hooks --

    def bot(self, level: str) -> Bot:
        return make_bot(self.check_bot_level(level))

    def kana_on(self, card_id: str, options: Mapping[str, Any] | None = None) -> list[str]:
        kana: dict[str, None] = {}
        for family in families_on(card_id):
            kana.update(dict.fromkeys(FAMILY[family].kana_ids))
        return list(kana)

    def cards_shown(self, view: Mapping[str, Any]) -> dict[str, str]:
        return {card: info["script"] for card, info in (view.get("kana") or {}).items()}

    def practice_presets(self) -> list[dict]:
        return [{"level": 1, "script": script} for script in SCRIPTS]

    def practice(self, options: Mapping[str, Any] | None = None) -> frozenset[str]:
        self.validate_options(options)
        return frozenset(kana for family in FAMILY.values() for kana in family.kana_ids)

    # -- conformance hooks --

    def deck(self, state: YokaiState) -> list[str]:
        return [*YOKAI, *CLUES]

    def cards_in_play(self, state: YokaiState) -> list[str]:
        return [
            *(card for _, _, card in state.grid),
            *state.clue_pile,
            *state.boxed,
            *state.aside,
            *(clue for _, _, clue in state.placed),
        ]

    def shuffle_hidden(
        self, state: YokaiState, seat: int | None, rng: random.Random
    ) -> YokaiState | None:
        """Permute what ``seat`` cannot see: the yokai its view does not show
        (``families_seen``, among their places), the clue pile and the box (and, at level 4,
        the face-down clues), and the affinity when it is not the first player."""
        if state.step == "over":
            return None
        memory = families_seen(state, seat, aids=memory_aids(state))
        unknown = [i for i, (_, _, card) in enumerate(state.grid) if card not in memory]
        cards = [state.grid[i][2] for i in unknown]
        rng.shuffle(cards)
        grid = list(state.grid)
        for i, card in zip(unknown, cards, strict=True):
            grid[i] = (grid[i][0], grid[i][1], card)
        hidden = [*state.clue_pile, *state.boxed]
        if faces_down(state.level):
            hidden += [*state.aside, *(clue for _, _, clue in state.placed)]
        rng.shuffle(hidden)
        pile = tuple(hidden[: len(state.clue_pile)])
        rest = hidden[len(state.clue_pile) :]
        boxed, rest = tuple(rest[: len(state.boxed)]), rest[len(state.boxed) :]
        aside, placed = state.aside, state.placed
        if faces_down(state.level):
            aside = tuple(rest[: len(aside)])
            placed = tuple(
                (r, c, clue) for (r, c, _), clue in zip(placed, rest[len(aside) :], strict=True)
            )
        affinity = state.affinity
        if affinity is not None and seat != state.first:
            affinity = rng.choice(AFFINITIES)
        return state._replace(
            grid=tuple(grid),
            clue_pile=pile,
            boxed=boxed,
            aside=aside,
            placed=placed,
            affinity=affinity,
        )
