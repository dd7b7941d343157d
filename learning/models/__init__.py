"""Learning models: the kana catalog and the learner's memory (events, FSRS, prompts).

Accounts live in kanagame/accounts/models.py, the classroom in learning/classroom/models/."""

from .kana import Kana, Script
from .memory import (
    CardSighting,
    DailySession,
    KanaMemory,
    LearnerSettings,
    LearningEvent,
    Prompt,
    SyllabusChoice,
)

__all__ = ["Kana", "Script"]
__all__ += ["CardSighting", "DailySession", "KanaMemory", "LearnerSettings"]
__all__ += ["LearningEvent", "Prompt", "SyllabusChoice"]
