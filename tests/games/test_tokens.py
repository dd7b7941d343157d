"""games.tokens: the tokens a board carries are Django's salted HMACs of the table and value."""

from django.test import override_settings
from django.utils.crypto import salted_hmac

from games.tokens import action_token, card_token


def _expected(kind: str, table_id: int, value: str) -> str:
    digest = salted_hmac(f"kanagame.games.{kind}", f"{table_id}:{value}").hexdigest()
    return f"{kind}{digest[:14]}"


def test_tokens_are_the_salted_hmac_of_the_table_and_value():
    key = '{"card":"shi","target":1,"type":"ask"}'
    assert action_token(7, key) == _expected("a", 7, key)
    assert card_token(7, "shi") == _expected("c", 7, "shi")
    assert card_token(7, "ひ") == _expected("c", 7, "ひ")  # non-ASCII values
    assert action_token(8, key) != action_token(7, key)
    assert card_token(7, "shi") != action_token(7, "shi")  # kinds are salted apart


def test_tokens_follow_the_secret_key():
    before = card_token(3, "ka")
    with override_settings(SECRET_KEY="another-secret-" + "x" * 50):
        changed = card_token(3, "ka")
        assert changed == _expected("c", 3, "ka")
    assert changed != before
    assert card_token(3, "ka") == before
