"""Issue 12, part 1: the login limiter counts per canonical account; generated passwords are strong.

Authentication cleans the username with Django's UsernameField (strip, then NFKC), so every
spelling that reaches an account must hit that account's counter.
"""

import math
import re

import pytest
from django.contrib.auth.forms import UsernameField
from django.test import Client
from factories import UserFactory
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from kanagame.accounts.names import username_key
from kanagame.accounts.services import username_canonical
from learning.classroom.services.classroom import (
    PASSWORD_SYLLABLES,
    password_entropy_bits,
    password_generate,
)

SCHOOL = "203.0.113.7"
LOOK_ALIKES = set("lI1|0Oo")  # "o" is fine as a letter only because no digit 0 exists


def login(client: Client, username: str, password: str):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=SCHOOL)


@pytest.fixture
def loginkid(db):
    return UserFactory(username="loginkid", password="kid-kana-2026")


def test_full_width_spellings_share_the_accounts_counter(loginkid, settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    # Each of these authenticates as "loginkid" with the right password.
    assert login(Client(), "ｌoginkid", "kid-kana-2026").status_code == 302
    spellings = ["ｌoginkid", "ｌｏｇｉｎｋｉｄ", "loginkid", "\u3000loginkid", "LOGINKID"]
    for spelling in spellings[:4]:
        assert login(Client(), spelling, "guess").status_code == 200
    response = login(Client(), spellings[4], "guess")
    assert response.status_code == 429
    # Locked for every spelling, the right password included.
    for spelling in spellings:
        assert login(Client(), spelling, "kid-kana-2026").status_code == 429


def test_eighty_eight_look_alike_guesses_are_not_possible(loginkid, settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    variants = ["ｌoginkid", "lｏginkid", "loｇinkid", "logｉnkid", "loginｋid", "loginkｉd"]
    statuses = [login(Client(), variants[n % 6], "guess").status_code for n in range(20)]
    assert statuses.count(200) == 4 and statuses[4:] == [429] * 16


@hypothesis_settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_the_limiter_key_is_what_the_login_form_resolves(raw):
    """The form cleans the name (UsernameField), the backend finds the account by the
    canonical form of what the form passed (issue 24): the key is that same canonical form."""
    assert username_canonical(raw) == username_key(UsernameField(max_length=150).to_python(raw))


def test_generated_passwords_have_at_least_45_bits_and_no_look_alikes():
    assert password_entropy_bits() >= 45
    assert password_entropy_bits() == pytest.approx(9 * math.log2(39))
    shapes = re.compile(r"^[a-z]+-[a-z]+-[a-z]+$")
    seen = set()
    for _ in range(2000):
        password = password_generate()
        assert shapes.match(password), password
        assert not LOOK_ALIKES & set(password) - {"o"}
        assert "rn" not in password  # reads as "m" on a printed card
        seen.add(password)
    assert len(seen) == 2000  # 2.1e14 possibilities: no repeat in 2,000 draws


def test_syllables_split_one_way_only():
    """Every syllable ends in its only vowel: a password parses back into one sequence."""
    assert len(set(PASSWORD_SYLLABLES)) == len(PASSWORD_SYLLABLES)
    for syllable in PASSWORD_SYLLABLES:
        vowels = [c for c in syllable if c in "aeiou"]
        assert vowels == [syllable[-1]], syllable
