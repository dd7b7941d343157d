"""tests/signed_in.py gives a client what force_login would have: the same session contents,
the same pages; a password changed since signs both out."""

import pytest
from django.test import Client
from factories import SelfLearnerFactory
from signed_in import signed_in


@pytest.mark.django_db
def test_a_signed_in_client_sees_what_a_force_logged_in_one_sees():
    user = SelfLearnerFactory()
    forced = Client()
    forced.force_login(user)
    copies = [signed_in(user), signed_in(user)]
    assert all(dict(copy.session.items()) == dict(forced.session.items()) for copy in copies)
    assert copies[0].session.session_key != copies[1].session.session_key  # a row each
    for client in (forced, *copies):
        response = client.get("/learn/")
        assert response.status_code == 200 and response.wsgi_request.user == user
    assert signed_in(None).get("/learn/").status_code == 302  # anonymous: to the sign-in page

    user.set_password("another-pass-2026")
    user.save()
    for client in (forced, *copies):
        assert not client.get("/learn/").wsgi_request.user.is_authenticated
