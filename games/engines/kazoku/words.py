"""Kazoku word game ("Jeu des kana" / "Happy Kana"): form the 45 words from kana cards.

Rules (French text of ``shared/rules/kazoku.fr.txt`` by default; differences with the English
text are options or noted in ``docs/rules/kazoku-words.md``):

- 45 kana cards per deck plus 4 jokers; each card also carries one word containing its kana
  (``fixtures/kazoku_deck.json``, see ``index``). 6 cards each (``hand_size``).
- On your turn, ask all the others at once for one kana of a word whose word card you hold
  (never a joker, never a kana on no card, never one that cannot help: with one deck a kana
  already held; with several, a kana of which the hand holds every copy). The first holder
  clockwise gives one copy and at once draws a replacement. Otherwise you draw; drawing the
  asked kana is "Bonne pioche !": you play again. After a give (French; option
  ``replay_on_give`` for the English reading) or a plain draw you may form a word; if you
  cannot, the turn passes at once.
- Forming a word (at any point of your turn, at most one per turn, it ends the turn): the word
  card plus one card per other kana, from your hand, the table cards, at most one joker (never
  for the word card), and stolen word cards: at most one per opponent, only of words shorter
  than yours, used for their kana. The word card scores in front of you; the other cards go
  under the pile (``end=pile_empty``: out of the game, in the discard).
- ``table_cards`` 3-5: face-up cards usable only when forming, for their kana or as the word
  card, refilled from the pile; jokers turned up while refilling go back into the middle of the
  pile once the table is full.
- Who plays first (``start``, as in the families game): the youngest player, whose seat the
  table gives as ``first`` (default seat 0), or a random seat drawn after the deal.
- End: first to ``target_points`` (15). ``end=pile_empty``: when the pile runs out every
  player, from the one to act, may form one last word (no stealing), then highest score wins.
  Either way the game also ends after ``max_rounds`` rounds (0 = automatic: 60 per deck;
  highest score wins): cards cycle
  under the pile, so nothing else bounds the target game.

State: a frozen dataclass of tuples; all randomness is the deal (``random.Random(seed)``),
after which the game is deterministic. Pure Python: no Django, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from games.engines.base import (
    Bot,
    Engine,
    IllegalAction,
    Option,
    WordExample,
    competition_ranks,
    gettext_noop,
    validate_setup,
)
from games.engines.kazoku.bots_words import make_bot
from games.engines.kazoku.deck import (
    FIRST_OPTION,
    SCRIPT_OF_LETTER,
    SCRIPT_OPTION,
    START_OPTION,
    deal_scripts,
    first_seat,
    load_deck,
)
from games.engines.kazoku.index import (
    KANA_BIT,
    KANA_OF,
    base,
    deck_ids,
    formable,
    is_joker,
    steal_info,
    word_index,
)

PHASES = ("turn", "after_ask", "last_words", "over")
LOG_WINDOW = 24  # views show the latest events; `known` keeps the public memory of older ones
TABLE_SIZES = (0, 3, 4, 5)
MIN_ROUNDS, ROUNDS_PER_DECK = 10, 60


@dataclass(frozen=True)
class Rules:
    hand_size: int
    target_points: int
    table_cards: int
    end: str
    decks: int
    script: str
    replay_on_give: bool
    max_rounds: int

    def public(self) -> dict[str, Any]:
        return {
            "hand_size": self.hand_size,
            "target_points": self.target_points,
            "table_cards": self.table_cards,
            "end": self.end,
            "decks": self.decks,
            "script": self.script,
            "replay_on_give": self.replay_on_give,
            "max_rounds": self.max_rounds,
        }


@dataclass(frozen=True)
class State:
    rules: Rules
    players: int
    seed: int
    scripts: str  # one letter per base card: "h" hiragana, "k" katakana
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]  # pile[0] is drawn next; used cards go to the end
    table: tuple[str, ...]
    scored: tuple[tuple[str, ...], ...]  # word cards in front of each seat
    discard: tuple[str, ...]  # end=pile_empty: used cards out of the game
    known: tuple[tuple[str, ...], ...]  # cards publicly known to be in each hand
    turn: int  # seat whose turn it is
    phase: str
    turns: int  # completed turns
    last_words: tuple[int, ...]  # seats still to play in the last-word round
    ended_by: str  # "", "target", "pile_empty", "max_rounds"
    log: tuple[Mapping[str, Any], ...]


def _points(cards: tuple[str, ...]) -> int:
    words = word_index().words
    return sum(words[KANA_OF[card]].points for card in cards)


def _scores(state: State) -> list[int]:
    """Each seat's points (memoised on the state while ``scored`` is unchanged)."""
    scores = state.__dict__.get("_scores")
    if scores is None:
        scores = state.__dict__["_scores"] = tuple(_points(cards) for cards in state.scored)
    return list(scores)


@cache
def _word_examples() -> tuple[tuple[frozenset[str], WordExample], ...]:
    """Each card's word with the kana ids it uses (read once from the deck)."""
    found = []
    for card in load_deck().cards.values():
        word = card.extra.get("word")
        if not word:
            continue
        meanings = {lang: word[lang] for lang in ("en", "fr") if word.get(lang)}
        example = WordExample(kana=word["kana"], romaji=word["romaji"], meanings=meanings)
        found.append((frozenset(word.get("kana_ids", ())), example))
    return tuple(found)


class KazokuWords(Engine):
    name = "kazoku-words"
    title = gettext_noop("Kazoku: the word game")
    blurb = gettext_noop("Collect kana and form the words printed on your cards.")
    DESCRIBED_OPTIONS = ("script",)
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    OPTIONS = (
        Option("hand_size", "int", 6, gettext_noop("Cards dealt"), min=3, max=12),
        START_OPTION,
        FIRST_OPTION,
        Option("target_points", "int", 15, gettext_noop("Points to win"), min=5, max=60),
        Option(
            "table_cards",
            "int",
            0,
            gettext_noop("Table cards"),
            gettext_noop("0 (off), 3, 4 or 5 face-up cards"),
            min=0,
            max=5,
        ),
        Option(
            "end",
            "choice",
            "target",
            gettext_noop("End of the game"),
            choices=("target", "pile_empty"),
            choice_labels=(
                gettext_noop("First to the target points"),
                gettext_noop("When the pile is empty"),
            ),
        ),
        Option("decks", "int", 1, gettext_noop("Decks mixed"), min=1, max=3),
        SCRIPT_OPTION,
        Option(
            "replay_on_give",
            "bool",
            False,
            gettext_noop("Play again after a card is given"),
            gettext_noop("English rules; the French rules only replay after a Bonne pioche"),
        ),
        Option(
            "max_rounds",
            "int",
            0,
            gettext_noop("Round limit"),
            gettext_noop("the game ends after it; 0 = automatic (60 rounds per deck)"),
            min=0,
            max=500,
        ),
    )

    # --- setting up -------------------------------------------------------------------------

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        players = self.check_players(players)
        opts = self.validate_options(options)
        rules = Rules(**{f.name: opts[f.name] for f in fields(Rules)})
        if rules.table_cards not in TABLE_SIZES:
            raise ValueError("option 'table_cards' must be 0, 3, 4 or 5")
        if 0 < rules.max_rounds < MIN_ROUNDS:
            raise ValueError(f"option 'max_rounds' must be 0 (automatic) or at least {MIN_ROUNDS}")
        deck = deck_ids(rules.decks)
        kana_cards = sum(not is_joker(card) for card in deck)
        if players * rules.hand_size + rules.table_cards > kana_cards - 1:
            raise ValueError(
                f"{players} hands of {rules.hand_size} cards and {rules.table_cards} table cards"
                f" do not fit in {rules.decks} deck(s)"
            )
        rng = random.Random(seed)
        scripts = deal_scripts(rules.script, rng)
        if "setup" in opts:
            setup = validate_setup(opts["setup"], deck=deck, players=players)
            if any(is_joker(card) for card in setup.table):
                raise ValueError("setup.table cannot hold a joker")
            if len(setup.table) != rules.table_cards:
                raise ValueError(f"setup.table must hold {rules.table_cards} cards")
            hands, pile, table, first = setup.hands, setup.pile, setup.table, setup.first
        else:
            cards = list(deck)
            rng.shuffle(cards)
            size = rules.hand_size
            hands = tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(players))
            pile, table = _refill((), tuple(cards[players * size :]), rules.table_cards)[:2]
            first = first_seat(opts, players, rng)
        state = State(
            rules=rules,
            players=players,
            seed=seed,
            scripts=scripts,
            hands=hands,
            pile=pile,
            table=table,
            scored=((),) * players,
            discard=(),
            known=((),) * players,
            turn=first,
            phase="turn",
            turns=0,
            last_words=(),
            ended_by="",
            log=({"type": "start", "seat": first, "table": table},),
        )
        state, _events = _settle(state, [])
        return state

    # --- whose turn, what they may do --------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        if state.phase == "over":
            return []
        if state.phase == "last_words":
            return [state.last_words[0]]
        return [state.turn]

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "last_words":
            return _copies(_forms(state, seat, steal=False)) + [{"type": "pass"}]
        forms = _copies(_forms(state, seat, steal=True))
        if state.phase == "after_ask":
            return forms + [{"type": "pass"}]
        hand = state.hands[seat]
        asks = [{"type": "ask", "kana": kana} for kana in askable(hand, state.rules.decks)]
        if not asks:  # an empty hand, or only jokers: nothing to ask for
            return forms + [{"type": "draw" if state.pile else "pass"}]
        return asks + forms

    # --- playing -----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[dict]]:
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "form":
            new, events = self._form(state, seat, action)
        elif kind == "ask" and len(action) == 2 and "kana" in action:
            new, events = _ask(state, seat, action["kana"])
        elif action == {"type": "pass"} or action == {"type": "draw"}:
            if action not in self.legal_actions(state, seat):
                raise IllegalAction(f"You cannot {kind} now.")
            new, events = _pass_or_draw(state, seat, kind)
        else:
            raise IllegalAction("Unknown action: ask for a kana, form a word or pass.")
        new, events = _settle(new, events)
        # ``new`` is a state built by this call and not yet seen by anyone: its log is completed
        # in place rather than by one more copy of every field (never the caller's ``state``)
        if new is state:
            new = _with(state)
        new.__dict__["log"] = state.log + tuple(events)
        # the log keeps the events; the caller gets copies (their values are immutable)
        return new, list(map(dict.copy, events))

    def _form(self, state: State, seat: int, action: Mapping) -> tuple[State, list[dict]]:
        steal = state.phase != "last_words"
        word_card = action.get("word")
        legal = (
            _forms(state, seat, steal=steal, only=word_card) if isinstance(word_card, str) else ()
        )
        if not any(form == action for form in legal):  # the listed actions, exactly
            raise IllegalAction("You cannot form that word with these cards now.")
        return _form(state, seat, action)

    # --- reading -----------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict:
        rules = state.rules
        return {
            "engine": self.name,
            "seat": seat,
            "players": state.players,
            "phase": state.phase,
            "turn": state.turn,
            "to_act": self.to_act(state),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(hand) for hand in state.hands],
            "known": [list(cards) for cards in state.known],
            "table": list(state.table),
            "scored": [list(cards) for cards in state.scored],
            "scores": _scores(state),
            "pile_count": len(state.pile),
            "discard": list(state.discard),
            "turns": state.turns,
            "max_turns": turn_limit(state),
            "last_words": list(state.last_words),
            "ended_by": state.ended_by,
            "scripts": state.scripts,
            "options": rules.public(),
            "log": _visible(state.log[-LOG_WINDOW:], seat),
        }

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> dict:
        scores = _scores(state)
        return {"scores": scores, "ranks": competition_ranks(scores), "ended_by": state.ended_by}

    def to_json(self, state: State) -> dict:
        data = {f.name: _to_json(getattr(state, f.name)) for f in fields(State)}
        data["rules"] = {f.name: getattr(state.rules, f.name) for f in fields(Rules)}
        return data

    def from_json(self, data: Mapping[str, Any]) -> State:
        values = {f.name: _from_json(data[f.name]) for f in fields(State) if f.name != "rules"}
        return State(rules=Rules(**data["rules"]), **values)

    def bot(self, level: str) -> Bot:
        return make_bot(self.check_bot_level(level))

    def kana_on(self, card_id: str, options: Mapping[str, Any] | None = None) -> list[str]:
        """The big kana of the card (jokers show none). The word printed under it is read as a
        whole and is not counted as exposures of each of its kana."""
        return [] if is_joker(card_id) else [base(card_id)]

    def kana_named(self, action: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
        """Asking for a kana names it."""
        if action.get("type") == "ask" and isinstance(action.get("kana"), str):
            return [action["kana"]]
        return []

    def cards_shown(self, view: Mapping[str, Any]) -> dict[str, str]:
        """The cards of the view's zones (hand, table, scored words, publicly known cards) and
        those its log names, with the script dealt to each (``view["scripts"]``: one letter
        per deck card); jokers show no kana (``""``)."""
        cards: set[str] = set(view["hand"] or ())
        cards.update(view["table"])
        for zone in (view["scored"], view["known"]):
            for seat_cards in zone:
                cards.update(seat_cards)
        for event in view["log"]:
            if isinstance(event.get("card"), str):
                cards.add(event["card"])
            cards.update(card for card in event.get("cards") or () if isinstance(card, str))
        letters = view["scripts"]
        return {card: _script_of(letters, card) for card in cards}

    def practice_presets(self) -> list[dict[str, Any]]:
        return [{"script": "hiragana"}, {"script": "katakana"}]

    def practice(self, options: Mapping[str, Any]) -> frozenset[str]:
        """The kana of the 45 words (read as words, voiced and small kana included): the
        game's point is reading them in context."""
        return frozenset(k for word in word_index().words.values() for k in word.kana_ids)

    def word_examples(self, kana_id: str) -> list[WordExample]:
        """The words printed on the cards (the fixture's ``word``) that use ``kana_id``."""
        return [example for kana_ids, example in _word_examples() if kana_id in kana_ids]

    # --- conformance hooks -------------------------------------------------------------------

    def deck(self, state: State) -> list[str]:
        return list(deck_ids(state.rules.decks))

    def cards_in_play(self, state: State) -> list[str]:
        cards = [card for hand in state.hands for card in hand]
        cards += [card for pile in state.scored for card in pile]
        return cards + list(state.pile) + list(state.table) + list(state.discard)

    def shuffle_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Deal the pile and the other hands anew (keeping sizes and publicly known cards)."""
        others = [s for s in range(state.players) if s != seat]
        pool = list(state.pile)
        for s in others:
            pool += _without(state.hands[s], state.known[s])
        rng.shuffle(pool)
        hands = list(state.hands)
        for s in others:
            hidden = len(state.hands[s]) - len(state.known[s])
            hands[s] = tuple(state.known[s]) + tuple(pool[:hidden])
            del pool[:hidden]
        return _with(state, hands=tuple(hands), pile=tuple(pool))


# --- rules as functions of the state ----------------------------------------------------------


def turn_limit(state: State) -> int:
    """Completed turns after which the game ends: ``max_rounds`` rounds (0 = automatic: 60 per
    deck, as more decks make longer games) of one turn per player."""
    rounds = state.rules.max_rounds or ROUNDS_PER_DECK * state.rules.decks
    return rounds * state.players


def askable(hand: tuple[str, ...], decks: int = 1) -> list[str]:
    """Kana one may ask for, in alphabetical order: those that can help form a word of a held
    word card (the rules: never a kana "that would not contribute to forming a word"). The word
    card supplies its own kana; jokers and kana on no card cannot be asked for.

    A kana already in hand: with one deck nobody else can hold it, so asking for it is refused.
    With several decks one more copy may be asked for while a copy is left elsewhere (the hand
    holds fewer than ``decks``): a held word needing a kana that is also in hand always has a
    use for a second copy (the word needs it twice, or the held copy is a word card of its own
    that forming would spend)."""
    wanted = _wanted(hand)
    if decks == 1:  # one copy of each kana: the held ones are out (a bit mask, hot path)
        for card in hand:
            wanted &= ~KANA_BIT[card]
        return [kana for kana, bit in _KANA_BY_NAME if wanted & bit] if wanted else []
    if not wanted:
        return []
    held = _held(hand)
    return [kana for kana, bit in _KANA_BY_NAME if wanted & bit and held.get(kana, 0) < decks]


def _may_ask(hand: tuple[str, ...], kana: str, decks: int) -> bool:
    wanted = _DECK_KANA_BIT.get(kana, 0) & _wanted(hand)
    return bool(wanted) and _held(hand).get(kana, 0) < decks


def _held(hand: tuple[str, ...]) -> dict[str, int]:
    """Kana id -> copies of it in ``hand`` (jokers left out)."""
    held: dict[str, int] = {}
    for card in hand:
        kana = KANA_OF[card]
        if kana is not None:
            held[kana] = held.get(kana, 0) + 1
    return held


def _wanted(hand: tuple[str, ...]) -> int:
    """The bits (``KANA_BIT``) of the kana that the word cards of ``hand`` need."""
    wanted = 0
    for card in hand:
        wanted |= _NEEDS[card]
    return wanted


def _forms(
    state: State,
    seat: int,
    *,
    steal: bool,
    only: str | None = None,
    involving: int = 0,
    complete: bool = False,
) -> tuple[dict, ...]:
    """The form actions of ``seat`` (``only``: those with that word card; ``involving``: only
    words using one of those kana bits), memoised on the state object: a pure function of its
    fields, computed once for ``legal_actions`` and ``apply``. ``_with`` drops the memo when
    hands, table or scored change. ``complete``: the caller knows that no word outside
    ``involving`` is formable, so the result is the full list and is memoised too."""
    key = (seat, steal)
    memo = state.__dict__.get("_memo")
    if memo is not None and memo[0] == key:
        found = memo[1]
        return found if only is None else tuple(f for f in found if f["word"] == only)
    steals = steal_info(state.scored, seat) if steal else None  # memoised on (scored, seat)
    found = tuple(
        formable(
            state.hands[seat], state.table, state.scored, seat,
            steal=steal, only=only, involving=involving, steals=steals,
        )
    )  # fmt: skip
    if only is None and (complete or not involving):
        state.__dict__["_memo"] = (key, found)
    return found


def _copies(forms: tuple[dict, ...]) -> list[dict]:
    """Fresh action dicts, so that callers cannot alter the memo."""
    return [
        {**f, "cards": list(f["cards"]), "table": list(f["table"]),
         "steal": [list(pair) for pair in f["steal"]]}
        for f in forms
    ]  # fmt: skip


def _ask(state: State, seat: int, kana: Any) -> tuple[State, list[dict]]:
    if state.phase != "turn":
        raise IllegalAction("You cannot ask for a card now.")
    if not isinstance(kana, str) or not _may_ask(state.hands[seat], kana, state.rules.decks):
        raise IllegalAction(
            "You may only ask for a kana that helps form a word whose card you hold: never a"
            " joker, never a kana you hold when it has no other copy or your words need no more."
        )
    events: list[dict] = [{"type": "ask", "seat": seat, "kana": kana}]
    memo = state.__dict__.get("_memo")
    none_before = memo is not None and memo[0] == (seat, True) and not memo[1]
    for holder in _clockwise(state, seat):
        copies = [card for card in state.hands[holder] if KANA_OF[card] == kana]
        if copies:
            return _give(state, seat, holder, min(copies), events, none_before)
    events.append({"type": "no_card", "seat": seat, "kana": kana})
    if not state.pile:
        return _after_ask(state, seat, None, none_before), events
    card = state.pile[0]
    hands = list(state.hands)
    hands[seat] = hands[seat] + (card,)
    events += _draw_events(seat, card)
    if KANA_OF[card] == kana:
        events.append({"type": "good_pick", "seat": seat, "card": card})
        known = list(state.known)
        known[seat] = state.known[seat] + (card,)
        new = _with(state, pile=state.pile[1:], hands=tuple(hands), known=tuple(known))
        return new, events
    new = _with(state, pile=state.pile[1:], hands=tuple(hands))
    return _after_ask(new, seat, card, none_before), events


def _give(state, seat, holder, card, events, none_before) -> tuple[State, list[dict]]:
    hands, known, pile = list(state.hands), list(state.known), state.pile
    hands[holder] = _without(hands[holder], (card,))
    if card in known[holder]:
        known[holder] = _without(known[holder], (card,))
    hands[seat] = hands[seat] + (card,)
    known[seat] = known[seat] + (card,)
    events.append({"type": "give", "seat": holder, "to": seat, "card": card})
    if pile:
        drawn, pile = pile[0], pile[1:]
        hands[holder] = hands[holder] + (drawn,)
        events += _draw_events(holder, drawn)
    state = _with(state, hands=tuple(hands), known=tuple(known), pile=pile)
    if state.rules.replay_on_give:
        return state, events
    return _after_ask(state, seat, card, none_before), events


def _after_ask(state: State, seat: int, new: str | None, none_before: bool) -> State:
    """After a give or a plain draw: form a word or pass; with nothing to form, pass at once.

    ``none_before``: nothing was formable before the ask, so only words using the ``new`` card
    can be formable now (table and scored cards have not changed) — a much cheaper check,
    whose result is then the complete list. The search is memoised on ``state`` and carried
    to the waiting state (same hands, table and scored cards)."""
    if none_before and (new is None or KANA_OF[new] is not None):
        if new is None:
            return _end_turn(state)
        found = _forms(state, seat, steal=True, involving=KANA_BIT[new], complete=True)
    else:
        found = _forms(state, seat, steal=True)
    return _with(state, phase="after_ask") if found else _end_turn(state)


def _pass_or_draw(state: State, seat: int, kind: str) -> tuple[State, list[dict]]:
    if state.phase == "last_words":
        return _next_last_word(state), [{"type": "pass", "seat": seat}]
    if kind == "draw":  # nothing to ask for: draw, then form a word with it, or pass
        card, state = state.pile[0], _with(state, pile=state.pile[1:])
        state = _add_to_hand(state, seat, card)
        return _after_ask(state, seat, card, none_before=False), _draw_events(seat, card)
    return _end_turn(state), [{"type": kind, "seat": seat}]


def _form(state: State, seat: int, action: Mapping) -> tuple[State, list[dict]]:
    word_card = action["word"]
    used = [card for card in action["cards"] if card != word_card]
    table_used = tuple(action["table"])
    stolen = tuple(card for _victim, card in action["steal"])
    hands, known, scored = list(state.hands), list(state.known), list(state.scored)
    from_hand = tuple(c for c in action["cards"] if c not in table_used and c not in stolen)
    hands[seat] = _without(hands[seat], from_hand)
    known[seat] = tuple(c for c in known[seat] if c not in from_hand)
    for victim, card in action["steal"]:
        scored[victim] = _without(scored[victim], (card,))
    scored[seat] = scored[seat] + (word_card,)
    table = _without(state.table, table_used)
    pile_empty = state.rules.end == "pile_empty"
    state = _with(
        state,
        hands=tuple(hands),
        known=tuple(known),
        scored=tuple(scored),
        table=table,
        pile=state.pile if pile_empty else state.pile + tuple(used),
        discard=state.discard + tuple(used) if pile_empty else state.discard,
    )
    points = word_index().words[base(word_card)].points
    events: list[dict] = [
        {
            "type": "form",
            "seat": seat,
            "word": word_card,
            "cards": tuple(action["cards"]),
            "table": table_used,
            "steal": tuple(tuple(pair) for pair in action["steal"]),
            "points": points,
        }
    ]
    state, refill_events = _refill_table(state)
    events += refill_events
    if state.phase == "last_words":
        return _next_last_word(state), events
    rules = state.rules
    if rules.end == "target" and _points(state.scored[seat]) >= rules.target_points:
        return _with(state, phase="over", ended_by="target"), events
    return _end_turn(state), events


def _refill(table, pile, size) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """Fill ``table`` up to ``size`` from the top of ``pile``; jokers turned up go back into
    the middle of the pile once the table is full. Returns (pile, table, jokers put back)."""
    table, pile, jokers = list(table), list(pile), []
    while len(table) < size and pile:
        card = pile.pop(0)
        (jokers if is_joker(card) else table).append(card)
    middle = len(pile) // 2
    pile[middle:middle] = jokers
    return tuple(pile), tuple(table), len(jokers)


def _refill_table(state: State) -> tuple[State, list[dict]]:
    size = state.rules.table_cards
    if len(state.table) >= size:
        return state, []
    before = len(state.table)
    pile, table, jokers = _refill(state.table, state.pile, size)
    events: list[dict] = [{"type": "table", "cards": table[before:]}] if table[before:] else []
    if jokers:
        events.append({"type": "joker_back", "count": jokers})
    return _with(state, pile=pile, table=table), events


def _end_turn(state: State) -> State:
    turns = state.turns + 1
    if turns >= turn_limit(state):
        return _with(state, turns=turns, phase="over", ended_by="max_rounds")
    return _with(state, turns=turns, turn=(state.turn + 1) % state.players, phase="turn")


def _next_last_word(state: State) -> State:
    rest = state.last_words[1:]
    if rest:
        return _with(state, last_words=rest)
    return _with(state, last_words=(), phase="over", ended_by="pile_empty")


def _settle(state: State, events: list[dict]) -> tuple[State, list[dict]]:
    """end=pile_empty: once the pile is empty, every player may form one last word, starting
    with the seat to act."""
    if state.rules.end != "pile_empty" or state.pile or state.phase in ("last_words", "over"):
        return state, events
    order = tuple((state.turn + i) % state.players for i in range(state.players))
    events = events + [{"type": "last_words", "order": order}]
    return _with(state, phase="last_words", last_words=order), events


# --- small helpers ---------------------------------------------------------------------------


def _with(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without its per-call introspection (hot path)."""
    new = object.__new__(State)
    fields_ = new.__dict__
    fields_.update(state.__dict__)
    fields_.update(changes)
    if not _FORM_INPUTS.isdisjoint(changes):  # the forms depend on hands, table, scored only
        fields_.pop("_memo", None)
    if "scored" in changes:
        fields_.pop("_scores", None)
    return new


_FORM_INPUTS = frozenset({"hands", "table", "scored"})
_NEEDS = {  # card id -> the kana bits its word needs besides the card (jokers: none)
    card: word_index().words[kana].need_mask if kana else 0 for card, kana in KANA_OF.items()
}
_DECK_KANA_BIT = {kana: KANA_BIT[kana] for kana in word_index().deck_kana}  # no copies, jokers
_KANA_BY_NAME = tuple(sorted(_DECK_KANA_BIT.items()))


def _script_of(letters: str, card: str) -> str:
    """The script ``card`` is drawn in, from the deal's letters (jokers: ``""``)."""
    if is_joker(card):
        return ""
    return SCRIPT_OF_LETTER[letters[_DECK_ORDER[base(card)]]]


_DECK_ORDER = {card: index for index, card in enumerate(load_deck().ids)}


def _clockwise(state: State, seat: int) -> list[int]:
    return [(seat + i) % state.players for i in range(1, state.players)]


def _add_to_hand(state: State, seat: int, card: str) -> State:
    hands = list(state.hands)
    hands[seat] = hands[seat] + (card,)
    return _with(state, hands=tuple(hands))


def _draw_events(seat: int, card: str) -> list[dict]:
    return [
        {"type": "draw", "seat": seat, "except": seat},
        {"type": "draw", "seat": seat, "card": card, "private_to": seat},
    ]


def _without(cards: tuple[str, ...], removed) -> tuple[str, ...]:
    rest = list(cards)
    for card in removed:
        rest.remove(card)
    return tuple(rest)


def _visible(log, seat: int | None) -> list[dict]:
    shown = []
    for event in log:
        private_to = event.get("private_to")
        if private_to is not None and private_to != seat:
            continue
        if seat is not None and event.get("except") == seat:
            continue
        shown.append(_event_out(event) if event["type"] in _EVENTS_WITH_LISTS else dict(event))
    return shown


def _event_out(event: Mapping[str, Any]) -> dict:
    out = dict(event)
    for key, value in out.items():
        if type(value) is tuple:
            out[key] = [list(item) if type(item) is tuple else item for item in value]
    return out


_EVENTS_WITH_LISTS = frozenset({"start", "form", "table", "last_words"})


def _to_json(value: Any) -> Any:
    kind = type(value)
    if kind is tuple:
        return [_to_json(item) for item in value]
    if kind is dict:
        return {key: _to_json(item) for key, item in value.items()}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(item) for item in value)
    if isinstance(value, Mapping):
        return {key: _from_json(item) for key, item in value.items()}
    return value


ENGINE = KazokuWords()
