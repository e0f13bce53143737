"""Writes for accounts: creating players (people and bots)."""

from __future__ import annotations

import re

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction

from accounts.models import NAME_HELP, NAME_PATTERN, Player
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
        raise PlayerNameError(message=f"A player name is {NAME_HELP}", extra={"name": name})
    if Player.objects.filter(name__iexact=name).exists():
        raise PlayerNameTakenError(
            message=f"The name {name!r} is already taken.", extra={"name": name}
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
                message=f"The name {name!r} is already taken.", extra={"name": name}
            ) from exc
        raise


def player_create(*, user: AbstractBaseUser, name: str) -> Player:
    """Create the Player of a person with a chosen public name."""
    if Player.objects.filter(user=user).exists():
        raise DomainError("player_exists", "This account already has a player.", http_status=409)
    return _create(name=name, user=user, is_bot=False)


def bot_player_create(*, owner: AbstractBaseUser, name: str) -> Player:
    """Create a bot Player owned by ``owner``."""
    return _create(name=name, owner=owner, is_bot=True)


def _name_from_username(username: str) -> str:
    base = re.sub(r"[^A-Za-z0-9_-]", "", username)[:24]
    return base if len(base) >= 3 else (base + "player")[:24]


def player_for_user(user: AbstractBaseUser | AnonymousUser) -> Player:
    """The person's Player, created on first use with a name derived from the username."""
    if not user.is_authenticated:
        raise DomainError("not_authenticated", "Log in first.", http_status=401)
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
        "name_taken", "Could not find a free player name; choose one.", http_status=409
    )
