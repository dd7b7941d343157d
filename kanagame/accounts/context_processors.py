from django.http import HttpRequest

from kanagame.accounts.services import user_role


def roles(request: HttpRequest) -> dict:
    """Expose the viewer's role and the current site section to templates.

    The navigation bar shows what the role can do, and marks the current section with
    aria-current (`nav_section` is the first path segment: "play", "learn", "teach", ...).
    """
    role = user_role(user=getattr(request, "user", None))
    path = getattr(request, "path", "/") or "/"
    return {
        "viewer_role": role,
        "viewer_is_teacher": role == "teacher",
        "viewer_is_learner": role in ("student", "self"),
        "nav_section": path.strip("/").split("/", 1)[0],
    }
