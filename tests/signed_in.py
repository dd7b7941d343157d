"""A signed-in test client for tests that send thousands of requests.

``Client.force_login`` runs Django's whole ``login()`` for each client: a session created,
its key cycled (a second row, the first deleted), ``user_logged_in`` sent and ``last_login``
written (7 ms here, 1,750 times in the URL fuzzer). ``signed_in`` logs each user in that way
once per process and password, keeps the session's contents, and gives every later client a
new session row holding the same contents: the requests see what ``force_login`` would have
left them, without the sign-in's own writes (``last_login``, which those tests ignore).
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.test import Client

_CONTENTS: dict[tuple[int, str], dict] = {}  # (user id, password hash) -> the session's items


def signed_in(user, **client_options) -> Client:
    """A new ``Client(**client_options)``, signed in as ``user`` (anonymous for None)."""
    client = Client(**client_options)
    if user is None:
        return client
    key = (user.pk, user.password)
    if key not in _CONTENTS:
        first = Client()
        first.force_login(user)
        _CONTENTS[key] = dict(first.session.items())
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store.update(_CONTENTS[key])
    store.create()
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    return client
