"""Writes for bots: registration, updates, secret rotation, removal and the fault log."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.credentials import credentials_changed_after_commit
from accounts.models import ApiToken, Player
from accounts.services import bot_player_create, player_name_check
from backalley_site.errors import DomainError
from backalley_site.text import clean_text
from bots import brain, netguard, signing, webhook
from bots.models import Bot, BotFault, BotKind, BotStatus, FaultKind
from bots.signals import bot_retired
from games.errors import UnknownPlayer
from games.invitations import invitation_rule_set
from games.models import AcceptFrom, InvitationRule, Seat
from games.retire import player_retire


class WebhookPingFailed(DomainError):
    code = "webhook_ping_failed"
    http_status = 400


class BotFieldError(DomainError):
    code = "bad_bot"
    http_status = 400


def bot_secret(bot: Bot) -> str:
    """The webhook secret, recomputed from the server key and the stored nonce."""
    return signing.derive_secret(settings.BOTS_WEBHOOK_KEY, bot.secret_nonce)


def bot_signing_secrets(bot: Bot) -> list[str]:
    """The secrets a turn is signed with: the current one first, then those still in a grace
    period, so a bot keeps verifying while it changes its secret:

    - the owner rotated the bot's secret and kept the previous one for a while
      (``previous_secret_until``);
    - the operator rotated the server key: secrets derived from the previous keys, until
      ``BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL``.
    """
    now = timezone.now()
    nonces = [bot.secret_nonce]
    if bot.previous_secret_nonce and bot.previous_secret_until and now < bot.previous_secret_until:
        nonces.append(bot.previous_secret_nonce)
    keys = [settings.BOTS_WEBHOOK_KEY]
    until = getattr(settings, "BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL", None)
    if until is None or now < until:
        keys += getattr(settings, "BOTS_WEBHOOK_PREVIOUS_KEYS", [])
    return [signing.derive_secret(key, nonce) for nonce in nonces for key in keys]


def _checked_ping(url: str, secret: str) -> str:
    """Refuse a URL that is not allowed or whose owner does not answer the signed ping."""
    netguard.check_url(url)
    try:
        webhook.ping(url, secret)
    except webhook.WebhookFault as exc:
        # One neutral answer whatever went wrong: saying "refused", "timed out" or "HTTP 404"
        # would let anyone use registration to learn which hosts and ports answer.
        raise WebhookPingFailed(
            message=(
                _(
                    "The webhook did not answer the signed verification ping with its challenge in time. See docs/bots.md for what a bot must answer."
                )
            ),
            extra={},
        ) from exc
    return url


def _check_fields(kind: str, strategy: str, params: Any, webhook_url: str) -> dict[str, Any]:
    if kind not in BotKind.values:
        raise BotFieldError(
            message=_("A bot's kind is one of %(value)s.") % {"value": ", ".join(BotKind.values)},
            extra={"kind": kind},
        )
    if kind == BotKind.HOSTED:
        if webhook_url:
            raise BotFieldError(message=_("A hosted bot has no webhook_url."), extra={})
        return {"strategy": strategy, "params": brain.validate(strategy, params)}
    if strategy or params:
        raise BotFieldError(
            message=_("A %(kind)s bot has no strategy or params.") % {"kind": kind}, extra={}
        )
    if kind == BotKind.WEBHOOK:
        if not webhook_url:
            raise BotFieldError(message=_("A webhook bot needs a webhook_url."), extra={})
        return {"webhook_url": webhook_url}
    if webhook_url:
        raise BotFieldError(message=_("An api bot has no webhook_url."), extra={})
    return {}


def bot_create(
    *,
    owner: User,
    name: str,
    kind: str,
    description: str = "",
    strategy: str = "",
    params: dict[str, Any] | None = None,
    webhook_url: str = "",
) -> tuple[Bot, str | None]:
    """Register a bot; returns it and, for a webhook bot, its secret (shown only this once).

    Everything is checked (name, fields, URL, the signed ping) before anything is written.
    """
    name = player_name_check(name)
    fields = _check_fields(kind, strategy, params, webhook_url)
    secret = None
    if kind == BotKind.WEBHOOK:
        fields["secret_nonce"] = signing.new_nonce()
        fields["secret_rotated_at"] = timezone.now()
        secret = signing.derive_secret(settings.BOTS_WEBHOOK_KEY, fields["secret_nonce"])
        # The ping runs outside any transaction: no row is locked while we wait on the network.
        _checked_ping(webhook_url, secret)
    with transaction.atomic():
        player = bot_player_create(owner=owner, name=name)
        bot = Bot.objects.create(player=player, kind=kind, description=description, **fields)
    return bot, secret


def bot_update(
    *,
    bot: Bot,
    description: str | None = None,
    strategy: str | None = None,
    params: dict[str, Any] | None = None,
    webhook_url: str | None = None,
    status: str | None = None,
    accept_invitations: str | None = None,
    accept_invitations_from: list[str] | None = None,
) -> Bot:
    """Change what the owner may change; the kind and the name stay. Nothing is written on error."""
    if accept_invitations is not None or accept_invitations_from is not None:
        _set_invitation_rule(bot, accept_invitations, accept_invitations_from)
    changes: dict[str, Any] = {}
    if description is not None:
        changes["description"] = description
    if strategy is not None or params is not None:
        if bot.kind != BotKind.HOSTED:
            raise BotFieldError(
                message=_("A %(kind)s bot has no strategy or params.") % {"kind": bot.kind},
                extra={},
            )
        new_strategy = strategy if strategy is not None else bot.strategy
        new_params = params if params is not None else (bot.params if strategy is None else {})
        changes["strategy"] = new_strategy
        changes["params"] = brain.validate(new_strategy, new_params)
    if webhook_url is not None and webhook_url != bot.webhook_url:
        if bot.kind != BotKind.WEBHOOK:
            raise BotFieldError(
                message=_("A %(kind)s bot has no webhook_url.") % {"kind": bot.kind}, extra={}
            )
        changes["webhook_url"] = _checked_ping(webhook_url, bot_secret(bot))
    if status is not None and status != bot.status:
        if status not in (BotStatus.ACTIVE, BotStatus.DISABLED):
            raise BotFieldError(
                message=_("The owner may set a bot's status to 'active' or 'disabled'."),
                extra={"status": status},
            )
        changes["status"] = status
        if status == BotStatus.ACTIVE:
            changes["consecutive_faults"] = 0
            changes["suspended_at"] = None
    if changes:
        changes["updated_at"] = timezone.now()
        Bot.objects.filter(pk=bot.pk).update(**changes)
        bot.refresh_from_db()
    return bot


def _set_invitation_rule(bot: Bot, accept_from: str | None, names: list[str] | None) -> None:
    """How the bot answers invitations (``games.invitations``): the names must be players."""
    rule = InvitationRule.objects.filter(player_id=bot.player_id).first()
    if accept_from is None:
        accept_from = rule.accept_from if rule else AcceptFrom.NOBODY
    if names is None:  # keep the list as it was
        names = [p.name for p in rule.listed.all()] if rule else []
    listed = []
    for name in names:
        player = Player.objects.filter(name__iexact=name.strip()).first()
        if player is None:
            raise UnknownPlayer(
                message=_("There is no player called %(name)s.") % {"name": repr(name)},
                extra={"name": name},
            )
        listed.append(player)
    invitation_rule_set(player=bot.player, accept_from=accept_from, listed=listed)


# How long an owner may keep a rotated-out secret signing beside the new one.
MAX_KEEP_PREVIOUS = timedelta(hours=72)


def bot_rotate_secret(*, bot: Bot, keep_previous: timedelta = timedelta(0)) -> tuple[Bot, str]:
    """Draw a new webhook secret and return it. The old one stops signing at once, or, with
    ``keep_previous``, signs every request beside the new one for that long (at most
    ``MAX_KEEP_PREVIOUS``), so the running bot keeps verifying until it has the new one.
    Rotating again ends an earlier grace: only the secret just replaced is kept."""
    if bot.kind != BotKind.WEBHOOK:
        raise BotFieldError(message=_("Only webhook bots have a secret."), extra={})
    if not timedelta(0) <= keep_previous <= MAX_KEEP_PREVIOUS:
        hours = MAX_KEEP_PREVIOUS.total_seconds() / 3600
        raise BotFieldError(
            message=_("keep_previous_hours is 0 to %(hours)s.") % {"hours": format(hours, "g")},
            extra={"max": hours},
        )
    now = timezone.now()
    with transaction.atomic():
        current = Bot.objects.select_for_update().values_list("secret_nonce", flat=True)
        previous = current.get(pk=bot.pk)
        kept = keep_previous > timedelta(0)
        Bot.objects.filter(pk=bot.pk).update(
            secret_nonce=signing.new_nonce(),
            secret_rotated_at=now,
            previous_secret_nonce=previous if kept else "",
            previous_secret_until=now + keep_previous if kept else None,
            updated_at=now,
        )
    bot.refresh_from_db()
    return bot, bot_secret(bot)


def bot_remove(*, bot: Bot) -> str:
    """Delete a bot that never sat at a table; retire one that did, for good: its games keep
    its name, but its tokens stop working, it leaves the games still waiting for players,
    its invitations are declined, and it can never be seated or invited again
    (``games.retire``), and it leaves the arena (``bots.signals.bot_retired``). It is gone
    from its owner's list of bots.

    Returns ``"deleted"`` or ``"disabled"``.
    """
    with transaction.atomic():
        if Seat.objects.filter(player_id=bot.player_id).exists():
            now = timezone.now()
            Bot.objects.filter(pk=bot.pk).update(status=BotStatus.DISABLED, updated_at=now)
            ApiToken.objects.filter(bot_id=bot.player_id, revoked_at__isnull=True).update(
                revoked_at=now
            )
            credentials_changed_after_commit()
            player_retire(player=bot.player)
            bot_retired.send(sender=Bot, bot_id=bot.pk)
            return "disabled"
        bot.player.delete()
    return "deleted"


def fault_record(
    *, bot_id: int, kind: str, detail: str, game_id: int | None, seq: int | None
) -> BotFault | None:
    """Log a fault once per turn and suspend the bot after N consecutive faults.

    Returns None when this turn's fault was already logged (a redelivered task).
    """
    limit = int(getattr(settings, "BOTS_MAX_CONSECUTIVE_FAULTS", 5))
    if kind not in FaultKind.values:
        kind = FaultKind.MALFORMED
    # The detail quotes the bot's answer: no NUL (PostgreSQL refuses it) or control characters.
    detail = clean_text(detail, max_length=BotFault._meta.get_field("detail").max_length or 500)
    try:
        with transaction.atomic():
            fault = BotFault.objects.create(
                bot_id=bot_id, kind=kind, detail=detail, game_id=game_id, seq=seq
            )
            Bot.objects.filter(pk=bot_id).update(consecutive_faults=F("consecutive_faults") + 1)
            Bot.objects.filter(
                pk=bot_id, status=BotStatus.ACTIVE, consecutive_faults__gte=limit
            ).update(status=BotStatus.SUSPENDED, suspended_at=timezone.now())
    except IntegrityError:
        return None
    return fault


def fault_streak_reset(*, bot_id: int) -> None:
    """A good answer ends the streak of consecutive faults."""
    Bot.objects.filter(pk=bot_id, consecutive_faults__gt=0).update(consecutive_faults=0)
