"""Account services: creating users with their role (teacher, student, self-learner)."""

import time
from datetime import datetime, timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from kanagame.accounts.models import LoginFailure, Profile, RateCounter, Role
from kanagame.accounts.names import username_key

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


def username_canonical(raw: str) -> str:
    """The limiter's key: the username's canonical form (NFKC + case fold), the very key the
    sign-in backend finds the account by. One account per canonical name (names.py), so every
    spelling of an account shares its counter and no other account ever shares it."""
    return username_key(raw)


def _limiter_key(username: str) -> str:
    return username_canonical(username)


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


def account_traces_delete(*, user) -> int:
    """What an account leaves outside its own rows, deleted with it: every session signed in
    as it (the other devices', which hold its id until they expire) and the failed log-ins
    to its name. Sessions are stored encoded, so the unexpired ones are read once: deleting
    an account is rare. Returns the number of sessions ended."""
    LoginFailure.objects.filter(username=username_canonical(user.get_username())).delete()
    user_id, ended = str(user.pk), []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get(SESSION_KEY) == user_id:
            ended.append(session.pk)
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for key in ended:  # through the store: a cached copy (cached_db) goes with the row
        store.delete(key)
    return len(ended)


# --- Shared rate counters ------------------------------------------------------------------
# Wrong join codes and table codes per client address. One database row per key, changed only
# by conditional UPDATEs, so every web process counts the same attempts, on SQLite and on
# PostgreSQL, with or without Redis. `rate_take` reserves an attempt *before* the guess is
# checked, so concurrent requests can never evaluate more than `limit` guesses per window.


def rate_take(*, key: str, limit: int, window_seconds: int, now: datetime | None = None) -> bool:
    """Count one attempt under `key`; False (and nothing to do) when the limit is reached."""
    return _rate_increment(key=key[:200], window_seconds=window_seconds, now=now) <= limit


def rate_refund(*, key: str) -> None:
    """Give an attempt back (the guess was right, or the form was refused for another reason)."""
    RateCounter.objects.filter(key=key[:200], count__gt=0).update(count=F("count") - 1)


def rate_count(*, key: str, now: datetime | None = None) -> int:
    now = now or timezone.now()
    row = RateCounter.objects.filter(key=key[:200], expires_at__gt=now).only("count").first()
    return row.count if row else 0


def _rate_increment(*, key: str, window_seconds: int, now: datetime | None) -> int:
    now = now or timezone.now()
    expires = now + timedelta(seconds=window_seconds)
    current = RateCounter.objects.filter(key=key)
    while True:
        with transaction.atomic():
            # The row is locked from this UPDATE to the commit: the count read back is ours.
            if current.filter(expires_at__gt=now).update(count=F("count") + 1):
                return current.values_list("count", flat=True).get()
            if current.filter(expires_at__lte=now).update(count=1, expires_at=expires):
                return 1
            try:
                with transaction.atomic():
                    RateCounter.objects.create(key=key, count=1, expires_at=expires)
            except IntegrityError:
                continue  # another process created the row meanwhile: count in it
            RateCounter.objects.filter(expires_at__lte=now - timedelta(days=1)).delete()
            return 1


# --- Session lifetime (docs/security.md §7) ------------------------------------------------
IDLE_LIMIT_KEY = "kanagame_idle_limit_s"
LAST_SEEN_KEY = "kanagame_last_seen"


def session_start(*, request, role: str | None, own_device: bool) -> None:
    """At login: the session ends with the browser unless this is the user's own device;
    a student's also ends after STUDENT_IDLE_MINUTES without a request."""
    request.session.set_expiry(settings.SESSION_COOKIE_AGE if own_device else 0)
    if role == "student":
        request.session[IDLE_LIMIT_KEY] = settings.STUDENT_IDLE_MINUTES * 60
        request.session[LAST_SEEN_KEY] = int(time.time())
    else:
        request.session.pop(IDLE_LIMIT_KEY, None)
