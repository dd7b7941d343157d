"""Account services: creating users with their role (teacher, student, self-learner)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from learning.models import Profile, Role

User = get_user_model()


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    role: str,
    display_name: str = "",
    email: str = "",
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
    Profile.objects.create(user=user, role=role, display_name=display_name.strip())
    return user


def user_role(*, user) -> str | None:
    """The user's role, or None for anonymous users and accounts without a profile (admins)."""
    if user is None or not user.is_authenticated:
        return None
    profile = getattr(user, "profile", None)
    return profile.role if profile else None
