from django.contrib import admin
from django.urls import include, path

from kanagame.accounts.views import admin_login

from . import views

urlpatterns = [
    # The game pages first: every poll, board and move resolves one of them, and all of them
    # (and nothing else) start with "play/", so the order changes no URL's view
    # (tests/test_web_layer.py); behind the other includes, a table's page walked ~60
    # patterns first (~40 of its ~60 us of resolving).
    path("", include("games.urls")),
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    # Before the admin's own URLs: its login page behind the site's login limiter.
    path("admin/login/", admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
    path("", include("kanagame.accounts.urls")),
    path("", include("learning.urls.learn")),
    path("", include("learning.classroom.urls")),
]

handler400 = "kanagame.views.bad_request"
