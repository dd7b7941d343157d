"""``action_key`` is ``json.dumps(action, sort_keys=True, separators=(",", ":"),
ensure_ascii=False)`` for every action, the memo of flat actions included (issue 28)."""

import json

from hypothesis import given
from hypothesis import strategies as st

from games.engines import action_key
from games.engines.base import _flat_key


def dumps(action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


scalars = st.one_of(
    st.text(max_size=6), st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


@given(st.dictionaries(st.text(max_size=6), values, max_size=5))
def test_the_key_is_the_canonical_json_of_any_action(action):
    assert action_key(action) == dumps(action)
    assert action_key(action) == dumps(action)  # the second time from the memo if flat


@given(st.dictionaries(st.text(max_size=6), st.one_of(st.text(max_size=6), st.integers())))
def test_flat_actions_are_memoised_and_equal_their_encoding(action):
    key = action_key(action)
    assert key == dumps(action)
    assert _flat_key.cache_info().currsize > 0


def test_true_is_not_one_nor_none_zero_in_the_memo():
    for action in (
        {"type": "koi", "value": 1},
        {"type": "koi", "value": True},
        {"type": "koi", "value": 1.0},
        {"type": "koi", "value": 0},
        {"type": "koi", "value": False},
        {"type": "koi", "value": None},
        {"type": "koi", "value": "1"},
    ):
        assert action_key(action) == dumps(action)
        assert action_key(dict(reversed(list(action.items())))) == dumps(action)


def test_non_text_keys_and_dict_subclasses_are_encoded_as_json_does():
    class Action(dict):
        pass

    assert action_key({1: "a"}) == dumps({1: "a"}) == '{"1":"a"}'
    assert action_key({True: "a"}) == dumps({True: "a"}) == '{"true":"a"}'
    assert action_key(Action(card="shi", target=1)) == '{"card":"shi","target":1}'
    assert action_key({"card": "シ"}) == '{"card":"シ"}'
