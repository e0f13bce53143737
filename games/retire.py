"""Retiring a player (a bot deleted by its owner after it played): it keeps its name and its
finished games, but takes no seat again.

It leaves the games that wait for players, its pending invitations are declined, and
``Player.retired_at`` makes every seating service refuse it (409 ``player_retired``). Games
already under way go on (a hosted bot keeps playing its seat there; an API bot's clock runs
out as any absent player's would).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.credentials import credentials_changed_after_commit
from accounts.models import Player
from games import invitation_hooks, services
from games.models import GameStatus, Invitation, InvitationStatus, Seat


def player_retire(*, player: Player) -> Player:
    now = timezone.now()
    with transaction.atomic():
        Player.objects.filter(pk=player.pk, retired_at__isnull=True).update(retired_at=now)
        credentials_changed_after_commit()  # a retired bot's tokens are refused
        player.refresh_from_db(fields=["retired_at"])
        waiting = Seat.objects.filter(player=player, game__status=GameStatus.WAITING)
        for game_id in list(waiting.values_list("game_id", flat=True)):
            services.game_leave_seat(game_id=game_id, player=player)
        pending = Invitation.objects.select_for_update().filter(
            player=player, status=InvitationStatus.PENDING
        )
        for row in pending.select_related("game"):
            row.status = InvitationStatus.DECLINED
            row.answered_at = now
            row.save(update_fields=["status", "answered_at"])
            invitation_hooks.fire_on_commit("declined", row)
    return player
