"""Site-wide request guards (docs/security.md).

``RequestSanityMiddleware`` refuses, with a 400 and a message, input no view can use and some
databases cannot store, before any session lookup or query runs: a NUL byte anywhere in the
path, query string, cookies, headers or form fields (PostgreSQL refuses NUL in text), a body
declared in any charset but UTF-8, and a form body Django cannot parse. Its answer is a small
standalone page that never touches the request body again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as _CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.contrib.auth import SESSION_KEY, logout
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.multipartparser import MultiPartParserError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from kanagame.accounts.services import IDLE_LIMIT_KEY, LAST_SEEN_KEY

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
UTF8_NAMES = {"utf-8", "utf8"}


def _has_nul(values: Iterable[str]) -> bool:
    return any("\x00" in value for value in values)


def _query_items(query) -> Iterable[str]:
    for key, values in query.lists():
        yield key
        yield from (value for value in values if isinstance(value, str))


def bad_input_response(request: HttpRequest, message: str) -> HttpResponse:
    """The 400 page: rendered without the request, so no body, session or database access."""
    language = translation.get_language_from_request(request, check_path=False)
    with translation.override(language):
        body = render_to_string("400_input.html", {"message": message, "LANGUAGE_CODE": language})
    response = HttpResponseBadRequest(body, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


def refusal(request: HttpRequest) -> str | None:
    """Why this request must be refused before it reaches a view, or None."""
    if "\x00" in request.path or _has_nul(_query_items(request.GET)):
        return _("The address contains a character that is not allowed (NUL).")
    if _has_nul(request.COOKIES) or _has_nul(request.COOKIES.values()):
        return _("A cookie contains a character that is not allowed (NUL).")
    headers = (v for k, v in request.META.items() if k.startswith("HTTP_") and isinstance(v, str))
    if _has_nul(headers) or "\x00" in request.META.get("REMOTE_ADDR", ""):
        return _("A request header contains a character that is not allowed (NUL).")
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return None
    charset = (request.content_params or {}).get("charset")
    if charset is not None and charset.strip().lower() not in UTF8_NAMES:
        return _("Forms must be sent in UTF-8.")
    if request.content_type not in FORM_TYPES:
        return None
    try:
        post = request.POST  # too big / too many fields: SuspiciousOperation, Django's 400
    except (MultiPartParserError, UnicodeDecodeError, LookupError, ValueError):
        return _("The form could not be read. Reload the page and try again.")
    if _has_nul(_query_items(post)):
        return _("A form field contains a character that is not allowed (NUL).")
    return None


class RequestSanityMiddleware:
    """Refuse unusable input with a 400 before sessions, CSRF or any view run."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        message = refusal(request)
        if message is not None:
            return bad_input_response(request, message)
        return self.get_response(request)


# --- Response headers and session lifetime (docs/security.md §7) ---------------------------

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "geolocation", "gyroscope",
        "magnetometer", "microphone", "midi", "payment", "usb", "xr-spatial-tracking",
    )
)  # fmt: skip
LAST_SEEN_GRANULARITY_S = 60  # write the session at most once a minute


class PrivacyHeadersMiddleware:
    """Permissions-Policy on every answer; no-store on every answer to a signed-in user.

    A page or export a signed-in user received must not stay in a shared school computer's
    cache (or a proxy's) for the next pupil to open with the Back button.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        # A session holding a user id, not request.user: no user row is read for this (the
        # cheap poll reads none), and a stale session is no-store too, which is harmless.
        session = getattr(request, "session", None)
        if session is not None and SESSION_KEY in session:
            patch_cache_control(response, no_store=True, private=True)
        return response


class IdleTimeoutMiddleware:
    """Sign out a session idle longer than the limit its login set (students: short)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        limit = session.get(IDLE_LIMIT_KEY) if session is not None else None
        if limit and SESSION_KEY in session:
            now = int(time.time())
            last_seen = session.get(LAST_SEEN_KEY, now)
            if now - last_seen > limit:
                logout(request)
            elif now - last_seen >= LAST_SEEN_GRANULARITY_S:
                session[LAST_SEEN_KEY] = now
        return self.get_response(request)


# --- Content-Security-Policy, built once (issue 28) ---------------------------------------

# What a view or decorator may set on a response to change its policy (django-csp 4).
_POLICY_CHANGES = (
    "_csp_config", "_csp_update", "_csp_replace",
    "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro",
)  # fmt: skip


class CSPMiddleware(_CSPMiddleware):
    """django-csp's middleware, with the headers of a response that changes nothing in its
    policy (no decorator's config, update or replace, no nonce used: every response of this
    site) built once from the settings instead of once per response; any other response
    goes through django-csp's own ``process_response``. The headers are a function of the
    two policy settings, so they are rebuilt when either setting object changes (tests'
    ``override_settings``); within one process django-csp builds the same text each time.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        super().__init__(get_response)
        self._built: tuple | None = None  # (policy, policy_ro, header, header_ro)

    def _headers(self) -> tuple[str, str]:
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        policy_ro = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
        built = self._built
        if built is None or built[0] is not policy or built[1] is not policy_ro:
            built = self._built = (
                policy, policy_ro, build_policy(), build_policy(report_only=True)
            )  # fmt: skip
        return built[2], built[3]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        changed = any(hasattr(response, name) for name in _POLICY_CHANGES)
        if changed or getattr(request, "_csp_nonce", None) is not None:
            return super().process_response(request, response)
        if response.status_code in (500, 404) and settings.DEBUG:
            return response
        header, header_ro = self._headers()
        for name, value, exempt, policy in (
            (HEADER, header, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (
                HEADER_REPORT_ONLY,
                header_ro,
                "_csp_exempt_ro",
                "CONTENT_SECURITY_POLICY_REPORT_ONLY",
            ),
        ):
            if not value or name in response or getattr(response, exempt, False) is not False:
                continue
            prefixes = (getattr(settings, policy, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[name] = value
        # as django-csp: a nonce asked for after the header is written is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
