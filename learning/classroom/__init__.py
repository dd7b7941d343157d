"""The classroom (app label "classroom"): classes, membership, join codes, assignments, the
teacher's pages, CSV exports, the live view and the dashboards' summaries.

The top layer: it imports learning, games and accounts; none of them imports it. What it adds
to their pages and flows it registers from `ClassroomConfig.ready()` (see docs/architecture.md).
"""
