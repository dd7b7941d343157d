from django.contrib import admin
from django.urls import include, path

from kanagame.accounts.views import admin_login

from . import views

urlpatterns = [
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
    path("", include("games.urls")),
]

handler400 = "kanagame.views.bad_request"
