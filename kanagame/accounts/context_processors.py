from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from kanagame.accounts.services import user_role


def roles(request: HttpRequest) -> dict:
    """Expose the viewer's role and the current site section to templates.

    The navigation bar shows what the role can do, and marks the current section with
    aria-current (`nav_section` is the first path segment: "play", "learn", "teach", ...).
    The role is read when a template first uses it (the profile is one query): a partial that
    shows no navigation, such as the board a poll or a move answers, costs none.
    """
    user = getattr(request, "user", None)
    role = SimpleLazyObject(lambda: user_role(user=user))
    path = getattr(request, "path", "/") or "/"
    return {
        "viewer_role": role,
        "viewer_is_teacher": SimpleLazyObject(lambda: role == "teacher"),
        "viewer_is_learner": SimpleLazyObject(lambda: role in ("student", "self")),
        "nav_section": path.strip("/").split("/", 1)[0],
    }
