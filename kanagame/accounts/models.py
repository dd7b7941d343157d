from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    TEACHER = "teacher", _("Teacher")
    STUDENT = "student", _("Student")
    SELF_LEARNER = "self", _("Self-learner")


class Profile(models.Model):
    """One per user: the role, and the learner side shared by students and self-learners."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    # The teacher whose roster made this student account, or whose class code the student
    # typed when the account was created on /join/. Only that teacher may reset its password
    # (docs/security.md, "Teacher takeover"); never changed afterwards.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="accounts_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "learning_profile"  # the table predates the accounts app: no row moves

    def __str__(self) -> str:
        return f"{self.name} ({self.role})"

    @property
    def name(self) -> str:
        return self.display_name or self.user.username

    @property
    def is_teacher(self) -> bool:
        return self.role == Role.TEACHER

    @property
    def is_learner(self) -> bool:
        return self.role in (Role.STUDENT, Role.SELF_LEARNER)


class LoginFailure(models.Model):
    """One failed login, keyed on (username, address): the login rate limiter counts these.

    Kept in the database so that the limiter works on the embedded default (no Redis) and
    across several web processes; rows older than the cool-off window are pruned on the go.
    """

    username = models.CharField(max_length=150)
    ip_address = models.CharField(max_length=45)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "learning_loginfailure"
        indexes = [
            models.Index(fields=["username", "ip_address", "created_at"], name="loginfail_key_at"),
        ]

    def __str__(self) -> str:
        return f"{self.username}@{self.ip_address} {self.created_at:%Y-%m-%d %H:%M:%S}"


class RateCounter(models.Model):
    """A shared counter for rate limits (wrong join codes, table codes), one row per key.

    Counted with conditional UPDATEs in the database, so that several web processes agree
    without Redis, on SQLite and PostgreSQL alike (kanagame/accounts/services.py rate_*).
    """

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "learning_ratecounter"  # the table predates the accounts app

    def __str__(self) -> str:
        return f"{self.key}={self.count} until {self.expires_at:%H:%M:%S}"


class CanonicalUsername(models.Model):
    """A user's username in its canonical form (NFKC + case fold), unique: one account per
    name whatever the spelling. Written with the user (kanagame/accounts/names.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="canonical_username",
    )
    # 150 like the username, plus room for the " #<id>" of a twin set aside by the migration.
    name = models.CharField(max_length=170, unique=True)

    def __str__(self) -> str:
        return self.name
