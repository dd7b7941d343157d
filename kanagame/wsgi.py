import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
application = get_wsgi_application()

# The cyclic garbage collector, tuned for a web process (docs/bench.md, "Classroom load"):
# - what start-up created (Django, the apps, the card decks) lives as long as the process:
#   frozen out of the collector's sight, a full collection costs ~20 ms instead of ~90;
# - a request allocates thousands of short-lived objects: collecting the youngest generation
#   every 20,000 allocations instead of 700 cuts the collector's share of a request's CPU
#   from ~0.4 ms to ~0.05 ms on average (the young garbage is gone by then; memory stays flat).
gc.collect()
gc.freeze()
gc.set_threshold(20_000, 20, 20)
