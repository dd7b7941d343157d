"""Demo data for `make run`: a teacher, a class of five students, a self-learner.

Idempotent: running it twice changes nothing. At the end it calls each team's own demo
function when its module exists (games, learning history, classroom extras), so that
`make run` always shows the whole product.
"""

import importlib
import importlib.util

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from kanagame.accounts.models import Profile, Role
from kanagame.accounts.services import user_create
from learning.classroom.models import Classroom, Membership

DEMO_PASSWORD = "kana-demo-2026"
DEMO_CLASS_NAME = "Demo class"
DEMO_JOIN_CODE = "DEMO-KANA"
TEACHER = ("teacher", "Ms Tanaka")
STUDENTS = [
    (f"student{n}", name)
    for n, name in enumerate(["Aiko", "Ben", "Chloé", "Daichi", "Emma"], start=1)
]
SELF_LEARNER = ("learner", "Sam")

# (module, function): each team's idempotent hook, called with the command's stdout.
TEAM_HOOKS = [
    ("games.demo", "seed_demo_games"),
    ("learning.demo_learning", "seed_demo_learning"),
    ("learning.classroom.demo", "seed_demo_classroom"),
]

User = get_user_model()


def _demo_user(*, username: str, display_name: str, role: str, created_by=None):
    """Get or create a demo user; make sure role, name and the demo password are as printed."""
    user = User.objects.filter(username=username).first()
    if user is None:
        return user_create(
            username=username,
            password=DEMO_PASSWORD,
            role=role,
            display_name=display_name,
            created_by=created_by,
        )
    if not user.check_password(DEMO_PASSWORD):
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    Profile.objects.update_or_create(
        user=user,
        defaults={"role": role, "display_name": display_name, "created_by": created_by},
    )
    return user


class Command(BaseCommand):
    help = "Create the demo teacher, class, students and self-learner (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/",
            help="where the site will be served, for the closing hint (make run passes it)",
        )

    def handle(self, *args, **options) -> None:
        with transaction.atomic():
            teacher = _demo_user(username=TEACHER[0], display_name=TEACHER[1], role=Role.TEACHER)
            classroom, _ = Classroom.objects.get_or_create(
                join_code=DEMO_JOIN_CODE,
                defaults={"teacher": teacher, "name": DEMO_CLASS_NAME, "level": "Beginners"},
            )
            for username, name in STUDENTS:
                student = _demo_user(
                    username=username,
                    display_name=name,
                    role=Role.STUDENT,
                    created_by=classroom.teacher,
                )
                Membership.objects.get_or_create(classroom=classroom, student=student)
            _demo_user(
                username=SELF_LEARNER[0], display_name=SELF_LEARNER[1], role=Role.SELF_LEARNER
            )

        for module_name, function_name in TEAM_HOOKS:
            if importlib.util.find_spec(module_name) is None:
                continue
            hook = getattr(importlib.import_module(module_name), function_name)
            hook(self.stdout)

        self._print_logins(classroom, options["url"])

    def _print_logins(self, classroom: Classroom, url: str) -> None:
        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS(f"Demo logins (password for all: {DEMO_PASSWORD})"))
        self.stdout.write(
            f"  teacher   {TEACHER[0]:<10} teaches “{classroom.name}” "
            f"(join code {classroom.join_code})"
        )
        for username, name in STUDENTS:
            self.stdout.write(f"  student   {username:<10} {name}")
        self.stdout.write(f"  learner   {SELF_LEARNER[0]:<10} {SELF_LEARNER[1]} (self-learner)")
        self.stdout.write(f"Open {url.rstrip('/')}/login/ and sign in with one of them.")
