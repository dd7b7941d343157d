"""Kazoku family games (engine ``kazoku-families``): Happy Families with kana cards.

Rules (``shared/rules/kazoku.fr.txt`` and ``kazoku.en.txt``; interpretation notes in
``docs/rules/kazoku.md``):

- One deck of 45 kana cards (``deck``), grouped into families by the ``variant`` option:
  ``themed`` (9 themes x 5 members), ``kana`` (9 consonant rows, YA = ya yu yo wa n) or
  ``gojuon`` (5 vowel columns of 10/8/9/8/10 cards). One mechanism for all three.
- 2-6 players, ``hand_size`` cards each (5). The ``start`` option picks who plays first: the
  youngest player, whose seat the table gives as ``first`` (default), or a random seat.
- On your turn you ask ONE opponent for one card (a member of a family): only for a family you
  already hold a card of, never for a card you hold. The opponent has it: it is given to you
  and you play again. Otherwise you draw the top card of the pile ("go fish"); if it is the
  card you asked for, "Bonne pioche !" is announced with the card shown and you play again;
  otherwise your turn ends. If the pile is empty, you pass.
- Laying a family: an explicit ``lay`` action, available whenever it is your turn to act and
  you hold a complete family (option ``lay="choice"``, default). Laying ends your turn. So the
  game never stalls, every complete family you still hold is laid automatically when your turn
  ends, and when the game ends. With ``lay="immediate"`` a family is laid as soon as it is
  complete, which ends the turn (the strict reading of "il pose ... et passe son tour").
- A player whose turn comes with an empty hand draws a card and plays; if the pile is empty
  too they are skipped.
- End (option ``end``): ``all_families`` (French text, default) when every family is laid;
  ``pile_empty`` (English text) as soon as the pile is empty (the last card was drawn).
- Outcome: one point per family laid (whatever its size); ties share the rank.

Actions: ``{"type": "ask", "target": seat, "card": id}`` and ``{"type": "lay"}``.
Events: see ``docs/engines.md``. Everything is pure: states are frozen, randomness is used
only at the deal, from ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping
from functools import lru_cache
from itertools import chain
from typing import Any, NamedTuple

from games.engines.base import (
    Bot,
    Engine,
    IllegalAction,
    Option,
    competition_ranks,
    gettext_noop,
    latest_events,
    validate_setup,
    visible_events,
)
from games.engines.kazoku.bots_families import make_bot
from games.engines.kazoku.deck import (
    FIRST_OPTION,
    SCRIPT_OF_LETTER,
    SCRIPT_OPTION,
    START_OPTION,
    VARIANTS,
    deal_scripts,
    family_name,
    load_deck,
)
from games.engines.kazoku.index import Rules, ask_templates, hand_summary, rules_for

ENGINE_NAME = "kazoku-families"
ASK_KEYS = frozenset({"type", "target", "card"})


class _KazokuFields(NamedTuple):
    """A game position: immutable plain data (a named tuple, cheap to build at every apply)."""

    players: int
    seed: int
    variant: str
    end: str
    lay: str
    options: tuple[tuple[str, Any], ...]  # every validated option but ``setup``, by name
    scripts: str  # one letter per card in deck order: "h" hiragana, "k" katakana
    hands: tuple[tuple[str, ...], ...]  # per seat, in deck order
    pile: tuple[str, ...]  # pile[0] is drawn next
    laid: tuple[tuple[str, ...], ...]  # per seat, family ids in the order laid
    turn: int  # the seat to act (the last seat to act once the game is over)
    over: bool
    # the events of the deal, then of each apply (private ones included; views filter them)
    log: tuple[tuple[dict, ...], ...]


class KazokuState(_KazokuFields):
    """A game position (the fields of ``_KazokuFields``).

    Besides its fields a state may keep, in its ``__dict__``, the public memory of its log
    (``PublicMemory``, under ``_memory``): a cache of what its fields determine, set by the
    engine only, never compared (a tuple compares its fields), saved (``to_json``) or copied
    by ``_replace``.
    """


# --- pure helpers on hands ----------------------------------------------------------------------


def family_counts(rules: Rules, hand: tuple[str, ...]) -> dict[str, int]:
    """Family -> how many of its cards ``hand`` holds (families in first-held order)."""
    counts: dict[str, int] = {}
    family_of = rules.family_of
    for card in hand:
        family = family_of[card]
        counts[family] = counts.get(family, 0) + 1
    return counts


def complete_families(rules: Rules, hand: tuple[str, ...]) -> tuple[str, ...]:
    return hand_summary(rules.variant, hand)[1]


def _fresh(event: dict) -> dict:
    """A copy of a logged event that the caller may change: list values copied too."""
    if event["type"] in _EVENTS_WITH_LISTS:
        return {key: list(value) if type(value) is list else value for key, value in event.items()}
    return event.copy()


_EVENTS_WITH_LISTS = frozenset({"family_laid", "game_over"})


def _with(rules: Rules, hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``hand`` plus ``card``, kept in deck order."""
    at = bisect_left(hand, rules.order[card], key=rules.order.__getitem__)
    return (*hand[:at], card, *hand[at:])


def _without(hand: tuple[str, ...], cards: Any) -> tuple[str, ...]:
    return tuple([card for card in hand if card not in cards])


class _Turn:
    """The mutable scratch of one ``apply`` call; turned back into a frozen state at the end."""

    __slots__ = ("state", "rules", "hands", "pile", "laid", "turn", "over", "events")

    def __init__(self, state: KazokuState) -> None:
        self.state = state
        self.rules = rules_for(state.variant)
        self.hands = list(state.hands)
        self.pile = state.pile
        self.laid = list(state.laid)
        self.turn = state.turn
        self.over = False
        self.events: list[dict] = []

    def give(self, seat: int, card: str) -> None:
        self.hands[seat] = _with(self.rules, self.hands[seat], card)

    def draw(self, seat: int, reason: str) -> str:
        card, self.pile = self.pile[0], self.pile[1:]
        self.give(seat, card)
        self.events.append(
            {"type": "draw", "seat": seat, "card": card, "reason": reason, "private_to": seat}
        )
        self.events.append({"type": "draw", "seat": seat, "reason": reason, "except": seat})
        return card

    def lay_complete(self, seat: int, auto: bool) -> None:
        for family in complete_families(self.rules, self.hands[seat]):
            cards = self.rules.members[family]
            self.hands[seat] = _without(self.hands[seat], cards)
            self.laid[seat] = (*self.laid[seat], family)
            self.events.append(
                {
                    "type": "family_laid",
                    "seat": seat,
                    "family": family,
                    "cards": list(cards),
                    "auto": auto,
                }
            )

    def pile_ended(self) -> bool:
        return self.state.end == "pile_empty" and not self.pile

    def all_laid(self) -> bool:
        return sum(map(len, self.laid)) == self.rules.family_count

    def end_turn(self) -> None:
        """Lay what is complete, then end the game or hand the turn on."""
        self.lay_complete(self.turn, auto=True)
        if self.all_laid() or self.pile_ended():
            self.finish()
        else:
            self.start_turn((self.turn + 1) % self.state.players)

    def start_turn(self, seat: int) -> None:
        """Give the turn to ``seat`` or the next seat able to play (empty hands draw or skip)."""
        players = self.state.players
        for step in range(players):
            candidate = (seat + step) % players
            if self.hands[candidate]:
                self.turn = candidate
                self.events.append({"type": "turn", "seat": candidate})
                return
            if self.pile:
                self.turn = candidate
                self.events.append({"type": "turn", "seat": candidate})
                self.draw(candidate, reason="empty_hand")
                if self.pile_ended():
                    self.finish()
                return
            self.events.append({"type": "skip", "seat": candidate, "reason": "empty_hand"})
        self.finish()  # no cards anywhere: every family is laid

    def finish(self) -> None:
        for seat in range(self.state.players):
            self.lay_complete(seat, auto=True)
        self.over = True
        scores = [len(families) for families in self.laid]
        self.events.append(
            {
                "type": "game_over",
                "reason": "all_families" if self.all_laid() else "pile_empty",
                "scores": scores,
                "ranks": competition_ranks(scores),
            }
        )

    def frozen(self) -> KazokuState:
        state = self.state
        new = KazokuState._make(  # positional, in field order: the cheapest way to build it
            (
                state.players,
                state.seed,
                state.variant,
                state.end,
                state.lay,
                state.options,
                state.scripts,
                tuple(self.hands),
                self.pile,
                tuple(self.laid),
                self.turn,
                self.over,
                (*state.log, tuple(self.events)),
            )
        )
        memory = state.__dict__.get("_memory")
        if memory is not None:  # carried on: the next view reads only this turn's events
            new.__dict__["_memory"] = memory.advanced(new.log[-1])
        return new


# --- what a seat may know from the public log ----------------------------------------------

LOG_WINDOW = 40  # a view shows the latest events; ``known`` sums up the public memory of all


class PublicMemory:
    """The public memory of a log, as ``public_knowledge`` sums it up, kept so that it can be
    carried on from one state to the next by reading only the new events.

    A move builds about seven views (the CPU players' decisions, the learning hook's before
    and after, the board), and each summed up the whole log again. A state now keeps the
    memory of its log once a view has needed it (``_memory_of``), and ``apply`` hands the
    next state that memory advanced by the new events: one pass over the log per state read
    from the database instead of one per view. One code path (``advance``) reads events for
    both, so the carried memory is the from-scratch one (tests/engines/
    test_kazoku_families_memory.py checks views of carried and fresh states alike).

    Never changed once attached to a state (``advanced`` returns a new one): states share it.
    """

    __slots__ = ("holders", "refused", "draws", "asked", "public_shown", "private_shown")

    def __init__(self, players: int) -> None:
        self.holders: dict[str, int] = {}
        self.refused: list[dict[str, int]] = [{} for _ in range(players)]
        self.draws = [0] * players
        self.asked: list[dict[str, None]] = [{} for _ in range(players)]  # ordered sets
        self.public_shown: set[str] = set()  # cards named by public events
        self.private_shown: list[set[str]] = [set() for _ in range(players)]  # own draws

    def advanced(self, events: Any) -> PublicMemory:
        """A copy of this memory that has also read ``events``."""
        new = PublicMemory.__new__(PublicMemory)
        new.holders = self.holders.copy()
        new.refused = [refused.copy() for refused in self.refused]
        new.draws = self.draws.copy()
        new.asked = [asked.copy() for asked in self.asked]
        new.public_shown = self.public_shown.copy()
        new.private_shown = [shown.copy() for shown in self.private_shown]
        new.advance(events)
        return new

    def advance(self, events: Any) -> None:
        """Read ``events`` (in log order) into this memory."""
        holders, refused, draws, asked = self.holders, self.refused, self.draws, self.asked
        shown = self.public_shown
        for event in events:
            kind = event["type"]
            if kind == "draw":
                if "except" in event:
                    draws[event["seat"]] += 1
                else:
                    self.private_shown[event["private_to"]].add(event["card"])
            elif kind == "ask":
                asker, card = event["seat"], event["card"]
                refused[asker][card] = draws[asker]
                asked[asker][event["family"]] = None
                shown.add(card)
            elif kind == "given":
                giver, card = event["seat"], event["card"]
                holders[card] = event["to"]
                refused[giver][card] = draws[giver]
                refused[event["to"]].pop(card, None)
                shown.add(card)
            elif kind == "go_fish":
                refused[event["seat"]][event["card"]] = draws[event["seat"]]
                shown.add(event["card"])
            elif kind == "good_pick":
                card = event["card"]
                holders[card] = event["seat"]
                refused[event["seat"]].pop(card, None)
                shown.add(card)
            elif kind == "family_laid":
                for card in event["cards"]:
                    holders.pop(card, None)
                asked[event["seat"]].pop(event["family"], None)

    def knowledge(self, seat: int | None, *, shown: bool = True) -> tuple[dict, set[str]]:
        """``public_knowledge``'s answer for ``seat``, as fresh objects (``shown=False``: the
        cards shown are left out, an empty set)."""
        known = {
            "holders": self.holders.copy(),
            "refused": [refused.copy() for refused in self.refused],
            "draws": self.draws.copy(),
            "asked_families": [list(families) for families in self.asked],
        }
        if not shown:
            return known, set()
        cards = self.public_shown.copy()
        if seat is not None:
            cards |= self.private_shown[seat]
        return known, cards


def public_knowledge(
    log: tuple[tuple[dict, ...], ...], players: int, seat: int | None
) -> tuple[dict, set[str]]:
    """What every player knows from the public events so far, in one pass over the log.

    Returns ``known`` (JSON-safe, fresh) and the set of cards the log has shown to ``seat``:

    - ``holders``: card -> the seat publicly known to hold it (given to it, or its "Bonne
      pioche !"), until the card is given away or its family laid;
    - ``refused``: per seat, card -> how many cards that seat had drawn when it was last known
      not to hold the card (it asked for it, said "go fish" to it, or gave it away);
    - ``draws``: per seat, the cards drawn so far;
    - ``asked_families``: per seat, the families it asked for and has not laid (it holds at
      least one card of each).

    Every entry comes from public events only, so it is the same for every seat; a bot's
    memory is this summary (``bots_families``), not a re-reading of the log.
    """
    return _memory_of_log(log, players).knowledge(seat)


def _memory_of_log(log: tuple[tuple[dict, ...], ...], players: int) -> PublicMemory:
    memory = PublicMemory(players)
    for group in log:
        memory.advance(group)
    return memory


def _memory_of(state: KazokuState) -> PublicMemory:
    """The public memory of ``state``'s log: the one ``apply`` carried over, else read from
    the log once and kept on the state."""
    memory = state.__dict__.get("_memory")
    if memory is None:
        memory = _memory_of_log(state.log, state.players)
        state.__dict__["_memory"] = memory
    return memory


def recent_events(log: tuple[tuple[dict, ...], ...], seat: int | None) -> list[dict]:
    """The last ``LOG_WINDOW`` events ``seat`` may see, oldest first, as fresh copies."""
    return latest_events(reversed(log), seat, LOG_WINDOW, _fresh)


@lru_cache(maxsize=512)
def kana_of_cards(scripts: str) -> tuple[tuple[str, str, str], ...]:
    """``(card, glyph, script)`` of every card in deck order, for a game whose cards show the
    scripts ``scripts`` (``KazokuState.scripts``). Memoised: a pure function of a string
    fixed for a whole game, and every view lists up to 45 cards."""
    deck = load_deck()
    found = []
    for index, card in enumerate(deck.ids):
        script = SCRIPT_OF_LETTER[scripts[index]]
        found.append((card, deck.cards[card].glyph(script), script))
    return tuple(found)


# --- the engine -------------------------------------------------------------------------------


class KazokuFamilies(Engine):
    name = ENGINE_NAME
    title = gettext_noop("Kazoku: happy families")
    blurb = gettext_noop("Ask the others for the kana you miss and lay whole families.")
    DESCRIBED_OPTIONS = ("variant", "script")
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    OPTIONS = (
        Option(
            "variant",
            "choice",
            "themed",
            gettext_noop("Families"),
            help=gettext_noop("Which families the 45 cards form."),
            choices=VARIANTS,
            choice_labels=(
                gettext_noop("Themed families (9 x 5)"),
                gettext_noop("Kana rows (9 x 5)"),
                gettext_noop("Gojūon columns (5 families of 8 to 10)"),
            ),
        ),
        SCRIPT_OPTION,
        Option("hand_size", "int", 5, gettext_noop("Cards dealt to each player"), min=1, max=22),
        START_OPTION,
        FIRST_OPTION,
        Option(
            "end",
            "choice",
            "all_families",
            gettext_noop("End of the game"),
            choices=("all_families", "pile_empty"),
            choice_labels=(
                gettext_noop("When every family is laid (French rules)"),
                gettext_noop("When the pile is empty (English rules)"),
            ),
        ),
        Option(
            "lay",
            "choice",
            "choice",
            gettext_noop("Laying a complete family"),
            choices=("choice", "immediate"),
            choice_labels=(
                gettext_noop("When you choose during your turn (at the latest when it ends)"),
                gettext_noop("As soon as it is complete"),
            ),
        ),
    )

    # -- setting up --

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> KazokuState:
        players, checked, setup = self.check_new_game(players, seed, options)
        rng = random.Random(seed)
        deck = load_deck().ids
        rules = rules_for(checked["variant"])
        if setup is not None:
            stacked = validate_setup(setup, deck=deck, players=players)
            if stacked.table:
                raise ValueError("setup.table must be empty: Kazoku families has no table cards")
            hands, pile, first = stacked.hands, stacked.pile, stacked.first
            if checked["end"] == "pile_empty" and not pile:
                raise ValueError("with end=pile_empty the setup must leave a pile")
        else:
            hands, pile, first = self._deal(players, checked, rng)
        scripts = deal_scripts(checked["script"], rng)
        if setup is None and checked["start"] == "random":
            first = rng.randrange(players)
        turn = _Turn(
            KazokuState(
                players=players,
                seed=seed,
                variant=checked["variant"],
                end=checked["end"],
                lay=checked["lay"],
                options=tuple(sorted(checked.items())),
                scripts=scripts,
                hands=tuple(tuple(sorted(h, key=rules.order.__getitem__)) for h in hands),
                pile=tuple(pile),
                laid=((),) * players,
                turn=first,
                over=False,
                log=(),
            )
        )
        turn.start_turn(first)
        return turn.frozen()

    def _deal(
        self, players: int, options: Mapping[str, Any], rng: random.Random
    ) -> tuple[list[tuple[str, ...]], tuple[str, ...], int]:
        size = options["hand_size"]
        cards = list(load_deck().ids)
        if players * size > len(cards) or (
            options["end"] == "pile_empty" and players * size == len(cards)
        ):
            raise ValueError(
                f"{players} hands of {size} cards leave no pile: the deck has {len(cards)} cards"
            )
        if options["start"] == "youngest" and options["first"] >= players:
            raise ValueError(f"option 'first' must be a seat between 0 and {players - 1}")
        rng.shuffle(cards)
        hands = [tuple(cards[seat * size : (seat + 1) * size]) for seat in range(players)]
        return hands, tuple(cards[players * size :]), options["first"]

    # -- playing --

    def to_act(self, state: KazokuState) -> list[int]:
        return [] if state.over else [state.turn]

    def legal_actions(self, state: KazokuState, seat: int) -> list[dict]:
        if state.over or seat != state.turn:
            return []
        missing, complete = hand_summary(state.variant, state.hands[seat])
        templates = ask_templates(state.players, seat)
        asks = [ask.copy() for card in missing for ask in templates[card]]  # fresh dicts
        if not complete:
            return asks
        if state.lay == "immediate":
            return [{"type": "lay"}]
        return [{"type": "lay"}, *asks]

    def apply(self, state: KazokuState, seat: int, action: Any) -> tuple[KazokuState, list[dict]]:
        self._check_turn(state, seat, action)
        turn = _Turn(state)
        if action["type"] == "lay":
            self._check_lay(turn, seat, action)
            turn.lay_complete(seat, auto=False)
            turn.end_turn()
        else:
            self._check_ask(turn, seat, action)
            self._ask(turn, seat, action["target"], action["card"])
        new_state = turn.frozen()
        return new_state, list(map(_fresh, turn.events))

    def _ask(self, turn: _Turn, seat: int, target: int, card: str) -> None:
        family = turn.rules.family_of[card]
        turn.events.append(
            {"type": "ask", "seat": seat, "target": target, "card": card, "family": family}
        )
        if card in turn.hands[target]:
            given_from = turn.hands[target]
            at = given_from.index(card)
            turn.hands[target] = given_from[:at] + given_from[at + 1 :]
            turn.give(seat, card)
            turn.events.append({"type": "given", "seat": target, "to": seat, "card": card})
            self._after_gain(turn, seat, card)
            return
        turn.events.append({"type": "go_fish", "seat": target, "to": seat, "card": card})
        if not turn.pile:
            turn.events.append({"type": "pass", "seat": seat, "reason": "pile_empty"})
            turn.end_turn()
            return
        drawn = turn.draw(seat, reason="go_fish")
        if drawn != card:
            turn.end_turn()
        elif turn.pile_ended():
            turn.events.append({"type": "good_pick", "seat": seat, "card": card})
            turn.finish()
        else:
            turn.events.append({"type": "good_pick", "seat": seat, "card": card})
            self._after_gain(turn, seat, card)

    def _after_gain(self, turn: _Turn, seat: int, card: str) -> None:
        """With ``lay="immediate"``, completing a family lays it and ends the turn."""
        if turn.state.lay != "immediate":
            return
        family = turn.rules.family_of[card]
        if turn.rules.member_sets[family].issubset(turn.hands[seat]):
            turn.lay_complete(seat, auto=False)
            turn.end_turn()

    # -- validation (each refusal leaves the state untouched: nothing is built before) --

    def _check_turn(self, state: KazokuState, seat: Any, action: Any) -> None:
        if state.over:
            raise IllegalAction("The game is over.")
        if type(seat) is not int or not 0 <= seat < state.players:  # bool is not a seat
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if seat != state.turn:
            raise IllegalAction(f"It is not your turn: seat {state.turn} is playing.")
        if type(action) is not dict or action.get("type") not in ("ask", "lay"):
            raise IllegalAction("Unknown action: you may ask a player for a card, or lay.")

    def _check_lay(self, turn: _Turn, seat: int, action: Mapping) -> None:
        if action.keys() != {"type"}:
            raise IllegalAction("A lay action has no other field.")
        if not complete_families(turn.rules, turn.hands[seat]):
            raise IllegalAction("You hold no complete family to lay.")

    def _check_ask(self, turn: _Turn, seat: int, action: Mapping) -> None:
        state, rules = turn.state, turn.rules
        if action.keys() != ASK_KEYS:
            raise IllegalAction("An ask names exactly one target seat and one card.")
        target, card = action["target"], action["card"]
        if type(target) is not int:
            raise IllegalAction("Ask one opponent by seat number.")
        if not 0 <= target < state.players or target == seat:
            raise IllegalAction(f"Seat {target!r} is not one of your opponents.")
        if type(card) is not str or card not in rules.family_of:
            raise IllegalAction(f"There is no card {card!r} in the Kazoku deck.")
        hand = state.hands[seat]
        family = rules.family_of[card]
        if card in hand:
            raise IllegalAction(f"You already hold {card.upper()}: ask for a card you lack.")
        if rules.member_sets[family].isdisjoint(hand):
            raise IllegalAction(
                f"You may only ask for a card of a family you already hold: you hold no card "
                f"of the {family.upper()} family."
            )
        if state.lay == "immediate" and complete_families(rules, hand):
            raise IllegalAction("Lay your complete family first.")

    # -- what players see --

    def view(self, state: KazokuState, seat: int | None) -> dict:
        return self._view(state, seat, whole=True)

    def bot_view(self, state: KazokuState, seat: int) -> dict:
        """``view`` without ``kana`` and ``log``, which no Kazoku families bot reads (a move
        asks the CPU players for about five decisions; tests/engines/
        test_kazoku_families_memory.py checks that they choose alike on both)."""
        return self._view(state, seat, whole=False)

    def _view(self, state: KazokuState, seat: int | None, *, whole: bool) -> dict:
        if seat is not None and not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players
        ):
            raise ValueError(f"no seat {seat!r} at this table")
        rules = rules_for(state.variant)
        known, shown = _memory_of(state).knowledge(seat, shown=whole)
        hand = list(state.hands[seat]) if seat is not None else None
        laid = [
            [{"family": f, "cards": list(rules.members[f])} for f in families]
            for families in state.laid
        ]
        head = {
            "engine": ENGINE_NAME,
            "options": dict(state.options),
            "variant": state.variant,
            "players": state.players,
            "seat": seat,
            "hand": hand,
            "hand_sizes": [len(h) for h in state.hands],
            "pile_size": len(state.pile),
            "laid": laid,
            "scores": [len(families) for families in state.laid],
            "turn": None if state.over else state.turn,
            "to_act": self.to_act(state),
        }
        outcome = self.outcome(state) if state.over else None
        if not whole:
            return {**head, "known": known, "over": state.over, "outcome": outcome}
        shown.update(hand or ())
        for families in state.laid:
            shown.update(card for f in families for card in rules.members[f])
        for family in family_counts(rules, state.hands[seat]) if seat is not None else ():
            shown.update(rules.members[family])  # cards this seat may ask for
        return {
            **head,
            # every card shown, in deck order (the order of ``rules.order``)
            "kana": {
                card: {"glyph": glyph, "script": script}
                for card, glyph, script in kana_of_cards(state.scripts)
                if card in shown
            },
            "known": known,
            "log": recent_events(state.log, seat),
            "over": state.over,
            "outcome": outcome,
        }

    def is_over(self, state: KazokuState) -> bool:
        return state.over

    def outcome(self, state: KazokuState) -> dict:
        scores = [len(families) for families in state.laid]
        return {
            "scores": scores,
            "ranks": competition_ranks(scores),
            "families": [list(families) for families in state.laid],
            "over": state.over,
        }

    # -- persistence --

    def to_json(self, state: KazokuState) -> dict:
        return {
            "engine": ENGINE_NAME,
            "players": state.players,
            "seed": state.seed,
            "options": dict(state.options),
            "scripts": state.scripts,
            "hands": [list(hand) for hand in state.hands],
            "pile": list(state.pile),
            "laid": [list(families) for families in state.laid],
            "turn": state.turn,
            "over": state.over,
            "log": [list(map(dict, events)) for events in state.log],
        }

    def from_json(self, data: Mapping[str, Any]) -> KazokuState:
        options = dict(data["options"])
        return KazokuState(
            players=data["players"],
            seed=data["seed"],
            variant=options["variant"],
            end=options["end"],
            lay=options["lay"],
            options=tuple(sorted(options.items())),
            scripts=data["scripts"],
            hands=tuple(tuple(hand) for hand in data["hands"]),
            pile=tuple(data["pile"]),
            laid=tuple(tuple(families) for families in data["laid"]),
            turn=data["turn"],
            over=data["over"],
            log=tuple([tuple(map(dict, events)) for events in data["log"]]),
        )

    # -- players and learning hooks --

    def bot(self, level: str) -> Bot:
        return make_bot(self.check_bot_level(level))

    def kana_on(self, card_id: str, options: Mapping[str, Any] | None = None) -> list[str]:
        if card_id not in load_deck().cards:
            raise ValueError(f"there is no card {card_id!r} in the Kazoku deck")
        return [card_id]

    def kana_named(self, action: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        """Asking for a card names its kana."""
        if action.get("type") == "ask" and action.get("card") in load_deck().cards:
            return [action["card"]]
        return []

    def cards_shown(self, view: Mapping[str, Any]) -> dict[str, str]:
        """The view lists every card it shows in ``view["kana"]``, with its script."""
        return {card: info["script"] for card, info in view["kana"].items()}

    def practice_presets(self) -> list[dict[str, Any]]:
        """Families by kana row and by gojūon column, in each script and mixed (the themed
        families group kana without structure: playable, not worth recommending)."""
        return [
            {"variant": variant, "script": script}
            for variant in ("kana", "gojuon")
            for script in ("hiragana", "katakana", "mixed")
        ]

    def practice(self, options: Mapping[str, Any]) -> frozenset[str]:
        """Every card is read, and its kana id is its card id."""
        return frozenset(load_deck().ids)

    def practice_groups(self, options: Mapping[str, Any]) -> dict[str, frozenset[str]]:
        """The families of the variant: a player collects them, asking for their members."""
        variant = self.validate_options(options)["variant"]
        return {
            family.id.upper(): frozenset(family.cards) for family in load_deck().families[variant]
        }

    def practice_group_label(self, options: Mapping[str, Any], group: str, language: str) -> str:
        """A group of ``practice_groups`` as a reader of ``language`` names it (さ行,
        YA·YU·YO·WA·N: ``deck.family_name``)."""
        variant = self.validate_options(options)["variant"]
        return family_name(variant, group.lower(), language)

    # -- conformance hooks --

    def deck(self, state: KazokuState) -> list[str]:
        return list(load_deck().ids)

    def cards_in_play(self, state: KazokuState) -> list[str]:
        rules = rules_for(state.variant)
        laid = [card for families in state.laid for f in families for card in rules.members[f]]
        return [card for hand in state.hands for card in hand] + list(state.pile) + laid

    def shuffle_hidden(
        self, state: KazokuState, seat: int | None, rng: random.Random
    ) -> KazokuState:
        """Permute, among the other hands and the pile, the cards ``seat`` has never seen named.

        Zone sizes are kept. Such cards' whereabouts are unknown to ``seat``, so its view must
        not change.
        """
        seen = visible_events(chain.from_iterable(state.log), seat)
        named = {event["card"] for event in seen if "card" in event}
        rules = rules_for(state.variant)
        zones = [list(h) for h in state.hands] + [list(state.pile)]
        slots = [
            (zone, index)
            for zone, cards in enumerate(zones)
            if zone != seat
            for index, card in enumerate(cards)
            if card not in named
        ]
        cards = [zones[zone][index] for zone, index in slots]
        rng.shuffle(cards)
        for (zone, index), card in zip(slots, cards, strict=True):
            zones[zone][index] = card
        hands = tuple(tuple(sorted(h, key=rules.order.__getitem__)) for h in zones[:-1])
        return state._replace(hands=hands, pile=tuple(zones[-1]))


ENGINE = KazokuFamilies()
