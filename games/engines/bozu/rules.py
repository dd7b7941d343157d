"""Bōzu Mekuri (engine ``bozu``): turn over poet cards, keep nobles, lose your hand to monks.

Rules (``shared/rules/bozu-mekuri.fr.txt``; interpretation notes in ``docs/rules/bozu.md``):

- The 100 poet cards (``data``: ids ``"p001"``..``"p100"``) form a face-down pile. 2-6
  players; the first player is drawn at random (``setup.first`` in a stacked deal).
- In turn, reveal the top card of the pile (action ``draw``). What it does depends on the
  settings (``effects``): a noble stays before you; a monk sends your hand and the monk to the
  common pile; a lady takes her card and the whole common pile; emperors and Semimaru follow
  their settings.
- An extra draw (an emperor under ``draw_again``, a lady under ``take_pile_draw`` or
  ``draw_if_empty`` with an empty common pile): with ``allow_stop`` the player chooses
  ``draw`` or ``stop``; without it ``draw`` is the only action. The extra card is resolved
  like any other (an emperor then a monk: the whole hand, emperor included, goes).
- An eliminated player (Semimaru, default) plays no more; a skipped player (Semimaru
  ``skip``) misses their next turn.
- The game ends when the pile is empty (after the last card is resolved) or when one player
  alone is not eliminated. Score = cards in hand; eliminated players score -1 so they rank
  last; equal scores share a rank; several first places are a draw. The common pile goes to
  nobody.

Actions: ``{"type": "draw"}``, ``{"type": "stop"}``. States are frozen named tuples; the log is
a linked list ``(events, previous)`` so that an apply never copies it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines.base import (
    Bot,
    CardQuestion,
    Engine,
    IllegalAction,
    Option,
    competition_ranks,
    gettext_noop,
    validate_setup,
)
from games.engines.bozu.bots import make_bot
from games.engines.bozu.data import SEMIMARU, load_poets
from games.engines.bozu.decisive import PROMPT_AFTER_SEEN, question
from games.engines.bozu.effects import (
    EMPEROR_RULES,
    LADY_RULES,
    SEMIMARU_RULES,
    Rules,
    effect_table,
)
from games.engines.bozu.index import DRAW, quick_reveal
from games.engines.bozu.state import (
    EXTRA,
    OVER,
    REVEAL,
    BozuState,
    log_from,
    log_groups,
    newest_first,
    scores_of,
)

ENGINE_NAME = "bozu"
WARNING_PILE = 15  # "Semimaru is still in the pile" once this many cards or fewer remain
LOG_WINDOW = 40
_ACTION_KEYS = frozenset({"type"})


class _Turn:
    """The mutable scratch of one ``apply``; frozen back into a state at the end."""

    __slots__ = ("state", "hands", "pile", "common", "turn", "phase", "out", "skips", "events")

    def __init__(self, state: BozuState) -> None:
        self.state = state
        self.hands = list(state.hands)
        self.pile = state.pile
        self.common = state.common
        self.turn = state.turn
        self.phase = state.phase
        self.out = state.out
        self.skips = state.skips
        self.events: list[dict] = []

    # -- the card effects (one method per effect name of ``effects``) --

    def reveal(self, seat: int) -> None:
        card, self.pile = self.pile[0], self.pile[1:]
        effect = self.state.effects[card]
        event = {"type": "reveal", "seat": seat, "card": card, "effect": effect}
        self.events.append(event)
        extra = getattr(self, "_" + effect)(seat, card, event)
        self.after_reveal(seat, extra)

    def _noble(self, seat: int, card: str, event: dict) -> bool:
        self.hands[seat] += (card,)
        return False

    def _monk(self, seat: int, card: str, event: dict) -> bool:
        event["lost"] = len(self.hands[seat]) + 1
        self.common += (*self.hands[seat], card)
        self.hands[seat] = ()
        return False

    def _lady(self, seat: int, card: str, event: dict) -> bool:
        was_empty = not self.common
        self._take_common(seat, card, event)
        rule = self.state.rules.lady
        return rule == "take_pile_draw" or (rule == "draw_if_empty" and was_empty)

    def _take_common(self, seat: int, card: str, event: dict) -> None:
        event["taken"] = len(self.common)
        self.hands[seat] += (card, *self.common)
        self.common = ()

    def _emperor(self, seat: int, card: str, event: dict) -> bool:
        self.hands[seat] += (card,)
        return True

    def _empress(self, seat: int, card: str, event: dict) -> bool:
        self._take_common(seat, card, event)
        return True

    def _take_hands(self, seat: int, card: str, event: dict) -> bool:
        if load_poets().cards[card].category == "lady":
            self._take_common(seat, card, event)
        else:
            self.hands[seat] += (card,)
        taken = [other for other in range(self.state.players) if other != seat]
        event["from_hands"] = sum(len(self.hands[other]) for other in taken)
        for other in taken:
            self.hands[seat] += self.hands[other]
            self.hands[other] = ()
        return False

    def _eliminate(self, seat: int, card: str, event: dict) -> bool:
        self._monk(seat, card, event)
        self.out = (*self.out[:seat], True, *self.out[seat + 1 :])
        return False

    def _skip(self, seat: int, card: str, event: dict) -> bool:
        self.hands[seat] += (card,)
        self.skips = (*self.skips[:seat], True, *self.skips[seat + 1 :])
        return False

    def _all_hands(self, seat: int, card: str, event: dict) -> bool:
        event["lost"] = sum(map(len, self.hands)) + 1
        for other in range(self.state.players):
            self.common += self.hands[other]
            self.hands[other] = ()
        self.common += (card,)
        return False

    # -- the flow of turns --

    def after_reveal(self, seat: int, extra: bool) -> None:
        if self.out.count(False) <= 1:
            self.finish("last_standing")
        elif not self.pile:
            self.finish("pile_empty")
        elif extra:
            self.phase = EXTRA
            self.events.append({"type": "extra_draw", "seat": seat})
        else:
            self.next_turn(seat)

    def next_turn(self, seat: int) -> None:
        players = self.state.players
        candidate = seat
        while True:  # ends: at least two players are in and a skip is used once
            candidate = (candidate + 1) % players
            if self.out[candidate]:
                continue
            if self.skips[candidate]:
                skips = self.skips
                self.skips = (*skips[:candidate], False, *skips[candidate + 1 :])
                self.events.append({"type": "skipped", "seat": candidate})
                continue
            break
        self.turn, self.phase = candidate, REVEAL

    def finish(self, reason: str) -> None:
        self.phase = OVER
        scores = scores_of(tuple(self.hands), self.out)
        self.events.append(
            {
                "type": "game_over",
                "reason": reason,
                "scores": scores,
                "ranks": competition_ranks(scores),
                "common_left": len(self.common),
            }
        )

    def frozen(self) -> BozuState:
        s = self.state
        return BozuState._make(
            (
                s.players,
                s.seed,
                s.options,
                s.rules,
                tuple(self.hands),
                self.pile,
                self.common,
                self.turn,
                self.phase,
                self.out,
                self.skips,
                (tuple(self.events), s.log),
                s.effects,
            )
        )


def _fresh(event: dict) -> dict:
    if event["type"] == "game_over":
        return {k: list(v) if type(v) is list else v for k, v in event.items()}
    return event.copy()


def recent_events(log: tuple, limit: int = LOG_WINDOW) -> list[dict]:
    """The last ``limit`` events (all public), oldest first, as fresh copies."""
    recent: list[dict] = []
    for group in newest_first(log):
        for event in reversed(group):
            recent.append(_fresh(event))
            if len(recent) == limit:
                return recent[::-1]
    return recent[::-1]


class Bozu(Engine):
    name = ENGINE_NAME
    title = gettext_noop("Bōzu Mekuri")
    blurb = gettext_noop(
        "Turn over the 100 poets of the Hyakunin Isshu: keep the nobles, lose your hand to the "
        "monks, take the pile with the ladies. Read each poet's name in kana."
    )
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    CARD_QUESTIONS_HELP = gettext_noop(
        "Once you have seen a poem three times, say which kana begins its second half, as "
        "karuta players learn to find its card."
    )
    OPTIONS = (
        Option(
            "semimaru",
            "choice",
            "eliminate",
            gettext_noop("Semimaru"),
            help=gettext_noop("What the hooded poet does when you turn him over."),
            choices=SEMIMARU_RULES,
            choice_labels=(
                gettext_noop("Immediate elimination: your hand and his card to the common pile"),
                gettext_noop("Skip your next turn (you keep his card)"),
                gettext_noop("Like a monk"),
                gettext_noop("Like a noble"),
                gettext_noop("Every hand to the common pile, yours included"),
            ),
        ),
        Option(
            "emperor",
            "choice",
            "draw_again",
            gettext_noop("Emperors"),
            help=gettext_noop("The 8 emperor cards; Jitō is also a lady."),
            choices=EMPEROR_RULES,
            choice_labels=(
                gettext_noop("Keep it and draw one more"),
                gettext_noop("Take every player's hand"),
                gettext_noop("An ordinary card (noble, or lady for Jitō)"),
            ),
        ),
        Option(
            "lady",
            "choice",
            "take_pile",
            gettext_noop("Ladies"),
            choices=LADY_RULES,
            choice_labels=(
                gettext_noop("Take the common pile"),
                gettext_noop("Take the common pile and draw one more"),
                gettext_noop("Draw one more only when the common pile was empty"),
            ),
        ),
        Option(
            "allow_stop",
            "bool",
            True,
            gettext_noop("Allow stopping"),
            help=gettext_noop(
                "When an emperor or a lady gives an extra draw, choose to draw or stop. "
                "Off makes the draw compulsory."
            ),
        ),
        Option(
            "nyudo_monks",
            "bool",
            False,
            gettext_noop("The two nyūdō poets count as monks"),
        ),
        Option(
            "spelling",
            "choice",
            "modern",
            gettext_noop("Poems in kana"),
            choices=("modern", "historical"),
            choice_labels=(
                gettext_noop("Modern reading"),
                gettext_noop("Historical spelling (as printed on the cards)"),
            ),
        ),
    )

    # -- setting up --

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BozuState:
        players = self.check_players(players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer; got {seed!r}")
        checked = self.validate_options(options)
        setup = checked.pop("setup", None)
        rng = random.Random(seed)
        deck = load_poets().ids
        if setup is not None:
            stacked = validate_setup(setup, deck=deck, players=players)
            if not stacked.pile:
                raise ValueError("setup.pile must hold at least one card to reveal")
            hands, pile, common, first = stacked.hands, stacked.pile, stacked.table, stacked.first
        else:
            shuffled = list(deck)
            rng.shuffle(shuffled)
            hands, pile, common = ((),) * players, tuple(shuffled), ()
            first = rng.randrange(players)
        rules = Rules(
            semimaru=checked["semimaru"],
            emperor=checked["emperor"],
            lady=checked["lady"],
            allow_stop=checked["allow_stop"],
            nyudo_monks=checked["nyudo_monks"],
        )
        return BozuState(
            players=players,
            seed=seed,
            options=tuple(sorted(checked.items())),
            rules=rules,
            hands=tuple(tuple(hand) for hand in hands),
            pile=tuple(pile),
            common=tuple(common),
            turn=first,
            phase=REVEAL,
            out=(False,) * players,
            skips=(False,) * players,
            log=(({"type": "start", "first": first, "pile_size": len(pile)},), ()),
            effects=effect_table(rules),
        )

    # -- playing --

    def to_act(self, state: BozuState) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def legal_actions(self, state: BozuState, seat: int) -> list[dict]:
        if seat != state.turn:
            return []
        phase = state.phase
        if phase == REVEAL:
            return [{"type": "draw"}]
        if phase == EXTRA:
            if state.rules.allow_stop:
                return [{"type": "draw"}, {"type": "stop"}]
            return [{"type": "draw"}]
        return []

    def apply(self, state: BozuState, seat: int, action: Any) -> tuple[BozuState, list[dict]]:
        if (
            type(action) is dict
            and action == DRAW
            and type(seat) is int
            and seat == state.turn
            and state.phase == REVEAL
        ):
            quick = quick_reveal(state, seat)
            if quick is not None:
                return quick
        kind = self._check(state, seat, action)
        turn = _Turn(state)
        if kind == "draw":
            turn.reveal(seat)
        else:
            turn.events.append({"type": "stop", "seat": seat})
            turn.next_turn(seat)
        return turn.frozen(), list(map(_fresh, turn.events))

    def _check(self, state: BozuState, seat: Any, action: Any) -> str:
        """The action's type if ``seat`` may play it now; ``IllegalAction`` otherwise."""
        if state.phase == OVER:
            raise IllegalAction("The game is over.")
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        if seat != state.turn:
            raise IllegalAction(f"It is not your turn: seat {state.turn} is playing.")
        if type(action) is not dict or action.keys() != _ACTION_KEYS:
            raise IllegalAction("Unknown action: you may draw a card, or stop after an extra draw.")
        kind = action["type"]
        if kind == "draw":
            return kind
        if kind == "stop":
            if state.phase != EXTRA:
                raise IllegalAction("You may only stop when an extra draw is offered.")
            if not state.rules.allow_stop:
                raise IllegalAction("Stopping is not allowed at this table: draw again.")
            return kind
        raise IllegalAction("Unknown action: you may draw a card, or stop after an extra draw.")

    # -- what players see (everything but the order of the pile) --

    def view(self, state: BozuState, seat: int | None) -> dict:
        if seat is not None and not (
            type(seat) is int and 0 <= seat < state.players  # bool is not a seat
        ):
            raise ValueError(f"no seat {seat!r} at this table")
        shown = [card for hand in state.hands for card in hand] + list(state.common)
        table = state.effects
        unseen: dict[str, int] = {}
        for card in state.pile:  # the composition only: public, since every other card is
            unseen[table[card]] = unseen.get(table[card], 0) + 1
        semimaru_unseen = SEMIMARU in state.pile
        over = state.phase == OVER
        return {
            "engine": ENGINE_NAME,
            "options": dict(state.options),
            "players": state.players,
            "seat": seat,
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hands": [list(hand) for hand in state.hands],
            "hand_sizes": [len(hand) for hand in state.hands],
            "common": list(state.common),
            "pile_size": len(state.pile),
            "unseen_effects": dict(sorted(unseen.items())),
            "semimaru_unseen": semimaru_unseen,
            "semimaru_warning": semimaru_unseen and len(state.pile) <= WARNING_PILE,
            "eliminated": list(state.out),
            "skips": list(state.skips),
            "turn": None if over else state.turn,
            "phase": state.phase,
            "to_act": self.to_act(state),
            "kana": {card: {"script": "hiragana"} for card in shown},
            "log": recent_events(state.log),
            "over": over,
            "outcome": self.outcome(state) if over else None,
        }

    def is_over(self, state: BozuState) -> bool:
        return state.phase == OVER

    def outcome(self, state: BozuState) -> dict:
        scores = scores_of(state.hands, state.out)
        ranks = competition_ranks(scores)
        return {
            "scores": scores,
            "ranks": ranks,
            "cards": [len(hand) for hand in state.hands],
            "eliminated": list(state.out),
            "draw": ranks.count(1) > 1,
            "common_left": len(state.common),
            "over": state.phase == OVER,
        }

    # -- persistence --

    def to_json(self, state: BozuState) -> dict:
        return {
            "engine": ENGINE_NAME,
            "players": state.players,
            "seed": state.seed,
            "options": dict(state.options),
            "hands": [list(hand) for hand in state.hands],
            "pile": list(state.pile),
            "common": list(state.common),
            "turn": state.turn,
            "phase": state.phase,
            "eliminated": list(state.out),
            "skips": list(state.skips),
            "log": [[dict(event) for event in group] for group in log_groups(state.log)],
        }

    def from_json(self, data: Mapping[str, Any]) -> BozuState:
        options = dict(data["options"])
        rules = Rules(
            semimaru=options["semimaru"],
            emperor=options["emperor"],
            lady=options["lady"],
            allow_stop=options["allow_stop"],
            nyudo_monks=options["nyudo_monks"],
        )
        return BozuState(
            players=data["players"],
            seed=data["seed"],
            options=tuple(sorted(options.items())),
            rules=rules,
            hands=tuple(tuple(hand) for hand in data["hands"]),
            pile=tuple(data["pile"]),
            common=tuple(data["common"]),
            turn=data["turn"],
            phase=data["phase"],
            out=tuple(data["eliminated"]),
            skips=tuple(data["skips"]),
            log=log_from(data["log"]),
            effects=effect_table(rules),
        )

    # -- players and learning hooks --

    def bot(self, level: str) -> Bot:
        return make_bot(self.check_bot_level(level))

    def kana_on(self, card_id: str, options: Mapping[str, Any] | None = None) -> list[str]:
        """The kana of the poet's name printed on the card, each once, in reading order."""
        poet = load_poets().cards.get(card_id)
        if poet is None:
            raise ValueError(f"there is no card {card_id!r} among the 100 poets")
        return list(poet.name_kana_ids)

    def cards_shown(self, view: Mapping[str, Any]) -> dict[str, str]:
        """Every card face up in the view (hands and common pile): all drawn in hiragana."""
        return {card: "hiragana" for card in view.get("kana") or {}}

    def card_question(self, card_id: str, options: Mapping[str, Any]) -> CardQuestion:
        """The karuta question (``decisive``): the poem's first half in the table's spelling;
        which kana begins the second half? Asked once a learner has seen the card
        ``PROMPT_AFTER_SEEN`` times."""
        spelling = (options or {}).get("spelling", "modern")
        asked = question(card_id, spelling)
        poet = load_poets().cards[card_id]
        return CardQuestion(
            card=card_id,
            ask=gettext_noop("Which kana begins the second half of this poem?"),
            clue=asked.first_half,
            answer=asked.answer,
            choices=asked.choices,
            script="hiragana",
            solution=poet.lower_kana if spelling == "historical" else poet.lower_yomi,
            after_seen=PROMPT_AFTER_SEEN,
        )

    def practice_presets(self) -> list[dict]:
        return [{}, {"spelling": "historical"}]

    def practice(self, options: Mapping[str, Any] | None = None) -> frozenset[str]:
        """The kana of the poet names in play: every game turns over all 100 cards."""
        self.validate_options(options)
        return frozenset(
            kana for poet in load_poets().cards.values() for kana in poet.name_kana_ids
        )

    # -- conformance hooks --

    def deck(self, state: BozuState) -> list[str]:
        return list(load_poets().ids)

    def cards_in_play(self, state: BozuState) -> list[str]:
        return [c for hand in state.hands for c in hand] + list(state.pile) + list(state.common)

    def shuffle_hidden(self, state: BozuState, seat: int | None, rng: random.Random) -> BozuState:
        """The pile in another order: nobody may see it, so no view may change."""
        pile = list(state.pile)
        rng.shuffle(pile)
        return state._replace(pile=tuple(pile))


ENGINE = Bozu()
