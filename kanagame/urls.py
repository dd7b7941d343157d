from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("kanagame.accounts.urls")),
    path("", include("learning.urls.learn")),
    path("", include("learning.classroom.urls")),
    path("", include("games.urls")),
]
