"""Pages through the whole stack: navigation by role, 403/404 pages, home page."""

import pytest
from django.http import HttpResponse
from django.urls import include, path
from factories import PASSWORD

from kanagame.accounts.permissions import role_required


@role_required("teacher")
def teacher_only(request):
    return HttpResponse("class roster")


def boom(request):
    raise RuntimeError("secret internals: db password hunter2")


urlpatterns = [
    path("boom/", boom),
    path("teach/secret-roster/", teacher_only),
    path("", include("kanagame.urls")),
]


@pytest.mark.urls(__name__)
def test_a_student_gets_the_403_page_not_a_500(client, bob):
    client.force_login(bob)
    response = client.get("/teach/secret-roster/")
    assert response.status_code == 403
    body = response.content.decode()
    assert "This page is not for your account" in body
    assert "class roster" not in body
    assert "role not allowed" not in body  # the exception's text never reaches the page


@pytest.mark.urls(__name__)
def test_the_teacher_reaches_the_teacher_page(client, alice):
    client.force_login(alice)
    assert client.get("/teach/secret-roster/").content == b"class roster"


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_an_anonymous_visitor_is_redirected_to_login(client):
    response = client.get("/teach/secret-roster/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/teach/secret-roster/"


@pytest.mark.django_db
def test_the_404_page_is_friendly_and_leaks_nothing(client, settings):
    settings.DEBUG = False
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Page not found" in body
    assert "urlpatterns" not in body and "Traceback" not in body


@pytest.mark.django_db
def test_the_home_page_shows_a_visitor_what_they_can_do(client):
    body = client.get("/").content.decode()
    for href in ['href="/signup/"', 'href="/join/"', 'href="/login/"']:
        assert href in body
    assert 'class="skip-link" href="#main"' in body
    assert 'aria-current="page"' in body  # the brand link marks the home page


@pytest.mark.django_db
def test_the_current_page_is_marked_in_the_navigation(client):
    body = client.get("/signup/").content.decode()
    assert '<a href="/signup/" aria-current="page">' in body
    assert '<a href="/login/" aria-current="page">' not in body


def test_the_navigation_shows_what_each_role_can_do(client, alice, bob, dana):
    client.force_login(alice)
    teacher_page = client.get("/").content.decode()
    assert 'href="/teach/"' in teacher_page and 'href="/learn/"' not in teacher_page
    assert "Alice Sensei" in teacher_page

    client.force_login(bob)
    student_page = client.get("/").content.decode()
    assert 'href="/learn/"' in student_page and 'href="/teach/"' not in student_page
    assert 'href="/daily/"' in student_page  # students have the daily session too

    client.force_login(dana)
    learner_page = client.get("/").content.decode()
    assert 'href="/daily/"' in learner_page and 'href="/teach/"' not in learner_page
    assert 'href="/signup/"' not in learner_page


@pytest.mark.django_db
def test_a_student_cannot_reach_the_real_teacher_pages(client, bob):
    client.force_login(bob)
    response = client.get("/teach/")
    assert response.status_code == 403
    assert "This page is not for your account" in response.content.decode()


@pytest.mark.django_db
def test_a_visitor_is_sent_to_login_from_the_real_teacher_pages(client):
    response = client.get("/teach/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=/teach/")


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_an_anonymous_htmx_request_redirects_the_whole_page_to_login(client):
    response = client.get(
        "/teach/secret-roster/",
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="http://testserver/teach/secret-roster/?tab=2",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/login/?next=%2Fteach%2Fsecret-roster%2F%3Ftab%3D2"


@pytest.mark.django_db
def test_a_missing_csrf_token_gets_the_friendly_expired_page(bob):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/login/", {"username": "bob", "password": PASSWORD})
    assert response.status_code == 403
    assert "This form has expired" in response.content.decode()


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_a_server_error_shows_the_plain_500_page_and_leaks_nothing(settings):
    from django.test import Client

    settings.DEBUG = False
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong on our side" in body
    assert "hunter2" not in body and "RuntimeError" not in body and "Traceback" not in body


@pytest.mark.django_db
def test_a_bad_request_gets_the_400_page(client, settings):
    settings.DEBUG = False
    response = client.get("/", HTTP_HOST="evil.example.com")  # not in ALLOWED_HOSTS
    assert response.status_code == 400
    assert "Bad request" in response.content.decode()
    assert "ALLOWED_HOSTS" not in response.content.decode()
