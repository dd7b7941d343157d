import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
application = get_wsgi_application()

# What the first requests would build (URLconf, templates, catalogues, engines' indexes) is
# built now, then everything alive is frozen out of the garbage collector's sight, and the
# collector runs between requests rather than during them (kanagame/warmup.py; docs/bench.md,
# "Cheaper requests, the GC tail and the session engine"). The two switches are for A/B runs.
from kanagame.warmup import CollectBetweenRequests, gc_tune, warm_up  # noqa: E402

if os.environ.get("KANAGAME_WARM_UP", "1") != "0":
    warm_up()
gc_tune()
if os.environ.get("KANAGAME_GC_BETWEEN_REQUESTS", "1") != "0":
    application = CollectBetweenRequests(application)
