"""Account services: creating users with their role (teacher, student, self-learner)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UsernameField
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from kanagame.accounts.models import LoginFailure, Profile, Role

User = get_user_model()


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    role: str,
    display_name: str = "",
    email: str = "",
    created_by: AbstractBaseUser | None = None,
) -> AbstractBaseUser:
    """Create a user and their Profile in one transaction.

    Password strength is the caller's form's business (Django's validators); this service only
    refuses what would corrupt data: an unknown role or an empty username/password.
    """
    if role not in Role.values:
        raise ValueError(f"unknown role {role!r}; expected one of {', '.join(Role.values)}")
    username = username.strip()
    if not username:
        raise ValueError("username must not be empty")
    if not password:
        raise ValueError("password must not be empty")
    user = User.objects.create_user(username=username, password=password, email=email.strip())
    Profile.objects.create(
        user=user, role=role, display_name=display_name.strip(), created_by=created_by
    )
    return user


def user_role(*, user) -> str | None:
    """The user's role, or None for anonymous users and accounts without a profile (admins)."""
    if user is None or not user.is_authenticated:
        return None
    profile = getattr(user, "profile", None)
    return profile.role if profile else None


# --- Login rate limiting -------------------------------------------------------------------
# Keyed on (account, address): a whole class logging in from one school address never
# trips it, while one account hammered from one address is held back for a cool-off.

# The very field Django's AuthenticationForm (and the admin's) cleans the username with.
_USERNAME_FIELD = UsernameField(max_length=150)


def username_canonical(raw: str) -> str:
    """The username exactly as authentication resolves it: stripped, then NFKC-normalised.

    Django's login form runs this same field before ``authenticate()``, so the full-width
    ``ｌoginkid`` reaches the account ``loginkid``; the limiter must count both together.
    """
    return _USERNAME_FIELD.to_python(raw or "")


def _limiter_key(username: str) -> str:
    # Lower-cased on top: "Bob" and "bob" share a counter (sign-up forbids both existing),
    # which can only make the limiter stricter than authentication, never looser.
    return username_canonical(username).lower()[:150]


def _cooloff() -> timedelta:
    return timedelta(minutes=settings.LOGIN_COOLOFF_MINUTES)


def login_lockout_remaining(
    *, username: str, ip_address: str, now: datetime | None = None
) -> timedelta | None:
    """How long this (username, address) must still wait, or None when it may try now.

    Locked while at least LOGIN_FAILURE_LIMIT failures fall inside the cool-off window; the
    lock ends when the oldest of the last LOGIN_FAILURE_LIMIT failures leaves the window.
    """
    now = now or timezone.now()
    limit = settings.LOGIN_FAILURE_LIMIT
    recent = list(
        LoginFailure.objects.filter(
            username=_limiter_key(username),
            ip_address=ip_address,
            created_at__gt=now - _cooloff(),
        )
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(recent) < limit:
        return None
    return recent[limit - 1] + _cooloff() - now


def login_failure_record(*, username: str, ip_address: str, now: datetime | None = None) -> None:
    """Count one failed login; forget failures older than the cool-off window."""
    now = now or timezone.now()
    LoginFailure.objects.filter(created_at__lte=now - _cooloff()).delete()
    LoginFailure.objects.create(
        username=_limiter_key(username), ip_address=ip_address, created_at=now
    )


def login_failures_clear(*, username: str, ip_address: str) -> None:
    """A successful login wipes that key's failures."""
    LoginFailure.objects.filter(username=_limiter_key(username), ip_address=ip_address).delete()
