"""Role checks for views: `@role_required("teacher")`, `@role_required("student", "self")`.

Anonymous visitors are sent to the login page (then back); a signed-in user whose role is not
allowed gets the 403 page (django.core.exceptions.PermissionDenied -> templates/403.html).
"""

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils.http import urlencode
from django_htmx.http import HttpResponseClientRedirect

from kanagame.accounts.models import Role
from kanagame.accounts.services import user_role

LEARNER_ROLES = (Role.STUDENT.value, Role.SELF_LEARNER.value)


def role_required(*roles: str) -> Callable:
    """Decorate a view so that only signed-in users with one of `roles` reach it."""
    allowed = {str(role) for role in roles}
    unknown = allowed - set(Role.values)
    if not allowed or unknown:
        raise ValueError(f"role_required needs known roles, got {sorted(unknown) or 'none'}")

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                if getattr(request, "htmx", False):
                    # An HTMX fragment request: send the whole page to login, not the fragment.
                    back = request.htmx.current_url_abs_path or request.get_full_path()
                    login_url = resolve_url(settings.LOGIN_URL)
                    return HttpResponseClientRedirect(f"{login_url}?{urlencode({'next': back})}")
                return redirect_to_login(request.get_full_path())
            if user_role(user=request.user) not in allowed:
                raise PermissionDenied("role not allowed")
            return view(request, *args, **kwargs)

        wrapped.allowed_roles = frozenset(allowed)  # type: ignore[attr-defined]
        return wrapped

    return decorator


teacher_required = role_required(Role.TEACHER)
learner_required = role_required(*LEARNER_ROLES)
