"""The house bots: the club's own hosted bots, owned by the system user ``house``.

They are system players (``Player.is_house``): no person plays through them, so a rated
table may seat several of them. Three per strength, so one person can fill a table with
bots of the strength they choose.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from accounts.models import Player
from backalley_site.errors import DomainError
from bots.brain import HOUSE_STRONG_PARAMS
from bots.models import Bot, BotKind

HOUSE_USER = "house"


StrOrPromise = str | Promise


@dataclass(frozen=True)
class Strength:
    key: str
    label: StrOrPromise
    strategy: str
    blurb: StrOrPromise


STRENGTHS: dict[str, Strength] = {
    s.key: s
    for s in (
        Strength("easy", gettext_lazy("Easy"), "random", gettext_lazy("plays any legal card")),
        Strength(
            "medium",
            gettext_lazy("Medium"),
            "heuristic",
            gettext_lazy("bids from its hand and plays sensibly"),
        ),
        Strength(
            "hard",
            gettext_lazy("Hard"),
            "strong",
            gettext_lazy("searches likely hands before each card"),
        ),
    )
}
DEFAULT_STRENGTH = "medium"

# name, strategy, description (the first four came with the club; see bots/migrations).
# The descriptions are stored in English and shown in the reader's language
# (house_description); gettext_noop marks them for the catalogs.
HOUSE_BOTS: list[tuple[str, str, str]] = [
    ("house-random", "random", gettext_noop("Plays a random legal card or bid.")),
    (
        "house-heuristic",
        "heuristic",
        gettext_noop("Bids from an estimate of its tricks and plays sensibly."),
    ),
    (
        "house-heuristic-2",
        "heuristic",
        gettext_noop("A second heuristic bot, for full tables of house bots."),
    ),
    (
        "house-strong",
        "strong",
        gettext_noop("Determinized search, 10 ms of CPU time per decision."),
    ),
    (
        "house-random-2",
        "random",
        gettext_noop("A second random bot, for full tables of house bots."),
    ),
    (
        "house-random-3",
        "random",
        gettext_noop("A third random bot, for full tables of house bots."),
    ),
    (
        "house-heuristic-3",
        "heuristic",
        gettext_noop("A third heuristic bot, for full tables of house bots."),
    ),
    (
        "house-strong-2",
        "strong",
        gettext_noop("A second strong bot, for full tables of house bots."),
    ),
    (
        "house-strong-3",
        "strong",
        gettext_noop("A third strong bot, for full tables of house bots."),
    ),
]


def house_description(description: str) -> str:
    """A house bot's stored (English) description in the active language."""
    return _(description) if description else description


class UnknownStrength(DomainError):
    code = "unknown_strength"
    http_status = 400


class HouseBotsMissing(DomainError):
    code = "house_bots_missing"
    http_status = 503


def house_bots_ensure() -> list[Player]:
    """Create (or mark) every house bot; idempotent. A name held by someone else is skipped."""
    User = get_user_model()
    made: list[Player] = []
    with transaction.atomic():
        owner, _unused = User.objects.get_or_create(
            username=HOUSE_USER, defaults={"password": make_password(None), "is_active": False}
        )
        for name, strategy, description in HOUSE_BOTS:
            player = Player.objects.filter(name__iexact=name).first()
            if player is None:
                player = Player.objects.create(name=name, is_bot=True, owner=owner, is_house=True)
            elif not player.is_bot or player.owner_id != owner.pk:
                continue  # never take over a name that belongs to someone else
            elif not player.is_house:
                player.is_house = True
                player.save(update_fields=["is_house"])
            Bot.objects.get_or_create(
                player=player,
                defaults={
                    "kind": BotKind.HOSTED,
                    "strategy": strategy,
                    "params": dict(HOUSE_STRONG_PARAMS) if strategy == "strong" else {},
                    "description": description,
                },
            )
            made.append(player)
    return made


def house_players(*, strength: str, count: int = 3) -> list[Player]:
    """``count`` distinct house bots of ``strength`` (easy, medium or hard)."""
    if strength not in STRENGTHS:
        raise UnknownStrength(
            message=_("A bots' strength is one of %(value)s.") % {"value": ", ".join(STRENGTHS)},
            extra={"strength": strength, "choices": list(STRENGTHS)},
        )
    strategy = STRENGTHS[strength].strategy
    players = list(
        Player.objects.filter(
            is_house=True, bot__kind=BotKind.HOSTED, bot__strategy=strategy
        ).order_by("name")[:count]
    )
    if len(players) < count:
        raise HouseBotsMissing(
            message=_("The club has too few %(strength)s house bots to fill a table.")
            % {"strength": strength},
            extra={"strength": strength, "found": len(players)},
        )
    return players
