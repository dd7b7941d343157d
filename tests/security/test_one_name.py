"""Issue 24, HIGH: one account per name whatever the spelling.

A username's canonical form is NFKC + case fold (``kanagame.accounts.names.username_key``).
The database holds it in a unique column (``accounts.CanonicalUsername``), every lookup and
every form uses it, and the login limiter counts per canonical name: a case twin can no longer
exist, so it can no longer reset the victim's failure counter.
"""

import pytest
from django.apps import apps as global_apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from factories import ClassroomFactory, UserFactory

from kanagame.accounts.models import CanonicalUsername, LoginFailure, Role
from kanagame.accounts.names import canonical_usernames_backfill, username_key
from kanagame.accounts.services import user_create
from learning.classroom.services.classroom import ClassroomError, student_join, username_generate

User = get_user_model()
SCHOOL = "203.0.113.7"
VICTIM_PASSWORD = "victim-kana-2026"
ATTACKER_PASSWORD = "attacker-kana-2026"


def _signup(client: Client, username: str, password: str = ATTACKER_PASSWORD):
    return client.post(
        "/signup/",
        {"role": "self", "username": username, "password1": password, "password2": password},
        REMOTE_ADDR=SCHOOL,
    )


def _login(username: str, password: str):
    return Client().post(
        "/login/", {"username": username, "password": password}, REMOTE_ADDR=SCHOOL
    )


@pytest.fixture
def victim(db):
    return UserFactory(username="student4", password=VICTIM_PASSWORD)


@pytest.mark.parametrize("spelling", ["Ｓtudent4", "ｓtudent4", "STUDENT4", "ｓｔｕｄｅｎｔ４"])
def test_a_twin_sign_up_is_refused_with_a_form_error(victim, spelling):
    response = _signup(Client(), spelling)
    assert response.status_code == 400
    assert "This username is taken" in response.content.decode()
    assert User.objects.count() == 1


def test_the_24_guess_attack_of_the_issue_gets_five_guesses(victim, settings):
    """4 wrong guesses at the victim, 1 right log-in to the twin, repeated: 24/24 before."""
    settings.LOGIN_FAILURE_LIMIT = 5
    _signup(Client(), "Ｓtudent4")
    evaluated = 0
    for round_ in range(6):
        for guess in range(4):
            status = _login("student4", f"guess-{round_}-{guess}").status_code
            assert status in (200, 429)
            evaluated += status == 200
        _login("Ｓtudent4", ATTACKER_PASSWORD)  # the twin's log-in (no twin any more)
    assert evaluated <= 5
    assert _login("student4", VICTIM_PASSWORD).status_code == 429


def test_every_spelling_signs_in_to_the_one_account(victim):
    for spelling in ["student4", "Student4", "STUDENT4", "ｓｔｕｄｅｎｔ４", " Ｓtudent4 "]:
        client = Client()
        response = client.post(
            "/login/", {"username": spelling, "password": VICTIM_PASSWORD}, REMOTE_ADDR=SCHOOL
        )
        assert response.status_code == 302, spelling
        assert client.session["_auth_user_id"] == str(victim.pk)


def test_the_database_refuses_a_second_account_with_the_same_canonical_name(victim):
    for twin in ["Student4", "STUDENT4", "ｓtudent4"]:
        with pytest.raises(IntegrityError), transaction.atomic():
            User.objects.create_user(username=twin, password="x")
    assert User.objects.count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        CanonicalUsername.objects.create(user=UserFactory(username="other"), name="student4")


def test_case_folding_is_unicode_wide():
    """SQLite's LOWER() folds ASCII only; the canonical form folds every script."""
    assert username_key("Straße") == username_key("STRASSE") == "strasse"
    assert username_key("Émile") == username_key("émile")
    assert username_key("ＤＡＮＡ") == "dana"
    assert username_key(" ｄana\u3000") == "dana"


def test_unicode_twins_are_refused(db):
    user_create(username="Émile", password=ATTACKER_PASSWORD, role=Role.SELF_LEARNER)
    with pytest.raises(IntegrityError), transaction.atomic():
        user_create(username="émile", password=ATTACKER_PASSWORD, role=Role.SELF_LEARNER)
    response = _signup(Client(), "ÉMILE")
    assert response.status_code == 400 and "This username is taken" in response.content.decode()


def test_renaming_a_user_keeps_the_canonical_name_in_step(victim):
    victim.username = "student5"
    victim.save()
    assert CanonicalUsername.objects.get(user=victim).name == "student5"
    UserFactory(username="Student4")  # the old name is free again


def test_a_success_never_resets_another_names_counter(victim, settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    UserFactory(username="bob", password=ATTACKER_PASSWORD)
    for guess in range(4):
        assert _login("STUDENT4", f"guess-{guess}").status_code == 200
    assert _login("bob", ATTACKER_PASSWORD).status_code == 302
    assert _login("ｓtudent4", "guess-5").status_code == 429  # the 5th failure locks
    assert set(LoginFailure.objects.values_list("username", flat=True)) == {"student4"}


def test_join_by_code_refuses_a_case_twin(db):
    UserFactory(username="Hana7", role=Role.SELF_LEARNER)
    classroom = ClassroomFactory()
    with pytest.raises(ClassroomError, match="taken"):
        student_join(
            code=classroom.join_code, display_name="Hana", password="hana-kana-2026",
            username="hana7",
        )  # fmt: skip
    assert User.objects.filter(username__iexact="hana7").count() == 1


def test_join_page_answers_a_form_error_for_a_twin(db):
    UserFactory(username="Hana7", role=Role.SELF_LEARNER)
    classroom = ClassroomFactory()
    data = {"code": classroom.join_code, "display_name": "Hana", "username": "hana7",
            "password": "hana-kana-2026", "password_again": "hana-kana-2026"}  # fmt: skip
    response = Client().post("/join/", data, REMOTE_ADDR=SCHOOL)
    assert response.status_code == 400
    assert "taken" in response.content.decode()


def test_generated_usernames_skip_a_case_twin(db):
    UserFactory(username="HANA", role=Role.SELF_LEARNER)
    UserFactory(username="Ｈana-2", role=Role.SELF_LEARNER)
    assert username_generate(display_name="Hana") == "hana-3"


def test_the_backfill_reports_existing_collisions_and_keeps_the_oldest(db, capsys):
    """Rows written before the constraint (bulk_create skips the signal): the oldest account
    keeps the name, later twins are switched off and reported."""
    older, twin, alone = User.objects.bulk_create(
        [User(username="student4"), User(username="Ｓtudent4"), User(username="alone")]
    )
    CanonicalUsername.objects.all().delete()
    report = canonical_usernames_backfill(global_apps)
    assert CanonicalUsername.objects.get(user=older).name == "student4"
    assert CanonicalUsername.objects.get(user=alone).name == "alone"
    twin.refresh_from_db()
    assert not twin.is_active
    assert CanonicalUsername.objects.get(user=twin).name != "student4"
    assert report == [("student4", older.pk, [twin.pk])]
    assert "student4" in capsys.readouterr().out


def test_the_admin_refuses_a_twin_with_a_form_error(db):
    root = User.objects.create_superuser("root", password="root-kana-2026")
    UserFactory(username="straße")
    client = Client()
    client.force_login(root)
    data = {"username": "STRASSE", "password1": "x-kana-2026-long", "password2": "x-kana-2026-long",
            "usable_password": "true"}  # fmt: skip
    response = client.post("/admin/auth/user/add/", data)
    assert response.status_code == 200
    assert "This username is taken" in response.content.decode()
    assert not User.objects.filter(username="STRASSE").exists()
