"""What every board shares: cards, players, the generic presenter."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from html import escape as html_escape
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engines import action_key
from games.escaping import conditional_escape


@dataclass
class Player:
    index: int
    name: str
    kind: str  # "human" | "bot" | "open"
    is_me: bool = False
    away: bool = False  # a human whose turn timer ran out: a CPU plays for them
    level: str = ""

    @property
    def label(self) -> str:
        return _("you") if self.is_me else self.name


@dataclass
class BoardContext:
    """Everything the board template needs besides the table's public fields."""

    template: str
    me: int | None
    players: list[Player]
    data: dict[str, Any] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    ranking: list[dict] = field(default_factory=list)


def card_html(card: Mapping[str, Any]) -> SafeString:
    """A card's label inside a sentence, its kana marked as Japanese (``lang="ja"``: screen
    readers switch to a Japanese voice for it on an English or French page)."""
    if card.get("joker"):
        return conditional_escape(card["label"])
    # what format_html('<span lang="ja">{}</span>') and format_html("{} ({})") write, without
    # their overhead (a log line names one or two cards, a board shows ~14 lines)
    glyph = f'<span lang="ja">{conditional_escape(card["glyph"])}</span>'
    if card.get("mode") == "never":
        return SafeString(glyph)  # the glyph is escaped (SafeString: see sentence_html)
    return SafeString(f"{glyph} ({conditional_escape(card['romaji'])})")  # escaped


def sentence_html(template: str, values: Mapping[str, Any]) -> SafeString:
    """``template % values`` as HTML: the (translated) template and every plain value are
    escaped (player names come from users), marked-up values such as ``card_html`` are kept."""
    # What mark_safe(escape(template) % ...) gives, without the lazy-string checks of Django's
    # escape and mark_safe (a board's log puts ~14 sentences together on every render).
    escaped = {k: conditional_escape(v) for k, v in values.items()}
    return SafeString(html_escape(str(template)) % escaped)


def ranking(outcome: Mapping[str, Any] | None, players: Sequence[Player]) -> list[dict]:
    if not outcome:
        return []
    rows = [
        {"rank": rank, "score": score, "player": players[index]}
        for index, (score, rank) in enumerate(
            zip(outcome.get("scores", []), outcome.get("ranks", []), strict=False)
        )
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["player"].index))


class Romaji(str):
    """The romaji mode a board is drawn with (``"always"``, ``"hover"``, ``"never"``) and the
    glyphs an open kana question is about (``hidden``: the asked kana and every kana of the
    same reading, in both scripts). A ``str``: presenters compare it as they always did; those
    that name kana in words (log lines, family names, listen buttons) leave the hidden ones
    out while the question is open (issue 27: no answer obtainable without recall)."""

    hidden: frozenset[str]

    def __new__(cls, mode: str, hidden: frozenset[str] | set[str] = frozenset()) -> Romaji:
        made = super().__new__(cls, mode)
        made.hidden = frozenset(hidden)
        return made


def hidden_glyphs(romaji: str) -> frozenset[str]:
    """The glyphs a board must not name while a question is open (none for a plain mode)."""
    return getattr(romaji, "hidden", frozenset())


def names_hidden(romaji: str, text: str) -> bool:
    """Whether ``text`` (a card's glyph, a word) holds a glyph an open question is about."""
    hidden = hidden_glyphs(romaji)
    return bool(hidden) and any(ch in hidden for ch in text)


@dataclass(frozen=True)
class Said:
    """What a log sentence may use: the players, the viewer's view and the romaji option."""

    players: Sequence[Player]
    view: Mapping[str, Any]
    romaji: str

    def who(self, index: int) -> str:
        """The player's label as it reads inside a sentence ("you", "Alice", "CPU 2"): its
        ``Player.label``, with "you" translated once for all the log's lines."""
        if not 0 <= index < len(self.players):
            return "?"
        player = self.players[index]
        return self.you if player.is_me else player.name

    @cached_property
    def you(self) -> str:
        return _("you")

    @cached_property
    def lang(self) -> str:
        """The page's language without its region (``BoardInput.lang``), read once."""
        return (get_language() or "en").split("-")[0]

    def name(self, index: int) -> str:
        """The label starting a sentence (capitalised)."""
        text = self.who(index)
        return text[:1].upper() + text[1:]

    def is_me(self, index: int) -> bool:
        return 0 <= index < len(self.players) and self.players[index].is_me

    def hides(self, text: str) -> bool:
        """Whether ``text`` names a kana an open question is about (``Romaji.hidden``)."""
        return names_hidden(self.romaji, text)

    def card(self, card_id: str) -> SafeString:
        """A card inline in a sentence: its id, escaped (a presenter whose cards have glyphs
        sets its own ``Said`` subclass as ``BoardPresenter.said``)."""
        return conditional_escape(card_id)


Sentence = Callable[[Mapping[str, Any], Said], "str | None"]


@dataclass(frozen=True)
class BoardInput:
    """What every board is built from: the viewer's view, their legal actions (none for a
    spectator, a replay or an away seat), the players, the viewer's seat and the romaji mode.
    A presenter's ``board_data`` reads it and adds the game's own data."""

    view: Mapping[str, Any]
    legal: Sequence[dict]
    players: list[Player]
    me: int | None
    romaji: str

    def to_act(self, index: int) -> bool:
        """Whether the player at ``index`` is to act now (the view's ``to_act``)."""
        return index in self.view.get("to_act", [])

    def seats(self, row: Callable[[Player], Mapping[str, Any]]) -> list[dict[str, Any]]:
        """One dict per player, in seat order: ``player``, the game's own ``row(player)``
        and ``to_act``."""
        return [{"player": p, **row(p), "to_act": self.to_act(p.index)} for p in self.players]

    @property
    def lang(self) -> str:
        """The page's language without its region (``"fr"`` for ``fr-ca``)."""
        return (get_language() or "en").split("-")[0]


class BoardPresenter:
    """The board every game shares, and the fallback for engines without a board of their own
    (plain buttons, raw events).

    ``build`` makes the ``BoardContext`` for every game: its template, the viewer, the
    players, the log in sentences and the ranking; a game's presenter adds its own data with
    ``board_data(board)`` (the generic board: plain buttons) and says how it ranks with
    ``board_outcome(board)`` (default: the view's ``outcome``) or ``board_ranking(board)``.
    It sets ``template`` and ``SENTENCES`` (event type -> a small function
    ``(event, say) -> sentence``).
    """

    template = "games/boards/generic.html"
    SENTENCES: Mapping[str, Sentence] = {}
    # how the log's sentences name players and cards (a ``Said`` subclass per kind of card)
    said: type[Said] = Said
    # static files the board needs besides the site's own (paths under static/): the page
    # links the stylesheets and loads the scripts (deferred) for this board only
    stylesheets: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    LOG_LINES = 20  # the board shows the latest lines of the log

    def build(
        self,
        *,
        view: Mapping[str, Any],
        legal: Sequence[dict],
        players: list[Player],
        me: int | None,
        romaji: str,
    ) -> BoardContext:
        """The board of ``view`` for seat ``me``: the same frame for every game, its data from
        the game's ``board_data``."""
        board = BoardInput(view=view, legal=legal, players=players, me=me, romaji=romaji)
        return BoardContext(
            template=self.template,
            me=me,
            players=players,
            data=self.board_data(board),
            log=self.log_lines(view, players, romaji),
            ranking=self.board_ranking(board),
        )

    def board_data(self, board: BoardInput) -> dict[str, Any]:
        """The game's own data for its template (the generic board: one button per action)."""
        return {"actions": self.buttons(board)}

    def board_outcome(self, board: BoardInput) -> Mapping[str, Any] | None:
        """The finished game's scores and ranks (``None`` while it is played)."""
        return board.view.get("outcome")

    def board_ranking(self, board: BoardInput) -> list[dict]:
        """The result's rows, best first (``ranking`` of ``board_outcome``)."""
        return ranking(self.board_outcome(board), board.players)

    def buttons(self, board: BoardInput) -> list[dict[str, Any]]:
        """One button per legal action: its ``key`` and its ``label`` (``action_label``)."""
        return [
            {"key": action_key(a), "label": self.action_label(a, board.players)}
            for a in board.legal
        ]

    def log_lines(
        self, view: Mapping[str, Any], players: Sequence[Player], romaji: str = "always"
    ) -> list[str]:
        """The latest ``LOG_LINES`` sentences of the view's log, oldest first (events that say
        nothing are skipped). Built from the end, so older events are never put in words."""
        lines = []
        # one Said for every line when the presenter keeps the generic ``sentence``
        said = None
        if type(self).sentence is BoardPresenter.sentence:
            said = self.said(players=players, view=view or {}, romaji=romaji)
        for event in reversed(view.get("log") or []):
            if said is not None:
                say = self.SENTENCES.get(event.get("type"))
                line = say(event, said) if say is not None else self.unknown_sentence(event)
            else:
                line = self.sentence(event, players, view, romaji)
            if line:
                lines.append(line)
                if len(lines) == self.LOG_LINES:
                    break
        return lines[::-1]

    def action_label(self, action: Mapping[str, Any], players: Sequence[Player]) -> str:
        return ", ".join(f"{k}: {v}" for k, v in sorted(action.items()))

    def sentence(
        self,
        event: Mapping[str, Any],
        players: Sequence[Player],
        view: Mapping[str, Any] | None = None,
        romaji: str = "always",
    ) -> str | None:
        """The event in words for this viewer: ``SENTENCES[event type](event, say)``."""
        line = self.SENTENCES.get(event.get("type"))
        if line is None:
            return self.unknown_sentence(event)
        return line(event, self.said(players=players, view=view or {}, romaji=romaji))

    def unknown_sentence(self, event: Mapping[str, Any]) -> str | None:
        """An event type without a sentence: shown raw by the generic board."""
        return ", ".join(f"{k}: {v}" for k, v in sorted(event.items()))
