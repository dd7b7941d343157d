"""Classroom models: classes and membership, assignments, the dashboards' summary rows.

The tables keep their names from when these models lived in the learning app (``db_table``):
migrations/0001 takes them over without touching a row (see docs/architecture.md).
"""

from .assignments import RECOMMENDED, Assignment, AssignmentScript, GoalKind
from .classroom import Classroom, Membership
from .summaries import ConfusionSummary, LearnerActivity

__all__ = ["RECOMMENDED", "Assignment", "AssignmentScript", "GoalKind", "Classroom"]
__all__ += ["Membership", "ConfusionSummary", "LearnerActivity"]
