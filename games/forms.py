"""The create-table form, generated from the engine's declared ``OPTIONS``.

Engine options become fields by kind (choice -> select, int -> number, bool -> checkbox);
the table options (script, romaji, prompts, timer, and card_prompts for games that ask about
their cards) and the seats are added. ``clean`` runs the
same validation as the service (``table_options_validate``) so messages are the engine's own.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engines import get_engine
from games.engines.base import Engine
from games.services.tables import (
    TABLE_OPTION_DEFAULTS,
    ranked_timer_message,
    table_options_validate,
)

SEAT_CHOICES = [
    ("", _("— no seat —")),
    ("open", _("Open seat (a classmate or friend joins)")),
    ("easy", _("CPU player, easy")),
    ("normal", _("CPU player, normal")),
    ("hard", _("CPU player, hard")),
]
TABLE_FIELDS = ("script", "romaji", "prompts", "card_prompts", "timer")


class TableCreateForm(forms.Form):
    script = forms.ChoiceField(
        label=_("Script"),
        choices=[
            ("hiragana", _("Hiragana")),
            ("katakana", _("Katakana")),
            ("mixed", _("Mixed")),
        ],
        initial="hiragana",
    )
    romaji = forms.ChoiceField(
        label=_("Romaji under the kana"),
        choices=[
            ("always", pgettext_lazy("romaji shown", "Always")),
            ("hover", _("On hover or focus")),
            ("never", _("Never")),
        ],
        initial=TABLE_OPTION_DEFAULTS["romaji"],
    )
    prompts = forms.ChoiceField(
        label=_("Recognition questions"),
        choices=[
            ("off", _("Off")),
            ("new", _("For kana I am still learning")),
            ("every", _("For every card I receive")),
        ],
        initial=TABLE_OPTION_DEFAULTS["prompts"],
    )
    card_prompts = forms.BooleanField(
        label=_("Questions about the cards I know"),
        required=False,
        initial=TABLE_OPTION_DEFAULTS["card_prompts"],
        help_text=_("Once you have seen a card several times, a question about it."),
    )
    timer = forms.TypedChoiceField(
        label=_("Turn timer"),
        coerce=int,
        choices=[(0, _("None")), (30, _("30 seconds")), (60, _("60 seconds"))],
        initial=0,
        help_text=_(
            "When it runs out, a CPU player plays for the absent player until they return."
        ),
    )

    def __init__(self, *args, engine: str, classrooms=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.engine_name = engine
        self.eng: Engine = get_engine(engine)
        self.engine_fields: list[str] = []
        # table options an engine declares meaningless for it (``UNUSED_TABLE_OPTIONS``) are
        # not shown; the service fills their defaults
        unused = set(self.eng.UNUSED_TABLE_OPTIONS)
        if not self.eng.asks_about_cards:
            unused.add("card_prompts")
        self.table_fields = [name for name in TABLE_FIELDS if name not in unused]
        for name in TABLE_FIELDS:
            if name in unused:
                del self.fields[name]
        if "card_prompts" in self.fields and self.eng.CARD_QUESTIONS_HELP:
            self.fields["card_prompts"].help_text = _(self.eng.CARD_QUESTIONS_HELP)
        for option in self.eng.OPTIONS:
            field = self._field_for(option)
            if option.name in self.fields:  # e.g. script: the engine's own declaration wins
                self.fields[option.name] = field
            else:
                self.fields[option.name] = field
                self.engine_fields.append(option.name)
        self.seat_fields = []
        for index in range(1, self.eng.MAX_PLAYERS):
            name = f"seat_{index}"
            self.fields[name] = forms.ChoiceField(
                label=_("Seat %(number)s") % {"number": index + 1},
                choices=SEAT_CHOICES,
                required=False,
                initial="normal" if index <= 3 else "",
            )
            self.seat_fields.append(name)
        if self.eng.ranked:
            self.fields["ranked"] = forms.BooleanField(
                label=_("Ranked table (Elo rating)"),
                required=False,
                help_text=_(
                    "Human players only: every other seat must be open for a player. Needs a "
                    "turn timer; leaving the table or letting your timer run out counts as a "
                    "loss."
                ),
            )
        self.classrooms = list(classrooms or [])
        if self.classrooms:
            self.fields["classroom"] = forms.TypedChoiceField(
                label=_("Class"),
                coerce=int,
                choices=[(c.pk, c.name) for c in self.classrooms],
                initial=self.classrooms[0].pk,
            )

    def _field_for(self, option) -> forms.Field:
        common: dict[str, Any] = {
            "label": _(option.label),
            "help_text": _(option.help) if option.help else "",
            "initial": option.default,
        }
        if option.kind == "choice":
            labels = option.choice_labels or option.choices
            return forms.ChoiceField(
                choices=[(v, _(label)) for v, label in zip(option.choices, labels, strict=True)],
                **common,
            )
        if option.kind == "int" and option.seat:  # a seat index, shown from 1 like the seats
            return forms.TypedChoiceField(
                choices=[
                    (index, _("Seat %(number)s") % {"number": index + 1})
                    for index in range(option.min or 0, (option.max or 0) + 1)
                ],
                coerce=int,
                **common,
            )
        if option.kind == "int":
            return forms.IntegerField(min_value=option.min, max_value=option.max, **common)
        return forms.BooleanField(required=False, **common)

    # -- groups for the template --
    def engine_bound(self):
        return [self[name] for name in self.engine_fields]

    def table_bound(self):
        return [self[name] for name in self.table_fields]

    def seat_bound(self):
        return [self[name] for name in self.seat_fields]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        options = {name: data[name] for name in [*self.engine_fields, *self.table_fields]}
        try:
            self.cleaned_options = table_options_validate(eng=self.eng, options=options)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc
        seats = [data.get(name) or "" for name in self.seat_fields]
        self.cleaned_seats = [kind for kind in seats if kind]
        players = 1 + len(self.cleaned_seats)
        if not self.eng.MIN_PLAYERS <= players <= self.eng.MAX_PLAYERS:
            raise forms.ValidationError(
                _("This game needs %(min)s to %(max)s players; you chose %(n)s.")
                % {"min": self.eng.MIN_PLAYERS, "max": self.eng.MAX_PLAYERS, "n": players}
            )
        if data.get("ranked") and any(kind != "open" for kind in self.cleaned_seats):
            raise forms.ValidationError(
                _("Ranked tables are for human players only: make every other seat open.")
            )
        if data.get("ranked") and not self.cleaned_options.get("timer"):
            raise forms.ValidationError(ranked_timer_message())
        return data

    @property
    def is_ranked(self) -> bool:
        return bool(self.cleaned_data.get("ranked"))

    def seats_for(self, user) -> list[dict]:
        seats: list[dict] = [{"kind": "human", "user": user}]
        for kind in self.cleaned_seats:
            seats.append({"kind": "open"} if kind == "open" else {"kind": "bot", "level": kind})
        return seats

    def classroom(self):
        if not self.classrooms:
            return None
        chosen = self.cleaned_data.get("classroom")
        return next((c for c in self.classrooms if c.pk == chosen), None)
