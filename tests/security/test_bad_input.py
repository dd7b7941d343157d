"""Issue 12, part 6: input no view can use gets a 400 and a message before any query.

PostgreSQL refuses NUL in text (a 500 on login, table codes, join codes, rename, move token);
a body declared in another charset than UTF-8 made the 400 handler crash re-reading it.
"""

import io

import pytest
from django.test import Client, RequestFactory

from kanagame.accounts.models import LoginFailure
from kanagame.accounts.services import user_create
from kanagame.views import bad_request

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def sam(db):
    return user_create(username="sam", password="sam-kana-2026", role="self")


def _assert_refused(response, words: str):
    assert response.status_code == 400
    body = response.content.decode()
    assert words in body and "Bad request" in body
    assert response["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    "path, body",
    [
        ("/login/", b"username=sam%00&password=x"),
        ("/login/", b"username=sam&password=%00"),
        ("/join/", b"code=KMN%007RT&display_name=a&password=b&password_again=b"),
        ("/signup/", b"role=self&username=a%00b&password1=x&password2=x"),
        ("/play/join/", b"code=AB%00C"),
        ("/play/t/ABC/", b"action=x&token=t%00&version=1"),
        ("/login/", b"user%00name=sam&password=x"),
    ],
)
def test_a_nul_in_a_form_field_is_refused_before_any_query(
    sam, path, body, django_assert_num_queries
):
    client = Client(raise_request_exception=False)
    with django_assert_num_queries(0):
        response = client.generic("POST", path, body, content_type=FORM)
    _assert_refused(response, "not allowed (NUL)")
    assert not LoginFailure.objects.exists()


@pytest.mark.parametrize(
    "url", ["/join/?code=%00", "/play/t/%00/", "/login/?next=/%00", "/teach/1/?script=%00"]
)
def test_a_nul_in_the_address_is_refused(db, url, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = Client(raise_request_exception=False).get(url)
    _assert_refused(response, "not allowed (NUL)")


def test_a_nul_in_a_cookie_or_header_is_refused(sam, django_assert_num_queries):
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "abc\x00def"
    with django_assert_num_queries(0):
        _assert_refused(client.get("/"), "cookie")
    forged = Client(raise_request_exception=False)
    with django_assert_num_queries(0):
        response = forged.post(
            "/login/", {"username": "sam", "password": "x"}, HTTP_X_FORWARDED_FOR="1.2.3.4\x00"
        )
    _assert_refused(response, "header")


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "nonsense", "shift_jis", "UTF-7"])
@pytest.mark.parametrize("path", ["/login/", "/join/", "/signup/"])
def test_a_non_utf8_charset_is_refused_before_any_query(
    sam, charset, path, django_assert_num_queries
):
    client = Client(raise_request_exception=False)
    client.force_login(sam)
    with django_assert_num_queries(0):
        response = client.generic(
            "POST", path, "code=ＫＭＮ".encode("utf-16"), content_type=f"{FORM}; charset={charset}"
        )
    _assert_refused(response, "UTF-8")


@pytest.mark.parametrize(
    "content_type, body",
    [("multipart/form-data", b"garbage"), ("multipart/form-data; boundary=", b"--\r\n")],
)
def test_an_unreadable_form_is_refused(sam, content_type, body):
    response = Client(raise_request_exception=False).generic(
        "POST", "/login/", body, content_type=content_type
    )
    _assert_refused(response, "could not be read")


def test_utf8_declared_in_any_spelling_is_accepted(sam):
    response = Client().generic(
        "POST", "/login/", b"username=sam&password=sam-kana-2026",
        content_type=f"{FORM}; charset=UTF-8",
    )  # fmt: skip
    assert response.status_code == 302


class _ExplodingStream(io.RawIOBase):
    def read(self, *args):
        raise AssertionError("the 400 handler read the body")


def test_the_400_handler_never_reads_the_body():
    request = RequestFactory().generic("POST", "/login/", b"x=1", content_type=FORM)
    request._stream = _ExplodingStream()
    response = bad_request(request, ValueError("bad"))
    assert response.status_code == 400
    assert "Bad request" in response.content.decode()


def test_the_400_page_for_bad_input_carries_the_security_headers(client):
    """Issue 24, LOW 8: the refusal is answered before the header middlewares ran."""
    response = client.post("/login/", {"username": "a\x00b", "password": "x"})
    assert response.status_code == 400
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert "camera=()" in response["Permissions-Policy"]
    query = client.get("/play/?q=%00")
    assert query.status_code == 400 and "Content-Security-Policy" in query
