"""URLs of the play pages (lobby, tables, boards, replays)."""

from django.urls import path

from games.views import board

app_name = "games"

urlpatterns = [
    path("play/t/<str:code>/", board.table_page, name="table"),
]
