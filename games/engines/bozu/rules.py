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

Actions: ``{"type": "draw"}``, ``{"type": "stop"}``. The state (``state.py``) is immutable;
each revealed card is one small new state: the pile is never copied, hands are ropes
(``index.py``) and the log is kept once, not copied from state to state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from games.engines.base import (
    Bot,
    CardQuestion,
    Engine,
    IllegalAction,
    Option,
    competition_ranks,
    gettext_noop,
    latest_events,
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
from games.engines.bozu.index import EMPTY, Rope, join, put, shuffle
from games.engines.bozu.state import (
    EXTRA,
    OUT,
    OVER,
    PLAYS,
    REVEAL,
    SKIPS,
    BozuState,
    Deal,
    Group,
    added_log,
    log_groups,
    scores_of,
    standing_of,
    zone_cards,
    zones_of,
)

_blank = object.__new__
ENGINE_NAME = "bozu"
WARNING_PILE = 15  # "Semimaru is still in the pile" once this many cards or fewer remain
LOG_WINDOW = 40
DRAW, STOP = {"type": "draw"}, {"type": "stop"}  # the two actions (compared, never returned)

# What a card leaves its player to do: the turn passes, draw again (or stop), or the turn
# passes and the player is eliminated / skips their next turn.
PASS, AGAIN, ELIMINATED, SKIPPED = "pass", "again", "eliminated", "skipped"

# -- the cards: one function per effect (``effects``) --
# Each takes the zones (every seat's cards, then the common pile: ropes, in a list that it
# changes), the seat revealing, the card, and the ``reveal`` event (to complete); it returns
# what the player does next.

Zones = list[Rope]


def noble(zones: Zones, seat: int, card: str, event: dict) -> str:
    """A noble stays before you."""
    held = zones[seat]
    zones[seat] = (held[0] + 1, held, card)  # index.put, inlined: two cards in three are nobles
    return PASS


def monk(zones: Zones, seat: int, card: str, event: dict) -> str:
    """A monk sends your hand and himself to the common pile."""
    event["lost"] = zones[seat][0] + 1
    zones[-1] = put(join(zones[-1], zones[seat]), card)
    zones[seat] = EMPTY
    return PASS


def take_common(zones: Zones, seat: int, card: str, event: dict) -> None:
    """Keep the card, and take the whole common pile."""
    event["taken"] = zones[-1][0]
    zones[seat] = join(put(zones[seat], card), zones[-1])
    zones[-1] = EMPTY


def lady(zones: Zones, seat: int, card: str, event: dict) -> str:
    """A lady takes her card and the common pile (``lady="take_pile"``)."""
    take_common(zones, seat, card, event)
    return PASS


def lady_then_draw(zones: Zones, seat: int, card: str, event: dict) -> str:
    """``lady="take_pile_draw"``: and draw one more."""
    take_common(zones, seat, card, event)
    return AGAIN


def lady_draw_if_empty(zones: Zones, seat: int, card: str, event: dict) -> str:
    """``lady="draw_if_empty"``: and draw one more if the common pile was empty."""
    was_empty = not zones[-1][0]
    take_common(zones, seat, card, event)
    return AGAIN if was_empty else PASS


def emperor(zones: Zones, seat: int, card: str, event: dict) -> str:
    """``emperor="draw_again"``: keep him and draw one more."""
    zones[seat] = put(zones[seat], card)
    return AGAIN


def empress(zones: Zones, seat: int, card: str, event: dict) -> str:
    """Jitō under ``draw_again``: a lady too, so take the common pile, then draw one more."""
    take_common(zones, seat, card, event)
    return AGAIN


def take_hands(zones: Zones, seat: int, card: str, event: dict) -> str:
    """``emperor="take_hands"``: keep the card (Jitō, a lady, takes the common pile too) and
    take every other player's hand."""
    if load_poets().cards[card].category == "lady":
        take_common(zones, seat, card, event)
    else:
        zones[seat] = put(zones[seat], card)
    others = [other for other in range(len(zones) - 1) if other != seat]
    event["from_hands"] = sum(zones[other][0] for other in others)
    for other in others:
        zones[seat] = join(zones[seat], zones[other])
        zones[other] = EMPTY
    return PASS


def eliminate(zones: Zones, seat: int, card: str, event: dict) -> str:
    """Semimaru (default): your hand and his card to the common pile; you play no more."""
    monk(zones, seat, card, event)
    return ELIMINATED


def skip(zones: Zones, seat: int, card: str, event: dict) -> str:
    """Semimaru ``skip``: you keep his card and miss your next turn."""
    zones[seat] = put(zones[seat], card)
    return SKIPPED


def all_hands(zones: Zones, seat: int, card: str, event: dict) -> str:
    """Semimaru ``all_hands``: every hand, yours included, then his card, to the common pile."""
    event["lost"] = sum(held[0] for held in zones[:-1]) + 1
    common = zones[-1]
    for other in range(len(zones) - 1):
        common = join(common, zones[other])
        zones[other] = EMPTY
    zones[-1] = put(common, card)
    return PASS


LADIES = {"take_pile": lady, "take_pile_draw": lady_then_draw, "draw_if_empty": lady_draw_if_empty}
EFFECTS: dict[str, Callable[[Zones, int, str, dict], str]] = {
    "noble": noble,
    "monk": monk,
    "emperor": emperor,
    "empress": empress,
    "take_hands": take_hands,
    "eliminate": eliminate,
    "skip": skip,
    "all_hands": all_hands,
}


@lru_cache(maxsize=64)
def resolvers(rules: Rules) -> MappingProxyType:
    """Card id -> (its effect name under ``rules``, the function above that resolves it)."""
    by_effect = {**EFFECTS, "lady": LADIES[rules.lady]}
    return MappingProxyType(
        {card: (effect, by_effect[effect]) for card, effect in effect_table(rules).items()}
    )


# -- the flow of turns --


def play(state: BozuState, seat: int, kind: str) -> tuple[BozuState, list[dict]]:
    """The new state and the events of ``seat`` playing ``kind`` (``"draw"`` or ``"stop"``),
    a move already checked legal."""
    return reveal(state, seat) if kind == "draw" else stop(state, seat)


def reveal(state: BozuState, seat: int) -> tuple[BozuState, list[dict]]:
    """``seat`` turns over the top card of the pile."""
    deal = state.deal
    card = deal.pile[state.drawn]
    effect, resolve = deal.cards[card]
    event = {"type": "reveal", "seat": seat, "card": card, "effect": effect}
    zones = list(state.zones)
    then = resolve(zones, seat, card, event)
    drawn = state.drawn + 1
    events = [event]
    if then == PASS and drawn < len(deal.pile):  # most cards: the turn passes
        turn, standing = deal.after[seat], state.standing
        if standing[turn] != PLAYS:
            turn, standing = next_turn(deal, standing, seat, events)
        new = _blank(BozuState)  # BozuState(...) without its __init__ call: most cards come
        new.deal = deal  # here, and a call is a tenth of an apply (docs/bench.md)
        new.drawn = drawn
        new.turn = turn
        new.phase = REVEAL
        new.zones = tuple(zones)
        new.standing = standing
        new.previous = state
        new._log = None
        return new, events
    standing, turn, phase = state.standing, seat, REVEAL
    if then == ELIMINATED or then == SKIPPED:
        standing = _with(standing, seat, OUT if then == ELIMINATED else SKIPS)
    if then == ELIMINATED and standing.count(OUT) == deal.players - 1:
        phase = finish(zones, standing, "last_standing", events)
    elif drawn == len(deal.pile):
        phase = finish(zones, standing, "pile_empty", events)
    elif then == AGAIN:
        phase = EXTRA
        events.append({"type": "extra_draw", "seat": seat})
    else:
        turn, standing = next_turn(deal, standing, seat, events)
    return BozuState(deal, drawn, turn, phase, tuple(zones), standing, state), events


def stop(state: BozuState, seat: int) -> tuple[BozuState, list[dict]]:
    """``seat`` declines an extra draw: the turn passes."""
    events = [{"type": "stop", "seat": seat}]
    turn, standing = next_turn(state.deal, state.standing, seat, events)
    new = BozuState(state.deal, state.drawn, turn, REVEAL, state.zones, standing, state)
    return new, events


def next_turn(
    deal: Deal, standing: tuple[int, ...], seat: int, events: list[dict]
) -> tuple[int, tuple[int, ...]]:
    """The seat after ``seat`` that plays (eliminated seats are passed over, a skipping seat
    is passed over once), and the standing once those skips are used."""
    following = deal.after[seat]
    while standing[following] != PLAYS:  # ends: two seats at least are still in
        if standing[following] == SKIPS:
            standing = _with(standing, following, PLAYS)
            events.append({"type": "skipped", "seat": following})
        following = deal.after[following]
    return following, standing


def finish(zones: Zones, standing: tuple[int, ...], reason: str, events: list[dict]) -> str:
    scores = scores_of(zones[:-1], standing)
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "scores": scores,
            "ranks": competition_ranks(scores),
            "common_left": zones[-1][0],
        }
    )
    return OVER


def _with(standing: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*standing[:seat], value, *standing[seat + 1 :])


def refusal(state: BozuState, seat: Any, action: Any) -> str:
    """Why ``seat`` may not play ``action`` now (``apply`` asks only for refused moves)."""
    if state.phase == OVER:
        return "The game is over."
    if type(seat) is not int or not 0 <= seat < state.players:
        return f"There is no seat {seat!r} at this table."
    if seat != state.turn:
        return f"It is not your turn: seat {state.turn} is playing."
    if type(action) is dict and action == STOP:
        if state.phase != EXTRA:
            return "You may only stop when an extra draw is offered."
        return "Stopping is not allowed at this table: draw again."
    return "Unknown action: you may draw a card, or stop after an extra draw."


def make_deal(players: int, seed: int, options: Mapping[str, Any], pile: Any) -> Deal:
    """The fixed part of a game: ``options`` validated (``setup`` left out)."""
    settings = _settings(players, tuple(sorted(options.items())))
    return Deal(players, seed, *settings, tuple(pile), play)


@lru_cache(maxsize=256)
def _settings(players: int, options: tuple) -> tuple:
    rules = Rules(**{name: value for name, value in options if name in Rules._fields})
    return options, rules, resolvers(rules), tuple((seat + 1) % players for seat in range(players))


# -- the log --


def _fresh(event: dict) -> dict:
    """A copy of ``event`` sharing nothing mutable with it (``game_over`` holds lists)."""
    if event["type"] == "game_over":
        return {k: list(v) if type(v) is list else v for k, v in event.items()}
    return event.copy()


def fresh_log(groups: Iterable[Iterable[dict]]) -> list[list[dict]]:
    """Copies of the events of ``groups`` (see ``_fresh``)."""
    return [
        [event.copy() if event["type"] != "game_over" else _fresh(event) for event in group]
        for group in groups
    ]


def recent_events(state: BozuState, limit: int = LOG_WINDOW) -> list[dict]:
    """The last ``limit`` events (all public), oldest first, as fresh copies."""
    return latest_events(_groups_newest_first(state), None, limit, _fresh)


def _groups_newest_first(state: BozuState) -> Iterator[Group]:
    """The log's event groups from the last move back, read along the ``previous`` chain."""
    past: BozuState | None = state
    while past is not None:
        log = past._log if past._log is not None else added_log(past)
        yield from reversed(log)
        past = past.previous


class Bozu(Engine):
    name = ENGINE_NAME
    title = gettext_noop("Bōzu Mekuri")
    blurb = gettext_noop(
        "Turn over the 100 poets of the Hyakunin Isshu: keep the nobles, lose your hand to the "
        "monks, take the pile with the ladies. Read each poet's name in kana."
    )
    ranked = True  # its tables may be ranked: Elo ratings between humans (docs/web.md)
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
                gettext_noop("Pronunciation (as the poems are pronounced today)"),
                gettext_noop("Historical spelling (as printed on the cards)"),
            ),
        ),
    )

    # -- setting up --

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BozuState:
        players, checked, setup = self.check_new_game(players, seed, options)
        if setup is not None:
            stacked = validate_setup(setup, deck=load_poets().ids, players=players)
            if not stacked.pile:
                raise ValueError("setup.pile must hold at least one card to reveal")
            hands, pile, common, first = stacked.hands, stacked.pile, stacked.table, stacked.first
        else:
            rng = random.Random(seed)
            pile = list(load_poets().ids)
            shuffle(pile, rng)
            hands, common = ((),) * players, ()
            first = rng.randrange(players)
        start = {"type": "start", "first": first, "pile_size": len(pile)}
        return BozuState(
            make_deal(players, seed, checked, pile),
            drawn=0,
            turn=first,
            phase=REVEAL,
            zones=zones_of(hands, common),
            standing=(PLAYS,) * players,
            previous=None,
            log=((start,),),
        )

    # -- playing --

    def to_act(self, state: BozuState) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def legal_actions(self, state: BozuState, seat: int) -> list[dict]:
        if seat != state.turn or state.phase == OVER:
            return []
        if state.phase == EXTRA and state.deal.rules.allow_stop:
            return [{"type": "draw"}, {"type": "stop"}]
        return [{"type": "draw"}]

    def apply(self, state: BozuState, seat: int, action: Any) -> tuple[BozuState, list[dict]]:
        phase = state.phase
        if type(action) is dict and type(seat) is int and seat == state.turn and phase != OVER:
            if action == DRAW:
                return reveal(state, seat)
            if action == STOP and phase == EXTRA and state.deal.rules.allow_stop:
                return stop(state, seat)
        raise IllegalAction(refusal(state, seat, action))

    # -- what players see (everything but the order of the pile) --

    def view(self, state: BozuState, seat: int | None) -> dict:
        if seat is not None and not (
            type(seat) is int and 0 <= seat < state.deal.players  # bool is not a seat
        ):
            raise ValueError(f"no seat {seat!r} at this table")
        *hands, common = zone_cards(state)
        pile = state.pile
        shown = [card for zone in hands for card in zone] + list(common)
        table = state.deal.cards
        unseen: dict[str, int] = {}
        for card in pile:  # the composition only: public, since every other card is
            effect = table[card][0]
            unseen[effect] = unseen.get(effect, 0) + 1
        semimaru_unseen = SEMIMARU in pile
        over = state.phase == OVER
        return {
            "engine": ENGINE_NAME,
            "options": dict(state.deal.options),
            "players": state.deal.players,
            "seat": seat,
            "hand": list(hands[seat]) if seat is not None else None,
            "hands": [list(hand) for hand in hands],
            "hand_sizes": [len(hand) for hand in hands],
            "common": list(common),
            "pile_size": len(pile),
            "unseen_effects": dict(sorted(unseen.items())),
            "semimaru_unseen": semimaru_unseen,
            "semimaru_warning": semimaru_unseen and len(pile) <= WARNING_PILE,
            "eliminated": [standing == OUT for standing in state.standing],
            "skips": [standing == SKIPS for standing in state.standing],
            "turn": None if over else state.turn,
            "phase": state.phase,
            "to_act": self.to_act(state),
            "kana": {card: {"script": "hiragana"} for card in shown},
            "log": recent_events(state),
            "over": over,
            "outcome": self.outcome(state) if over else None,
        }

    def is_over(self, state: BozuState) -> bool:
        return state.phase == OVER

    def outcome(self, state: BozuState) -> dict:
        scores = scores_of(state.zones[:-1], state.standing)
        ranks = competition_ranks(scores)
        return {
            "scores": scores,
            "ranks": ranks,
            "cards": [held[0] for held in state.zones[:-1]],
            "eliminated": list(state.out),
            "draw": ranks.count(1) > 1,
            "common_left": state.zones[-1][0],
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
            "log": fresh_log(log_groups(state)),
        }

    def from_json(self, data: Mapping[str, Any]) -> BozuState:
        return BozuState(
            make_deal(data["players"], data["seed"], dict(data["options"]), data["pile"]),
            drawn=0,
            turn=data["turn"],
            phase=data["phase"],
            zones=zones_of(data["hands"], data["common"]),
            standing=standing_of(data["eliminated"], data["skips"]),
            previous=None,
            log=tuple(map(tuple, fresh_log(data["log"]))),
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
        return [c for hand in state.hands for c in hand] + [*state.pile, *state.common]

    def shuffle_hidden(self, state: BozuState, seat: int | None, rng: random.Random) -> BozuState:
        """The pile in another order: nobody may see it, so no view may change."""
        pile = list(state.pile)
        rng.shuffle(pile)
        return state._replace(pile=tuple(pile))


ENGINE = Bozu()
