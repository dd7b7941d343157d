"""Teacher dashboard and CSV export on a school-sized history.

    .venv/bin/python bench/dashboard.py                       # SQLite (file under /tmp)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kanagame_bench \
        .venv/bin/python bench/dashboard.py

Builds (once; reused on later runs unless --rebuild) a school of 10 classes x 30 students
with a 90-day term: about 2 million LearningEvent rows (inserted in batches with
``executemany``), a KanaMemory row per student and kana, ~20 finished games per student,
3 assignments per class. Then refreshes the summary tables (what the Celery beat task does),
and times, through the Django test client, the dashboard of one class (``/teach/<id>/``) and
the streamed CSV export of its per-student per-kana progress. Prints a markdown row.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
os.environ.setdefault("SQLITE_PATH", "/tmp/kanagame_bench_dashboard.sqlite3")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django  # noqa: E402

CLASSES = 10
STUDENTS = 30
TERM_DAYS = 90
EVENTS_TARGET = 2_000_000
GAMES_PER_STUDENT = 20
BATCH = 20_000


def _ensure_postgres_database(*, rebuild: bool) -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if rebuild:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def build(rng: random.Random, now: datetime) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import connection, transaction

    from games.models import Seat, Table, TableStatus
    from kanagame.accounts.models import Profile
    from learning.classroom.models import Assignment, Classroom, Membership
    from learning.kana_table import VISUAL_CONFUSABLES
    from learning.models import Kana, KanaMemory

    user_model = get_user_model()
    password = make_password("kana-bench-2026")
    kana = list(Kana.objects.values_list("kana_id", "script"))
    confusable = {}
    for script, groups in VISUAL_CONFUSABLES.items():
        for group in groups:
            for kana_id in group:
                confusable.setdefault((kana_id, script), []).extend(
                    k for k in group if k != kana_id
                )
    with transaction.atomic():
        teachers = user_model.objects.bulk_create(
            [user_model(username=f"bench-teacher{i}", password=password) for i in range(CLASSES)]
        )
        teachers = list(user_model.objects.filter(username__startswith="bench-teacher"))
        Profile.objects.bulk_create([Profile(user=t, role="teacher") for t in teachers])
        classes = [
            Classroom.objects.create(teacher=t, name=f"Bench class {i}", join_code=f"BEN{i:03d}")
            for i, t in enumerate(teachers)
        ]
        user_model.objects.bulk_create(
            [user_model(username=f"bench-s{c}-{s}", password=password)
             for c in range(CLASSES) for s in range(STUDENTS)]
        )  # fmt: skip
        students = {
            u.username: u for u in user_model.objects.filter(username__startswith="bench-s")
        }
        Profile.objects.bulk_create(
            [Profile(user=u, role="student", display_name=f"Student {name[7:]}")
             for name, u in students.items()]
        )  # fmt: skip
        Membership.objects.bulk_create(
            [Membership(classroom=classes[c], student=students[f"bench-s{c}-{s}"])
             for c in range(CLASSES) for s in range(STUDENTS)]
        )  # fmt: skip
        for classroom in classes:
            for k in range(3):
                assignment = Assignment.objects.create(
                    classroom=classroom, title=f"Week {k + 1}", script="katakana",
                    due_at=now + timedelta(days=7 * k - 7), goal_kind=("games", "minutes",
                    "reviews")[k], goal_value=(3, 30, 50)[k],
                )  # fmt: skip
                Assignment.objects.filter(pk=assignment.pk).update(
                    created_at=now - timedelta(days=7 * (3 - k))
                )
        memories = []
        for user in students.values():
            for kana_id, script in kana:
                reps = rng.randint(0, 30)
                if reps == 0:
                    continue
                memories.append(KanaMemory(
                    learner=user, kana_id=kana_id, script=script, reps=reps,
                    errors=rng.randint(0, reps // 3), lapses=rng.randint(0, 3),
                    exposures=reps * 3, stability=rng.uniform(0.5, 60),
                    due=now + timedelta(days=rng.uniform(-10, 40)),
                    last_review=now - timedelta(days=rng.uniform(0, 20)),
                ))  # fmt: skip
        KanaMemory.objects.bulk_create(memories, batch_size=5000)
        tables, seats = [], []
        for user in students.values():
            for _g in range(GAMES_PER_STUDENT):
                started = now - timedelta(days=rng.uniform(0, TERM_DAYS))
                tables.append(Table(
                    engine="kazoku-families", options={"variant": "kana", "script": "katakana"},
                    players=2, status=TableStatus.FINISHED, created_by=user,
                    started_at=started, finished_at=started + timedelta(minutes=rng.randint(4, 20)),
                    version=30, code=f"B{len(tables):07d}",
                ))  # fmt: skip
        Table.objects.bulk_create(tables, batch_size=5000)
        users = list(students.values())
        for i, table in enumerate(Table.objects.filter(code__startswith="B").order_by("code")):
            user = users[i // GAMES_PER_STUDENT]
            seats.append(Seat(table=table, index=0, user=user, joined_at=table.started_at,
                              last_seen_at=table.finished_at))  # fmt: skip
            seats.append(Seat(table=table, index=1, bot_level="normal"))
        Seat.objects.bulk_create(seats, batch_size=5000)
    per_student = EVENTS_TARGET // len(students)
    sql = (
        "INSERT INTO learning_learningevent (learner_id, kana_id, script, kind, correct, "
        "confused_with, response_ms, source, created_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
    )
    columns = ("learner_id", "kana_id", "script", "kind", "correct", "confused_with",
               "response_ms", "source", "created_at")  # fmt: skip
    inserted = 0
    for rows in _event_batches(students.values(), per_student, kana, confusable, rng, now):
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":  # COPY: several times faster than INSERTs
                copy_sql = f"COPY learning_learningevent ({', '.join(columns)}) FROM STDIN"
                with cursor.cursor.copy(copy_sql) as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                cursor.executemany(sql, rows)
        inserted += len(rows)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"built: {len(students)} students, {inserted} events", file=sys.stderr)


def _event_batches(students, per_student, kana, confusable, rng, now):
    """Rows of a term of events, in batches: 65 % exposures, answers 85 % right (55 % for the
    one student in ten who struggles), wrong answers naming a look-alike kana."""
    rows = []
    for user in students:
        weak = rng.random() < 0.1
        for _e in range(per_student):
            kana_id, script = kana[rng.randrange(len(kana))]
            at = now - timedelta(seconds=rng.uniform(0, TERM_DAYS * 86400))
            if rng.random() < 0.65:
                rows.append((user.pk, kana_id, script, "exposure", None, "", None, "play", at))
            else:
                correct = rng.random() > (0.45 if weak else 0.15)
                wrong = "" if correct else rng.choice(confusable.get((kana_id, script), [""]))
                rows.append((user.pk, kana_id, script, "answer", correct, wrong,
                             rng.randint(600, 9000), "prompt", at))  # fmt: skip
            if len(rows) >= BATCH:
                yield rows
                rows = []
    if rows:
        yield rows


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild", action="store_true", help="drop and rebuild the data")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    _ensure_postgres_database(rebuild=args.rebuild)
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from learning.classroom.models import Classroom
    from learning.classroom.services.summaries import summaries_refresh_classes
    from learning.models import LearningEvent

    settings.ALLOWED_HOSTS = ["*"]
    setup_test_environment()
    if args.rebuild and connection.vendor == "sqlite":
        connection.close()
        Path(settings.DATABASES["default"]["NAME"]).unlink(missing_ok=True)
    call_command("migrate", verbosity=0)
    now = datetime.now(UTC)
    build_seconds = None
    if not Classroom.objects.filter(name__startswith="Bench class").exists():
        start = time.perf_counter()
        build(random.Random(2026), now)
        build_seconds = time.perf_counter() - start
    events = LearningEvent.objects.count()
    start = time.perf_counter()
    summaries_refresh_classes()
    refresh_seconds = time.perf_counter() - start

    classroom = Classroom.objects.filter(name="Bench class 3").select_related("teacher").get()
    client = Client()
    client.force_login(classroom.teacher)
    url = f"/teach/{classroom.pk}/"
    csv_url = f"/teach/{classroom.pk}/export/progress.csv"

    def dashboard():
        response = client.get(url)
        assert response.status_code == 200, response.status_code

    csv_rows = []

    def export():
        response = client.get(csv_url)
        assert response.status_code == 200
        body = b"".join(response.streaming_content)
        csv_rows.append(body.count(b"\n"))

    dashboard()  # warm caches, templates
    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        dashboard()
    dash_ms = timed(dashboard, args.repeat)
    csv_ms = timed(export, max(3, args.repeat // 2))
    print(
        f"| {connection.vendor} | {events:,} | {refresh_seconds:.1f} s | "
        f"{statistics.median(dash_ms):.0f} ms (p max {max(dash_ms):.0f}) | {len(queries)} | "
        f"{statistics.median(csv_ms):.0f} ms ({csv_rows[-1]:,} lines) |"
        + (f" built in {build_seconds:.0f} s" if build_seconds else "")
    )


if __name__ == "__main__":
    main()
