"""The authentication backend: Django's ``ModelBackend``, the user row read without the ORM.

Every request of a signed-in user but the cheap poll loads its user (``AuthenticationMiddleware``
-> ``backend.get_user``). Django builds and compiles that one query each time, several times
what the database takes to answer it (docs/bench.md). This backend reads the same row with SQL
built from the user model's fields (``accounts.rows``, as ``kanagame.sessions`` does for the
session) and is otherwise ``ModelBackend``: same password check, same permissions, same
``is_active`` rule, and Django still verifies the session's password hash after ``get_user``.

    AUTHENTICATION_BACKENDS = [
        "kanagame.accounts.backends.UserRowBackend",
        "django.contrib.auth.backends.ModelBackend",  # sessions signed in before it
    ]

A session stores the path of the backend that signed it in, and Django refuses a path that is
not listed: ``ModelBackend`` stays second so that sessions opened before this backend keep
working (Django loads their user the old way until they sign in again). It never checks a
password: ``UserRowBackend.authenticate`` stops the chain when it refuses (``PermissionDenied``,
as Django documents for "stop here"), so a failed sign-in hashes the password once, not twice.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from kanagame.accounts.names import username_key
from kanagame.accounts.rows import Columns, column, sql_once, table_name
from kanagame.accounts.rows import fetch as rows_fetch


@cache
def _user_columns() -> Columns:
    return Columns(get_user_model(), "u")


@sql_once
def _user_sql() -> str:
    model = get_user_model()
    return (
        f"SELECT {_user_columns().sql()} FROM {table_name(model)} u "
        f"WHERE u.{column(model, model._meta.pk.name)} = %s"
    )


class UserRowBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        """``ModelBackend.authenticate`` with the account found by its canonical name (NFKC +
        case fold, kanagame/accounts/names.py): every spelling reaches the one account that
        name can have. A refusal ends the sign-in (the legacy ``ModelBackend`` listed after
        this one is only there for old sessions' users)."""
        model = get_user_model()
        username = kwargs.get(model.USERNAME_FIELD) if username is None else username
        if username is None or password is None:
            raise PermissionDenied
        accounts = model._default_manager.filter(canonical_username__name=username_key(username))
        user = accounts.first()
        if user is None:
            model().set_password(password)  # as long as a real check: no timing difference
            raise PermissionDenied
        if not (user.check_password(password) and self.user_can_authenticate(user)):
            raise PermissionDenied
        return user

    def get_user(self, user_id):
        """``ModelBackend.get_user``: the active user of ``user_id``, else None."""
        columns = _user_columns()
        try:
            key = columns.param(get_user_model()._meta.pk.name, user_id)
        except (TypeError, ValueError):
            return None
        rows = rows_fetch(_user_sql(), [key], [columns])
        if not rows:
            return None
        user = rows[0][0]
        return user if self.user_can_authenticate(user) else None
