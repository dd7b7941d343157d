"""URLs of the play pages (lobby, tables, boards, replays)."""

urlpatterns: list = []
