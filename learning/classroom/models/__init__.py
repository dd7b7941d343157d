"""Classroom models: assignments and their tables, the dashboards' summary rows.

Classes and memberships are the low app's (``kanagame.classes``), re-exported here for the
classroom's own code. The tables keep their names from when these models lived in the
learning app (``db_table``): no move touched a row (see docs/architecture.md).
"""

from kanagame.classes.models import Classroom, Membership

from .assignments import RECOMMENDED, Assignment, AssignmentScript, AssignmentTable, GoalKind
from .summaries import ConfusionSummary, LearnerActivity

__all__ = ["RECOMMENDED", "Assignment", "AssignmentScript", "AssignmentTable", "GoalKind"]
__all__ += ["Classroom"]
__all__ += ["Membership", "ConfusionSummary", "LearnerActivity"]
