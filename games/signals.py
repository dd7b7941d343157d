"""Signals `games` sends to the apps above it (docs/architecture.md, "Hooks").

- ``table_finished``: a table's game has just ended. Keyword argument ``table_id``. Sent
  inside the transaction that commits the last move, so receivers defer their work with
  ``transaction.on_commit`` / ``delay_on_commit``. The classroom connects its summary
  refresh to it (learning/classroom/hooks.py).
"""

from django.dispatch import Signal

table_finished = Signal()
