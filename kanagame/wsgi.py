import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
application = get_wsgi_application()

# What start-up created (Django, the apps, the card decks: most of the process's objects) lives
# as long as the process: out of the cyclic collector's sight, a full collection during a
# request costs ~20 ms instead of ~90 (docs/bench.md, "Classroom load").
gc.collect()
gc.freeze()
