"""URLs of the learning app's classroom pages: /join/ and the teacher's /teach/ pages."""

from django.urls import path

from learning.views import join

urlpatterns = [
    path("join/", join.join, name="join"),
]
