from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("learning.urls.accounts")),
    path("", include("learning.urls.learn")),
    path("", include("learning.urls.teach")),
    path("", include("games.urls")),
]

handler400 = "kanagame.views.bad_request"
