"""Classes, memberships and join codes: a low app beside accounts (docs/architecture.md).

Tables hold a real foreign key to ``Classroom``; the classroom app on top (assignments,
summaries, teacher pages) builds on these models. Imports accounts and Django only.
"""
