"""A player's page (/play/players/<id>/): their Elo rating per game and its history."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.selectors import player_page_allowed, ratings_of
from games.views.common import engine_name
from games.views.errors import PageError, table_errors


@login_required
@table_errors
@require_GET
def player_page(request: HttpRequest, user_id: int) -> HttpResponse:
    player = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    if player is None:
        raise PageError(_("There is no such player."), 404)
    if not player_page_allowed(viewer=request.user, player=player):
        message = _("You may only see the pages of players you played with.")
        raise PageError(message, 403)
    profile = getattr(player, "profile", None)
    ratings = ratings_of(user=player)
    for row in ratings:
        row["name"] = engine_name(row["engine"])
    context = {
        "player_name": profile.name if profile else player.username,
        "is_me": player.pk == request.user.pk,
        "ratings": ratings,
    }
    return render(request, "games/player.html", context)
