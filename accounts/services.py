"""Writes for accounts: creating players (people and bots)."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import NAME_PATTERN, Player
from backalley_site.errors import DomainError


class PlayerNameError(DomainError):
    code = "invalid_name"
    http_status = 400


class PlayerNameTakenError(DomainError):
    code = "name_taken"
    http_status = 409


def player_name_check(name: str) -> str:
    """Return ``name`` stripped if it is well-formed and free; raise a typed error if not."""
    name = (name or "").strip()
    if not re.fullmatch(NAME_PATTERN, name):
        raise PlayerNameError(
            message=_("A player name is 3 to 30 letters, digits, '_' or '-'."),
            extra={"name": name},
        )
    if Player.objects.filter(name__iexact=name).exists():
        raise PlayerNameTakenError(
            message=_("The name %(name)s is already taken.") % {"name": repr(name)},
            extra={"name": name},
        )
    return name


def _create(**fields: object) -> Player:
    name = player_name_check(str(fields["name"]))
    fields["name"] = name
    try:
        # A savepoint, so a lost race on the unique name leaves any outer transaction usable.
        with transaction.atomic():
            return Player.objects.create(**fields)
    except IntegrityError as exc:
        if Player.objects.filter(name__iexact=name).exists():
            raise PlayerNameTakenError(
                message=_("The name %(name)s is already taken.") % {"name": repr(name)},
                extra={"name": name},
            ) from exc
        raise


def player_create(*, user: User, name: str) -> Player:
    """Create the Player of a person with a chosen public name."""
    if Player.objects.filter(user=user).exists():
        raise DomainError("player_exists", _("This account already has a player."), http_status=409)
    return _create(name=name, user=user, is_bot=False)


def bot_player_create(*, owner: User, name: str) -> Player:
    """Create a bot Player owned by ``owner``."""
    return _create(name=name, owner=owner, is_bot=True)


def _name_from_username(username: str) -> str:
    base = re.sub(r"[^A-Za-z0-9_-]", "", username)[:24]
    return base if len(base) >= 3 else (base + "player")[:24]


def player_for_user(user: User | AnonymousUser) -> Player:
    """The person's Player, created on first use with a name derived from the username."""
    if not user.is_authenticated:
        raise DomainError("not_authenticated", _("Log in first."), http_status=401)
    try:
        return Player.objects.get(user=user)
    except Player.DoesNotExist:
        pass
    base = _name_from_username(user.get_username())
    for attempt in range(50):
        name = base if attempt == 0 else f"{base}-{attempt + 1}"
        try:
            return player_create(user=user, name=name)
        except PlayerNameTakenError:
            continue
        except DomainError as exc:
            if exc.code == "player_exists":  # created concurrently by another request
                return Player.objects.get(user=user)
            raise
    raise DomainError(
        "name_taken", _("Could not find a free player name; choose one."), http_status=409
    )


def account_signup(*, username: str, password: str, name: str) -> Player:
    """Create a site account and its player together, or nothing at all.

    Raises ``invalid`` (with field messages in ``extra["fields"]``), ``username_taken`` or
    ``name_taken``.
    """
    user_model = get_user_model()
    username = (username or "").strip()
    fields: dict[str, list[str]] = {}
    try:
        user_model._meta.get_field("username").run_validators(username)
        if not username:
            raise ValidationError(_("A username is required."))
    except ValidationError as exc:
        fields["username"] = list(exc.messages)
    try:
        validate_password(password, user_model(username=username))
    except ValidationError as exc:
        fields["password"] = list(exc.messages)
    if fields:
        first = next(iter(fields.items()))
        raise DomainError(
            "invalid",
            _("Invalid input: %(field)s: %(problem)s")
            % {"field": first[0], "problem": first[1][0]},
            extra={"fields": fields},
        )
    if user_model.objects.filter(username__iexact=username).exists():
        raise DomainError(
            "username_taken",
            _("The username %(username)s is taken.") % {"username": repr(username)},
            http_status=409,
        )
    name = player_name_check(name)
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, password=password)
            return player_create(user=user, name=name)
    except IntegrityError as exc:
        # Lost a race with another sign-up for the same username.
        raise DomainError(
            "username_taken",
            _("The username %(username)s is taken.") % {"username": repr(username)},
            http_status=409,
        ) from exc


def player_set_autoplay(*, player: Player, autoplay: bool) -> Player:
    """Whether the service plays this player's forced actions for it (docs/rules.md §10)."""
    if player.autoplay != autoplay:
        player.autoplay = autoplay
        player.save(update_fields=["autoplay"])
    return player
