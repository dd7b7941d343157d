"""Site-wide pages: the home page, the health check and the icon."""

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from games.display import games_offered
from kanagame.middleware import bad_input_response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: the standalone 400 page; never reads the request body again."""
    return bad_input_response(
        request, _("The server could not understand this request (its data was refused).")
    )


@cache_control(max_age=86400, public=True)
@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for whatever the page links: the static icon (its
    hashed, long-cached name in production). Temporary, so a new icon is seen within a day."""
    return redirect(static("favicon.ico"))


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": games_offered()})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Database (and Redis when configured) reachable? 200 with details, or 503."""
    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        checks["database"] = f"error: {exc.__class__.__name__}"
    if settings.REDIS_URL:
        try:
            cache.set("healthz", "ok", 10)
            checks["redis"] = "ok" if cache.get("healthz") == "ok" else "error: no round trip"
        except Exception as exc:  # noqa: BLE001
            checks["redis"] = f"error: {exc.__class__.__name__}"
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503
    )
