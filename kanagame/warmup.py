"""A web process's start-up: what its first requests would build, built before the GC freeze.

A gunicorn worker imports ``kanagame.wsgi`` and then freezes every object alive at that
point out of the cyclic garbage collector's sight (``gc_tune``). Much of what a worker keeps
for its whole life is only built by its first requests, though: the URLconf and every view
module it imports (the engines, the presenters, the QR encoder...), the compiled templates,
the translation catalogues, the password hashers, the static files' manifest, the engines'
indexes. Left to the first requests, those objects end in the oldest generation, and every
full collection walks them again (~15,000 objects; a full collection ~3.6 ms instead of ~0.5
in a probe). ``warm_up`` builds them first, without touching the database, so that the freeze
takes them too. The larger part of the GC tail was elsewhere: see ``CollectBetweenRequests``
(docs/bench.md, "Cheaper requests, the GC tail and the session engine").

Each step is independent and best effort: a step that fails is logged and skipped (the
request that needs it builds it later, as before); it never stops a worker from starting.
"""

from __future__ import annotations

import gc
import logging
import random
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_backends
from django.contrib.auth.hashers import get_hashers
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template import engines as template_engines
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation
from django.utils.module_loading import import_string

from games.boards import presenter_for
from games.engines import ENGINES, get_engine
from learning import kana_table

logger = logging.getLogger(__name__)

ENGINE_STEPS = 40  # moves played per engine and player count (indexes, bots' caches)


def urlconf_load() -> None:
    """The URLconf, and with it every view module and what those import."""
    get_resolver()._populate()


def templates_compile() -> None:
    """Every project template, compiled into the cached loader."""
    for folder in settings.TEMPLATES[0]["DIRS"]:
        root = Path(folder)
        for path in sorted(root.rglob("*.html")):
            try:
                get_template(path.relative_to(root).as_posix())
            except (TemplateDoesNotExist, TemplateSyntaxError):  # an include-only fragment
                continue


def catalogues_load() -> None:
    """The translation catalogue of every language the site speaks."""
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Log in")


def engines_play() -> None:
    """A few seeded moves of every engine at every player count: its modules, its indexes
    and its bots' tables (pure Python: no database); and its presenter's module."""
    for name in ENGINES:
        eng = get_engine(name)
        presenter_for(name)
        for players in range(eng.MIN_PLAYERS, eng.MAX_PLAYERS + 1):
            rng = random.Random(players)
            state = eng.new_game(players, seed=players)
            for _step in range(ENGINE_STEPS):
                if eng.is_over(state) or not eng.to_act(state):
                    break
                seat = eng.to_act(state)[0]
                legal = eng.legal_actions(state, seat)
                eng.view(state, seat)
                choice = eng.bot("normal").choose(eng.bot_view(state, seat), legal, rng)
                state, _events = eng.apply(state, seat, choice)
            eng.from_json(eng.to_json(state))


def others_load() -> None:
    """The password hashers (and Argon2's bindings), the context processors, the message and
    session serialisers, the kana catalogue, the static files' manifest."""
    for hasher in get_hashers():
        if hasattr(hasher, "_load_library") and getattr(hasher, "library", None):
            hasher._load_library()
    for backend in template_engines.all():
        if hasattr(backend, "engine"):  # Django's own template engine
            backend.engine.template_context_processors  # noqa: B018 (a cached import)
    get_backends()
    import_string(settings.MESSAGE_STORAGE)
    import_string(settings.SESSION_SERIALIZER)
    kana_table.catalog()
    if hasattr(staticfiles_storage, "load_manifest"):
        staticfiles_storage.url("css/kanagame.css")


STEPS: list[Callable[[], None]] = [
    urlconf_load,
    templates_compile,
    catalogues_load,
    engines_play,
    others_load,
]


def warm_up() -> dict[str, float]:
    """Run every step; returns the milliseconds each took (a failed step is logged)."""
    took = {}
    for step in STEPS:
        started = time.perf_counter()
        try:
            step()
        except Exception:  # best effort: the first request builds it instead
            logger.warning("warm-up step %s failed", step.__name__, exc_info=True)
        took[step.__name__] = round((time.perf_counter() - started) * 1000, 1)
    return took


def gc_tune() -> None:
    """The cyclic garbage collector, tuned for a web process (docs/bench.md, "Classroom load"):

    - what start-up created (Django, the apps, and what ``warm_up`` built) lives as long as
      the process: frozen out of the collector's sight, a full collection walks only what
      requests left behind;
    - collections are rare: the youngest generation every 20,000 allocations (not 700).
      ``CollectBetweenRequests`` runs them between requests instead, when nothing of the
      request before is alive any more.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def collect_between_requests() -> None:
    """Collect the youngest generation, or an older one when its turn has come by the
    collector's own counts and thresholds (every 20 younger collections)."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    generation = next((g for g in (2, 1) if counts[g] >= thresholds[g]), 0)
    gc.collect(generation)


class CollectBetweenRequests:
    """A WSGI wrapper: once a response is sent and closed, and nothing refers to it any more,
    the garbage collector runs (``collect_between_requests``), before the next request.

    A request of ours leaves a few hundred objects in reference cycles (Django's lazy
    ``request.user`` alone ties the request to itself, and everything the request refers to
    waits for the collector). A collection walks ~1 µs per object on the reference machine:
    20,000 of them piled up cost the request that tripped the threshold 10–40 ms, and what
    a collection found alive mid-request (that request's own objects) was promoted and walked
    again by every full collection. Between requests the young objects are nearly all
    garbage: the collection is short and promotes almost nothing. The client has its whole
    answer by then (``Content-Length``); the worker takes its next request a little later.
    Files streamed by the server (``wsgi.file_wrapper``) pass through unwrapped.
    """

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        response = self.app(environ, start_response)
        file_wrapper = environ.get("wsgi.file_wrapper")
        if file_wrapper is not None and isinstance(response, file_wrapper):
            return response
        return _ThenCollect(response)


class _ThenCollect:
    """The response's body, then ``close``: the response closed and dropped, then collect."""

    __slots__ = ("response",)

    def __init__(self, response) -> None:
        self.response = response

    def __iter__(self):
        return iter(self.response)

    def close(self) -> None:
        response, self.response = self.response, None
        try:
            if hasattr(response, "close"):
                response.close()
        finally:
            del response
            collect_between_requests()
