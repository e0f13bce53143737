"""The bots' pages: one click against three house bots (the form is on the home page and
My games; its choices come from the ``house_bots`` context processor)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.services import player_for_user
from backalley_site.errors import DomainError
from bots import house
from games import invitations


def house_bots(request: HttpRequest) -> dict[str, Any]:
    """Context processor: the one-click form's choices (the house bots' strengths)."""
    return {
        "house_bots": {
            "strengths": list(house.STRENGTHS.values()),
            "default": house.DEFAULT_STRENGTH,
        }
    }


@login_required
@require_POST
def play_bots(request: HttpRequest) -> HttpResponse:
    """One click: the signed-in player against three house bots of the chosen strength
    (rated unless the form says otherwise), through the game creation service."""
    me = player_for_user(request.user)
    strength = request.POST.get("strength", house.DEFAULT_STRENGTH)
    rated = request.POST.get("rated", "on") not in ("", "0", "off", "false")
    try:
        bots = house.house_players(strength=strength)
        game = invitations.game_create_inviting(
            creator=me, seats=[me, *bots], options={"rated": rated}
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("home" if request.POST.get("back") == "home" else "my-games")
    return redirect("game-table", public_id=game.public_id)
