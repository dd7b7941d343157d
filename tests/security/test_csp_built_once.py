"""``kanagame.middleware.CSPMiddleware`` sends the headers django-csp's own middleware sends,
for the usual response (built once) and for every response that changes its policy."""

import pytest
from csp.middleware import CSPMiddleware as CspOwn
from django.http import HttpResponse
from django.test import RequestFactory

from kanagame.middleware import CSPMiddleware

CSP, RO = "Content-Security-Policy", "Content-Security-Policy-Report-Only"


def _headers(middleware_class, prepare=lambda request, response: None, path="/play/"):
    request = RequestFactory().get(path)
    response = HttpResponse("ok")
    middleware = middleware_class(lambda _request: response)
    middleware.process_request(request)
    prepare(request, response)
    out = middleware.process_response(request, response)
    return out.get(CSP), out.get(RO), request


def test_the_usual_response_gets_django_csps_header():
    ours, ours_ro, request = _headers(CSPMiddleware)
    own, own_ro, _request = _headers(CspOwn)
    assert ours == own and "default-src 'self'" in ours
    assert ours_ro == own_ro is None
    with pytest.raises(Exception, match="not available after the CSP header"):
        str(request.csp_nonce)


def test_a_middleware_builds_the_header_once_until_the_setting_changes(settings, monkeypatch):
    built = []
    import kanagame.middleware as module

    def counting(**kwargs):
        built.append(kwargs)
        return module.build_policy.__wrapped__(**kwargs)

    counting.__wrapped__ = module.build_policy
    monkeypatch.setattr(module, "build_policy", counting)
    middleware = CSPMiddleware(lambda request: HttpResponse("ok"))
    for _ in range(3):
        request = RequestFactory().get("/")
        middleware.process_request(request)
        middleware.process_response(request, HttpResponse("ok"))
    assert len(built) == 2  # the header and the report-only one, once
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'self'"]}}
    request = RequestFactory().get("/")
    middleware.process_request(request)
    response = middleware.process_response(request, HttpResponse("ok"))
    assert response[CSP] == "default-src 'none'"
    assert "img-src 'self'" in response[RO]
    assert (response[CSP], response[RO]) == _headers(CspOwn)[:2]
    assert len(built) == 4


@pytest.mark.parametrize(
    "prepare",
    [
        lambda request, response: str(request.csp_nonce),  # a nonce used
        lambda request, response: setattr(response, "_csp_update", {"img-src": ["x.test"]}),
        lambda request, response: setattr(response, "_csp_replace", {"img-src": ["y.test"]}),
        lambda request, response: setattr(response, "_csp_config", {"default-src": ["z.test"]}),
        lambda request, response: setattr(response, "_csp_exempt", True),
        lambda request, response: response.__setitem__(CSP, "default-src 'none'"),
    ],
    ids=["nonce", "update", "replace", "config", "exempt", "header-set"],
)
def test_responses_that_change_their_policy_get_what_django_csp_gives(prepare):
    ours, ours_ro, _request = _headers(CSPMiddleware, prepare)
    own, own_ro, _request = _headers(CspOwn, prepare)
    if "nonce-" in (own or ""):  # a random nonce each time: the same policy around it
        assert ours.split("'nonce-")[0] == own.split("'nonce-")[0]
    else:
        assert (ours, ours_ro) == (own, own_ro)


def test_excluded_prefixes_and_debug_errors_are_left_alone(settings):
    settings.CONTENT_SECURITY_POLICY = {
        **settings.CONTENT_SECURITY_POLICY,
        "EXCLUDE_URL_PREFIXES": ["/admin/"],
    }
    assert _headers(CSPMiddleware, path="/admin/x")[0] is None
    assert _headers(CspOwn, path="/admin/x")[0] is None
    assert _headers(CSPMiddleware, path="/play/")[0] == _headers(CspOwn, path="/play/")[0]
    settings.DEBUG = True
    request = RequestFactory().get("/")
    middleware = CSPMiddleware(lambda _request: HttpResponse(status=404))
    middleware.process_request(request)
    assert CSP not in middleware.process_response(request, HttpResponse(status=404))
