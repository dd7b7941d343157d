"""Learning models, one module per area (accounts, kana catalog, classroom, memory)."""

from .accounts import Profile, Role
from .assignments import Assignment, GoalKind
from .classroom import Classroom, Membership
from .kana import Kana, Script
from .memory import DailySession, KanaMemory, LearnerSettings, LearningEvent, Prompt
from .summaries import ConfusionSummary, LearnerActivity

__all__ = ["Assignment", "GoalKind", "Classroom", "Kana", "Membership", "Profile", "Role", "Script"]
__all__ += ["DailySession", "KanaMemory", "LearnerSettings", "LearningEvent", "Prompt"]
__all__ += ["ConfusionSummary", "LearnerActivity"]
