"""Learning models, one module per area (accounts, kana catalog, classroom, memory)."""

from .accounts import Profile, Role
from .assignments import Assignment, GoalKind
from .classroom import Classroom, Membership
from .kana import Kana, Script

__all__ = ["Assignment", "GoalKind", "Classroom", "Kana", "Membership", "Profile", "Role", "Script"]
