from django.http import HttpRequest


def roles(request: HttpRequest) -> dict:
    """Expose the viewer's role to templates (the navigation bar shows what the role can do)."""
    user = getattr(request, "user", None)
    profile = getattr(user, "profile", None) if user and user.is_authenticated else None
    role = profile.role if profile else None
    return {
        "viewer_role": role,
        "viewer_is_teacher": role == "teacher",
        "viewer_is_learner": role in ("student", "self"),
    }
