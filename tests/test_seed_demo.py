from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command

from learning.classroom.models import Classroom

User = get_user_model()


def run_seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def own_data_only(monkeypatch):
    """Skip the other teams' hooks where a test is only about the cast itself (speed)."""
    from learning.classroom.management.commands import seed_demo

    monkeypatch.setattr(seed_demo, "TEAM_HOOKS", [])


def counts() -> dict[str, int]:
    """Rows of every model: the team hooks' demo data must be idempotent too."""
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


@pytest.mark.django_db
def test_it_creates_the_demo_cast_and_prints_the_logins(own_data_only):
    output = run_seed()
    teacher = User.objects.get(username="teacher")
    assert teacher.profile.role == "teacher"
    classroom = Classroom.objects.get(name="Demo class")
    assert classroom.teacher == teacher
    assert classroom.join_code == "DEMO-KANA"
    students = sorted(m.student.username for m in classroom.memberships.all())
    assert students == [f"student{n}" for n in range(1, 6)]
    assert all(User.objects.get(username=name).profile.role == "student" for name in students)
    assert User.objects.get(username="learner").profile.role == "self"
    for username in ["teacher", "learner", *students]:
        assert username in output
        assert User.objects.get(username=username).check_password("kana-demo-2026")
    assert "kana-demo-2026" in output
    assert "DEMO-KANA" in output


@pytest.mark.django_db
def test_running_it_twice_changes_nothing():
    run_seed()
    first = counts()
    passwords = dict(User.objects.values_list("username", "password"))
    run_seed()
    assert counts() == first
    assert first["auth.User"] == 7 and first["classes.Membership"] == 5
    assert dict(User.objects.values_list("username", "password")) == passwords


@pytest.mark.django_db
def test_it_restores_the_demo_password_if_it_was_changed(own_data_only):
    run_seed()
    learner = User.objects.get(username="learner")
    learner.set_password("something-else-42")
    learner.save()
    run_seed()
    learner.refresh_from_db()
    assert learner.check_password("kana-demo-2026")


@pytest.mark.django_db
def test_the_printed_logins_work(client, own_data_only):
    run_seed()
    response = client.post("/login/", {"username": "student3", "password": "kana-demo-2026"})
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "student3"


def test_it_calls_each_team_hook_that_exists_and_skips_missing_ones(db, tmp_path, monkeypatch):
    from learning.classroom.management.commands import seed_demo

    (tmp_path / "demo_hook_probe.py").write_text(
        "CALLS = []\ndef seed(stdout):\n    CALLS.append(1)\n    stdout.write('probe hook ran')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(
        seed_demo,
        "TEAM_HOOKS",
        [
            ("demo_hook_probe", "seed"),
            ("no_such_team_module_here", "seed"),
        ],
    )
    output = run_seed()
    import demo_hook_probe

    assert demo_hook_probe.CALLS == [1]
    assert "probe hook ran" in output


def test_a_failing_hook_is_not_swallowed(db, tmp_path, monkeypatch):
    from learning.classroom.management.commands import seed_demo

    (tmp_path / "demo_hook_broken.py").write_text(
        "def seed(stdout):\n    raise RuntimeError('hook exploded')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(seed_demo, "TEAM_HOOKS", [("demo_hook_broken", "seed")])
    with pytest.raises(RuntimeError, match="hook exploded"):
        run_seed()


@pytest.mark.django_db
def test_the_closing_hint_names_the_address_make_run_serves(own_data_only):
    out = StringIO()
    call_command("seed_demo", "--url", "http://127.0.0.1:8765/", stdout=out)
    assert "Open http://127.0.0.1:8765/login/ and sign in" in out.getvalue()
    assert "Open http://127.0.0.1:8000/login/" in run_seed()  # the default: runserver's
