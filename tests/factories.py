"""One set of factories for every test (factory-boy): users with roles, classes, memberships,
assignments, tables with seats, learning events, kana memory and card sightings.

Users and classes go through the services (`user_create`, `classroom_create`), so a factory
user is exactly what sign-up makes. The named cast built from these lives in tests/conftest.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Seat, Table, TableStatus
from kanagame.accounts.models import Role
from kanagame.accounts.services import user_create
from learning.classroom.models import Assignment, AssignmentTable, Classroom, Membership
from learning.classroom.services.classroom import classroom_create
from learning.models import CardSighting, KanaMemory, LearningEvent

PASSWORD = "kana-test-2026"


class UserFactory(factory.django.DjangoModelFactory):
    """A user and their Profile, made by `user_create`; `role` defaults to student."""

    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"learner{n}")
    password = PASSWORD
    role = Role.STUDENT
    display_name = ""
    created_by = None  # the teacher who made the account (a roster, their class's /join/)

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return user_create(**kwargs)


class TeacherFactory(UserFactory):
    username = factory.Sequence(lambda n: f"teacher{n}")
    role = Role.TEACHER


class SelfLearnerFactory(UserFactory):
    username = factory.Sequence(lambda n: f"self{n}")
    role = Role.SELF_LEARNER


class ClassroomFactory(factory.django.DjangoModelFactory):
    """A class made by `classroom_create` (a fresh join code); `join_code=` pins one."""

    class Meta:
        model = Classroom

    teacher = factory.SubFactory(TeacherFactory)
    name = factory.Sequence(lambda n: f"Class {n}")
    level = ""
    default_script = "hiragana"

    @classmethod
    def _create(cls, model_class, *args, join_code: str | None = None, **kwargs):
        classroom = classroom_create(**kwargs)
        if join_code is not None:
            classroom.join_code = join_code
            classroom.save(update_fields=["join_code"])
        return classroom


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    classroom = factory.SubFactory(ClassroomFactory)
    student = factory.SubFactory(UserFactory)


class StudentFactory(UserFactory):
    """A student already enrolled: `StudentFactory(classroom=c)`."""

    @factory.post_generation
    def classroom(self, create, extracted, **kwargs):
        if create and extracted is not None:
            MembershipFactory(classroom=extracted, student=self)


class AssignmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Assignment

    classroom = factory.SubFactory(ClassroomFactory)
    due_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=7))


class LearningEventFactory(factory.django.DjangoModelFactory):
    """An answer an hour ago by default; `kind="exposure"` for exposures."""

    class Meta:
        model = LearningEvent

    learner = factory.SubFactory(UserFactory)
    kana_id = "ka"
    script = "katakana"
    kind = "answer"
    correct = True
    confused_with = ""
    response_ms = 1500
    source = "prompt"
    created_at = factory.LazyFunction(lambda: timezone.now() - timedelta(hours=1))


class CardSightingFactory(factory.django.DjangoModelFactory):
    """A learner's past sightings of one card: ``seen`` times, the last a day ago (Bozu's
    Semimaru by default)."""

    class Meta:
        model = CardSighting

    learner = factory.SubFactory(UserFactory)
    engine = "bozu"
    card = "p010"
    seen = 3
    last_seen_at = factory.LazyFunction(lambda: timezone.now() - timedelta(days=1))


MEMORY_STATES = {  # mastery state (see learning/srs.py state_of) -> (due offset, stability)
    "due": (timedelta(hours=-1), 2.0),
    "learning": (timedelta(days=2), 3.0),
    "mastered": (timedelta(days=40), 40.0),
}


class KanaMemoryFactory(factory.django.DjangoModelFactory):
    """A KanaMemory row; `state=` ("due", "learning", "mastered") sets due and stability."""

    class Meta:
        model = KanaMemory

    class Params:
        state = "learning"
        now = factory.LazyFunction(timezone.now)

    learner = factory.SubFactory(UserFactory)
    kana_id = "ka"
    script = "katakana"
    due = factory.LazyAttribute(lambda o: o.now + MEMORY_STATES[o.state][0])
    stability = factory.LazyAttribute(lambda o: MEMORY_STATES[o.state][1])
    reps = 3
    errors = 0
    last_review = factory.LazyAttribute(lambda o: o.now - timedelta(days=1))


class TableFactory(factory.django.DjangoModelFactory):
    """A table row (no engine state): for lists, dashboards and summaries."""

    class Meta:
        model = Table

    engine = "kazoku-families"
    options = factory.LazyFunction(lambda: {"variant": "kana", "script": "hiragana"})
    players = 2
    status = TableStatus.OPEN
    created_by = factory.SubFactory(UserFactory)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    index = factory.Sequence(lambda n: n)
    user = factory.SubFactory(UserFactory)


# --- Shorthands the dashboard tests read best with -------------------------------------------


def answer(learner, kana_id, *, script="katakana", correct=True, confused_with="", at=None):
    return LearningEventFactory(
        learner=learner,
        kana_id=kana_id,
        script=script,
        correct=correct,
        confused_with="" if correct else confused_with,
        **({"created_at": at} if at else {}),
    )


def memory(learner, kana_id, *, script="katakana", state="learning", errors=0, reps=3, now=None):
    """A KanaMemory row in the given mastery state (see learning/srs.py state_of)."""
    now = now or timezone.now()
    return KanaMemoryFactory(
        learner=learner, kana_id=kana_id, script=script, state=state, errors=errors, reps=reps,
        now=now,
    )  # fmt: skip


def game(
    players,
    *,
    started: datetime,
    minutes: int = 10,
    finished: bool = True,
    engine: str = "kazoku-families",
    options: dict | None = None,
    classroom=None,
    assignment=None,
):
    """A table the given players sat at from `started`, with one bot seat after theirs."""
    table = TableFactory(
        engine=engine,
        options=options or {"variant": "kana", "script": "hiragana"},
        players=len(players) + 1,
        status=TableStatus.FINISHED if finished else TableStatus.PLAYING,
        created_by=players[0],
        classroom=classroom,
        started_at=started,
        finished_at=started + timedelta(minutes=minutes) if finished else None,
        version=20,
    )
    for index, user in enumerate(players):
        SeatFactory(
            table=table, index=index, user=user, joined_at=started,
            last_seen_at=started + timedelta(minutes=minutes),
        )  # fmt: skip
    SeatFactory(table=table, index=len(players), user=None, bot_level="normal")
    if assignment is not None:  # the classroom's link row, as assignment_table_create writes it
        AssignmentTable.objects.create(assignment=assignment, table=table)
    return table


def solo_kazoku_table(user) -> Table:
    """A Kazoku families table of ``user`` against one easy CPU player, started."""
    from games.services.tables import table_create

    table = table_create(
        user=user,
        engine="kazoku-families",
        options={},
        seats=[{"kind": "human", "user": user}, {"kind": "bot", "level": "easy"}],
    )
    table.refresh_from_db()
    return table


def taught(learner, count: int = 10, *, script: str = "hiragana", at=None) -> list[str]:
    """The first ``count`` basic kana of ``script`` taught to ``learner`` by a lesson card (the
    quiz asks only kana taught or answered before, issue 27). Returns their ids."""
    from learning import kana_table

    at = at or timezone.now() - timedelta(minutes=5)
    ids = kana_table.kana_ids(script, basic_only=True)[:count]
    for kana_id in ids:
        KanaMemory.objects.update_or_create(
            learner=learner, kana_id=kana_id, script=script, defaults={"introduced_at": at}
        )
    return ids
