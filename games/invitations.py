"""Creating a game by invitation: nobody is seated in a game without having agreed to it.

``game_create_inviting`` is what the API and the site call. Of the players named for the
seats, these sit down at once: the creator, the creator's own bots, the house bots, and a
bot whose owner set it to accept invitations from this creator (``InvitationRule``). Every
other named player (a person, or another owner's bot) is *invited*: their seat is held for
them until they accept (they sit down; the fourth seat starts the game), decline, or let
the invitation expire (``GAMES_INVITATION_HOURS``); a declined or expired seat becomes an
open seat, to which the creator may invite someone else (``invitation_send``: the same
rules, seat by seat, while the game waits). ``games.services.game_create`` stays the
low-level service that seats the given players at once, for events whose entrants
consented by registering.

Limits per account (settings): ``GAMES_MAX_WAITING_PER_ACCOUNT`` games waiting for
players (409 ``too_many_waiting_games``), ``GAMES_MAX_CREATED_PER_HOUR`` new games in
any hour (429 ``too_many_new_games``); and every new game seats its creator or one of
the creator's bots (409 ``creator_not_seated``).

The people concerned learn of invitations and answers through
:mod:`games.invitation_hooks` (the clock app turns them into notifications).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from games import invitation_hooks, services
from games.errors import (
    AlreadyInvited,
    AlreadySeated,
    BadGameSetup,
    CreatorNotSeated,
    GameNotWaiting,
    InvitationClosed,
    InvitationNotFound,
    NotYourSeat,
    SeatTaken,
    TooManyInvitations,
    TooManyNewGames,
    TooManyWaitingGames,
)
from games.models import AcceptFrom, Game, GameStatus, Invitation, InvitationRule, InvitationStatus


def invitation_lifetime() -> timedelta:
    return timedelta(hours=float(getattr(settings, "GAMES_INVITATION_HOURS", 72)))


def is_house(player: Player) -> bool:
    return player.is_house


def seated_at_once(*, creator: Player, player: Player) -> bool:
    """Whether ``player`` may be seated by ``creator`` without being asked."""
    if player.pk == creator.pk or is_house(player):
        return True
    if player.is_bot and creator.user_id is not None and player.owner_id == creator.user_id:
        return True
    if not player.is_bot:
        return False
    rule = InvitationRule.objects.filter(player=player).first()
    if rule is None or rule.accept_from == AcceptFrom.NOBODY:
        return False
    return rule.accept_from == AcceptFrom.ANYONE or rule.listed.filter(pk=creator.pk).exists()


def _owns(creator: Player, player: Player) -> bool:
    return player.pk == creator.pk or (
        player.is_bot and creator.user_id is not None and player.owner_id == creator.user_id
    )


def check_limits(creator: Player, now: Any) -> None:
    """Per-account limits (inside the caller's transaction), checked with the creator's row locked (no race past them)."""
    Player.objects.select_for_update().filter(pk=creator.pk).first()
    waiting_cap = int(getattr(settings, "GAMES_MAX_WAITING_PER_ACCOUNT", 10))
    waiting = Game.objects.filter(creator=creator, status=GameStatus.WAITING).count()
    if waiting >= waiting_cap:
        raise TooManyWaitingGames(
            message=(
                _(
                    "You already have %(waiting)s games waiting for players (the limit is %(waiting_cap)s); start or call off one of them first."
                )
                % {"waiting": waiting, "waiting_cap": waiting_cap}
            ),
            extra={"limit": waiting_cap},
        )
    hourly_cap = int(getattr(settings, "GAMES_MAX_CREATED_PER_HOUR", 30))
    recent = list(
        Game.objects.filter(creator=creator, created_at__gt=now - timedelta(hours=1))
        .order_by("created_at")
        .values_list("created_at", flat=True)[:hourly_cap]
    )
    if len(recent) >= hourly_cap:
        retry = max(1, int((recent[0] + timedelta(hours=1) - now).total_seconds()) + 1)
        raise TooManyNewGames(
            message=_("You created %(hourly_cap)s games in the last hour; try again later.")
            % {"hourly_cap": hourly_cap},
            extra={"limit": hourly_cap, "retry_after": retry},
        )


def game_create_inviting(
    *,
    creator: Player,
    seats: Sequence[Player | None],
    options: Mapping[str, Any] | None = None,
) -> Game:
    """Create a game: seat who may be seated at once and invite the others (see above)."""
    if len(seats) != 4:
        raise BadGameSetup(message=_("A game has exactly four seats."), extra={"seats": len(seats)})
    seated: list[Player | None] = []
    invited: list[tuple[int, Player]] = []
    for position, player in enumerate(seats):
        if player is not None and not seated_at_once(creator=creator, player=player):
            invited.append((position, player))
            seated.append(None)
        else:
            seated.append(player)
    if not any(p is not None and _owns(creator, p) for p in seats):
        raise CreatorNotSeated(
            message=_("A new game seats you or one of your bots."),
        )
    named = [p for p in seats if p is not None]
    services.seats_check(named, rated=services.game_options_clean(options)["rated"])
    now = timezone.now()
    with transaction.atomic():
        check_limits(creator, now)
        game = services.game_create(creator=creator, seats=seated, options=options)
        rows = Invitation.objects.bulk_create(
            Invitation(
                game=game,
                position=position,
                player=player,
                invited_by=creator,
                expires_at=now + invitation_lifetime(),
            )
            for position, player in invited
        )
        for row in rows:
            invitation_hooks.fire_on_commit("invited", row)
    return game


def invitation_send(*, game_id: int, by: Player, position: int, player: Player) -> Game:
    """The creator of a waiting game names ``player`` for the open seat ``position``.

    The same rules as at creation: a player who may be seated at once (the creator's own
    bots, the house bots, a bot with a standing yes) sits down, and the fourth seat starts
    the game; anyone else is invited and the seat is held for them. A seat held by a live
    invitation or taken is refused, as is a player already seated or invited; at most
    ``GAMES_MAX_INVITATIONS_PER_GAME`` invitations per game, answered or not, so a game
    cannot be used to send invitations without end.
    """
    if position not in range(4):
        raise BadGameSetup(
            message=_("A seat position is 0, 1, 2 or 3."), extra={"position": position}
        )
    now = timezone.now()
    with transaction.atomic():
        game = services.lock_game(game_id)
        if game.creator_id != by.pk:
            raise NotYourSeat(message=_("Only the game's creator can invite players to it."))
        if game.status != GameStatus.WAITING:
            raise GameNotWaiting(message=_("This game is no longer taking players."))
        _expire_dead(game, now)  # their seats are open already; their rows must say so
        taken = dict(game.seats.values_list("position", "player_id"))
        held = services.held_for_invitees(game)
        if player.pk in taken.values():
            raise AlreadySeated(
                message=_("%(name)s already has a seat in this game.") % {"name": player.name}
            )
        if player.pk in held.values():
            raise AlreadyInvited(
                message=_("%(name)s is already invited to this game.") % {"name": player.name}
            )
        if position in taken or position in held:
            raise SeatTaken(
                message=_("That seat is taken.")
                if position in taken
                else _("That seat is held for an invited player."),
                extra={"position": position},
            )
        # The table's rules count the invitees too, whichever way this player comes to it.
        others = list(Player.objects.filter(pk__in=[*taken.values(), *held.values()]))
        services.seats_check([*others, player], rated=game.rated)
        if seated_at_once(creator=by, player=player):
            return services.game_join_seat(game_id=game.pk, player=player, position=position)
        cap = int(getattr(settings, "GAMES_MAX_INVITATIONS_PER_GAME", 12))
        if Invitation.objects.filter(game=game).count() >= cap:
            raise TooManyInvitations(
                message=_(
                    "This game has sent %(cap)s invitations, its limit; leave the seat open for anyone, or start a new game."
                )
                % {"cap": cap},
                extra={"limit": cap},
            )
        row = Invitation.objects.create(
            game=game,
            position=position,
            player=player,
            invited_by=by,
            expires_at=now + invitation_lifetime(),
        )
        invitation_hooks.fire_on_commit("invited", row)
    return game


def _expire_dead(game: Game, now: Any) -> None:
    """Mark the game's pending invitations past their time ``expired`` now (the sweep's
    work, done early: a new invitation may not sit beside a dead pending one)."""
    for row in Invitation.objects.select_for_update().filter(
        game=game, status=InvitationStatus.PENDING, expires_at__lte=now
    ):
        _mark_expired(row)


def _mark_expired(row: Invitation) -> None:
    """Say so on a locked pending invitation past its time, and tell whoever invited."""
    row.status = InvitationStatus.EXPIRED
    row.save(update_fields=["status"])
    invitation_hooks.fire_on_commit("expired", row)


def _lock_invitation(invitation_id: int) -> Invitation:
    try:
        return (
            Invitation.objects.select_for_update()
            .select_related("player", "game")
            .get(pk=invitation_id)
        )
    except Invitation.DoesNotExist:
        raise InvitationNotFound(
            message=_("No invitation %(invitation_id)s.") % {"invitation_id": invitation_id},
            extra={"id": invitation_id},
        ) from None


def _check_open(invitation: Invitation, now: Any) -> None:
    if invitation.status != InvitationStatus.PENDING:
        raise InvitationClosed(
            message=_("This invitation was already accepted.")
            if invitation.status == InvitationStatus.ACCEPTED
            else _("This invitation was already declined.")
            if invitation.status == InvitationStatus.DECLINED
            else _("This invitation has expired."),
            extra={"status": invitation.status},
        )
    if invitation.expires_at <= now:
        raise InvitationClosed(
            message=_("This invitation has expired."), extra={"status": InvitationStatus.EXPIRED}
        )
    if invitation.game.status != GameStatus.WAITING:
        raise InvitationClosed(
            message=_("This game no longer waits for players."),
            extra={"status": invitation.game.status},
        )


def invitation_answer(*, invitation_id: int, user: Any, accept: bool) -> Invitation:
    """Accept (take the held seat; the fourth seat starts the game) or decline (the seat
    opens). Only the invitee, or the owner of an invited bot, may answer; anyone else is
    told there is no such invitation."""
    now = timezone.now()
    with transaction.atomic():
        # The game row first, then the invitation: the same order as every seat change.
        game_pk = (
            Invitation.objects.filter(pk=invitation_id).values_list("game_id", flat=True).first()
        )
        if game_pk is not None:
            services.lock_game(game_pk)
        invitation = _lock_invitation(invitation_id)
        invitee = invitation.player
        if not _controls(user, invitee):
            raise InvitationNotFound(
                message=_("No invitation %(invitation_id)s.") % {"invitation_id": invitation_id},
                extra={"id": invitation_id},
            )
        _check_open(invitation, now)
        invitation.status = InvitationStatus.ACCEPTED if accept else InvitationStatus.DECLINED
        invitation.answered_at = now
        invitation.save(update_fields=["status", "answered_at"])
        if accept:
            services.game_join_seat(
                game_id=invitation.game_id, player=invitee, position=invitation.position
            )
        invitation_hooks.fire_on_commit("accepted" if accept else "declined", invitation)
    return invitation


def _controls(user: Any, player: Player) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return player.user_id == user.pk or (player.is_bot and player.owner_id == user.pk)


def invitations_expire(*, now: Any = None) -> int:
    """Mark pending invitations past their time ``expired`` (their seats are already open:
    every check reads the time); tell the creators. Returns how many."""
    now = now or timezone.now()
    count = 0
    due = list(
        Invitation.objects.filter(status=InvitationStatus.PENDING, expires_at__lte=now)
        .order_by("pk")
        .values_list("pk", flat=True)[:500]
    )
    for pk in due:
        with transaction.atomic():
            row = (
                Invitation.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, status=InvitationStatus.PENDING)
                .first()
            )
            if row is None:
                continue
            _mark_expired(row)
            count += 1
    return count


def invitation_rule_set(
    *, player: Player, accept_from: str, listed: Sequence[Player] = ()
) -> InvitationRule:
    """Set how a bot answers invitations: ``nobody`` (its owner answers each), ``anyone``,
    or ``listed`` (the given players; the others are asked as usual)."""
    if accept_from not in AcceptFrom.values:
        raise BadGameSetup(
            "bad_invitation_rule",
            _("accept_invitations is one of %(value)s.") % {"value": ", ".join(AcceptFrom.values)},
        )
    if not player.is_bot:
        raise NotYourSeat(message=_("Only bots answer invitations by a standing rule."))
    with transaction.atomic():
        rule, _unused = InvitationRule.objects.update_or_create(
            player=player, defaults={"accept_from": accept_from}
        )
        rule.listed.set(listed if accept_from == AcceptFrom.LISTED else [])
    return rule
