"""URLs of the play pages (lobby, tables, boards, replays)."""

from django.urls import path

from games.views import board, lobby, players, replay

app_name = "games"

urlpatterns = [
    path("play/", lobby.lobby, name="lobby"),
    path("play/new/<slug:engine>/", lobby.table_new, name="table_new"),
    path("play/join/", lobby.join_by_code, name="join_code"),
    path("play/t/<str:code>/", board.table_page, name="table"),
    path("play/t/<str:code>/poll/", board.table_poll, name="poll"),
    path("play/t/<str:code>/join/", board.table_join_view, name="join"),
    path("play/t/<str:code>/leave/", board.table_leave_view, name="leave"),
    path("play/t/<str:code>/start/", board.table_start_view, name="start"),
    path("play/t/<str:code>/back/", board.table_back_view, name="back"),
    path("play/t/<str:code>/again/", board.table_again_view, name="again"),
    path("play/t/<str:code>/replay/", replay.replay, name="replay"),
    path("play/players/<int:user_id>/", players.player_page, name="player"),
]
