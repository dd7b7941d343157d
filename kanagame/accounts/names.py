"""One account per name whatever the spelling (docs/security.md, "One name, one account").

A username's canonical form (``username_key``) is what is left once every difference a person
would not see or not mean is gone: surrounding spaces, full-width and compatibility forms
(Unicode NFKC) and letter case in every script (Unicode case folding, not SQLite's ASCII-only
``LOWER``): ``Ｓtudent4``, ``ｓtudent4``, ``STUDENT4`` and ``student4`` are one name.

The database holds that form for every user in a unique column (``CanonicalUsername``), so two
accounts can never share it, whatever path created them (sign-up, /join/, rosters, the admin,
``createsuperuser``). Every lookup of an account by name (the sign-in backend, the forms'
"taken" checks, generated usernames) and the login limiter's key use it.

The row follows the user through two receivers of ``User`` saves, connected in
``AccountsConfig.ready``: an integrity rule of the data, not a business rule, so it holds for
code that never calls our services. ``QuerySet.bulk_create``/``update`` skip signals: their
callers write the rows themselves (``canonical_usernames_create``).
"""

from __future__ import annotations

import unicodedata

from django.db import IntegrityError

from kanagame.accounts.models import CanonicalUsername


class UsernameTaken(IntegrityError):
    """Another account already has this username in its canonical form."""


def username_key(raw: str) -> str:
    """The canonical form of a username: stripped, NFKC, case-folded, NFKC again.

    NFKC after folding as well: folding may produce characters NFKC would change again
    (Unicode's NFKC_Casefold), so the form is stable when applied twice.
    """
    folded = unicodedata.normalize("NFKC", (raw or "").strip()).casefold()
    return unicodedata.normalize("NFKC", folded).strip()[:150]


def username_taken(raw: str, *, except_user_id: int | None = None) -> bool:
    """Whether an account other than ``except_user_id`` has this name in any spelling."""
    rows = CanonicalUsername.objects.filter(name=username_key(raw))
    if except_user_id is not None:
        rows = rows.exclude(user_id=except_user_id)
    return rows.exists()


def canonical_usernames_create(users) -> None:
    """The canonical rows of users created with ``bulk_create`` (which sends no signal)."""
    CanonicalUsername.objects.bulk_create(
        [CanonicalUsername(user_id=user.pk, name=username_key(user.username)) for user in users]
    )


# --- receivers (connected in AccountsConfig.ready) ------------------------------------------


def _username_written(kwargs) -> bool:
    update_fields = kwargs.get("update_fields")
    return update_fields is None or "username" in update_fields


def user_pre_save(sender, instance, raw=False, **kwargs) -> None:
    """Refuse a name another account has in any spelling before the user row is written:
    outside a transaction the user row would otherwise stay without its canonical row."""
    if raw or not _username_written(kwargs):
        return
    if username_taken(instance.username, except_user_id=instance.pk):
        raise UsernameTaken(f"username {username_key(instance.username)!r} is taken")


def user_post_save(sender, instance, created, raw=False, **kwargs) -> None:
    """Write the canonical row; the unique constraint settles concurrent sign-ups."""
    if raw or not (created or _username_written(kwargs)):
        return
    CanonicalUsername.objects.update_or_create(
        user_id=instance.pk, defaults={"name": username_key(instance.username)}
    )


# --- the migration that introduced the column -------------------------------------------------


def canonical_usernames_backfill(apps, *, out=print) -> list[tuple[str, int, list[int]]]:
    """Give every user its canonical row; report and settle names shared by several accounts.

    Decision (docs/security.md): the oldest account (lowest id) keeps the name; each later
    twin is switched off (``is_active=False``: it can no longer sign in) and keeps a
    placeholder canonical name with a space in it, which no valid username can have, so it
    collides with nothing. An administrator renames it to bring it back. Returns
    ``[(name, kept_user_id, [switched_off_ids])]`` and prints one line per collision.
    """
    user_model = apps.get_model("auth", "User")
    canonical_model = apps.get_model("accounts", "CanonicalUsername")
    by_name: dict[str, list[int]] = {}
    for pk, username in user_model.objects.order_by("pk").values_list("pk", "username"):
        by_name.setdefault(username_key(username), []).append(pk)
    rows, report = [], []
    for name, ids in by_name.items():
        rows.append(canonical_model(user_id=ids[0], name=name))
        if len(ids) > 1:
            twins = ids[1:]
            rows += [canonical_model(user_id=pk, name=f"{name} #{pk}") for pk in twins]
            user_model.objects.filter(pk__in=twins).update(is_active=False)
            report.append((name, ids[0], twins))
            out(
                f"accounts: username {name!r} is shared: user {ids[0]} keeps it, "
                f"user(s) {', '.join(map(str, twins))} switched off (rename to restore)"
            )
    canonical_model.objects.bulk_create(rows, batch_size=1000)
    return report
