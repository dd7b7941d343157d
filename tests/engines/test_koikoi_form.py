"""The table-creation form leaves out the table options Koi-Koi declares meaningless."""

from games.engines import get_engine
from games.forms import TableCreateForm


def form_data(engine: str, **extra) -> dict:
    form = TableCreateForm(engine=engine)
    data = {name: field.initial for name, field in form.fields.items() if field.initial is not None}
    data.update(extra)
    return {name: value for name, value in data.items() if value is not False}


def test_koikoi_form_has_no_script_field_and_keeps_hiragana():
    assert get_engine("koikoi").UNUSED_TABLE_OPTIONS == ("script",)
    form = TableCreateForm(engine="koikoi")
    assert "script" not in form.fields
    assert [bound.name for bound in form.table_bound()] == ["romaji", "prompts", "timer"]
    bound = TableCreateForm(form_data("koikoi", seat_1="easy"), engine="koikoi")
    assert bound.is_valid(), bound.errors
    assert bound.cleaned_options["script"] == "hiragana"
    assert bound.cleaned_options["rounds"] == "12"


def test_a_forged_script_value_is_ignored_for_koikoi():
    data = form_data("koikoi", seat_1="easy", script="katakana")
    bound = TableCreateForm(data, engine="koikoi")
    assert bound.is_valid(), bound.errors
    assert bound.cleaned_options["script"] == "hiragana"


def test_other_engines_keep_the_script_field():
    form = TableCreateForm(engine="kazoku-families")
    assert "script" in form.fields
    assert "script" in [bound.name for bound in form.table_bound()]
