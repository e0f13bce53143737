"""Players: people and bots alike are players; a player's name is its public identity."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy

NAME_PATTERN = r"^[A-Za-z0-9_-]{3,30}$"
NAME_HELP = gettext_lazy("3 to 30 letters, digits, '_' or '-'.")

validate_player_name = RegexValidator(
    regex=NAME_PATTERN,
    message=gettext_lazy("A player name is 3 to 30 letters, digits, '_' or '-'."),
    code="invalid_name",
)


class Player(models.Model):
    """A seat-taker: a person (``user`` set) or a bot (``is_bot``, with an ``owner``).

    A *house* bot (``is_house``) is a system player: one of the club's own hosted bots,
    owned by the system user. No person sees its hand, so several may sit at one rated
    table; they are rated like anyone.

    Names are unique ignoring case (a functional unique index on ``lower(name)``) so that
    "Alice" and "alice" can never both exist and look-ups by name can be case-insensitive.
    """

    name = models.CharField(
        max_length=30, unique=True, validators=[validate_player_name], help_text=NAME_HELP
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="player",
        help_text="The person behind this player; empty for bots.",
    )
    is_bot = models.BooleanField(default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="bot_players",
        help_text="The user who owns this bot; empty for people.",
    )
    is_house = models.BooleanField(
        default=False, help_text="One of the club's own bots (a system player)."
    )
    # The service makes this player's forced actions for it (docs/rules.md §10); a person
    # may turn it off for their seats.
    autoplay = models.BooleanField(
        default=True, help_text="Play my forced actions (a single legal card) for me."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A bot deleted by its owner after it played: kept for its games' records and its name,
    # but it can no longer be seated, invited or use a token.
    retired_at = models.DateTimeField(null=True, blank=True)
    # The language the person chose (the top bar's switcher) or signed up in: the site is
    # shown in it at each login, and e-mails and notices to this player are written in it.
    # Empty: not chosen yet (the browser's language, and English for e-mails).
    language = models.CharField(max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    # The person deleted their account (accounts.privacy): the name is a pseudonym from then
    # on, nothing personal is kept, and the finished games stay for everyone else's records.
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_ci_unique"),
            models.CheckConstraint(
                condition=models.Q(is_house=False) | models.Q(is_bot=True),
                name="player_house_is_bot",
            ),
            # A person has a user and no owner; a bot has an owner and no user.
            models.CheckConstraint(
                condition=(
                    models.Q(is_bot=False, user__isnull=False, owner__isnull=True)
                    | models.Q(is_bot=True, user__isnull=True, owner__isnull=False)
                ),
                name="player_person_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (bot)" if self.is_bot else self.name


class Scope(models.TextChoices):
    """What a personal API token may do."""

    READ = "read", gettext_lazy("Read games, records and standings")
    PLAY = "play", gettext_lazy("Make moves and manage games as the token's owner")
    BOT = "bot", gettext_lazy("Register bots and play the seats of the owner's bots")


ALL_SCOPES: frozenset[str] = frozenset(Scope.values)


class ApiToken(models.Model):
    """A personal API token. Only a SHA-256 hash of the secret is stored.

    The secret is shown once, when the token is made; ``prefix`` (its first characters)
    lets its owner recognise it in a list. A token restricted to one bot (``bot``) acts
    only for that bot's seats.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    scopes = models.JSONField(default=list, help_text="A subset of read, play, bot.")
    bot = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="api_tokens",
        help_text="If set, the token acts only for this bot.",
    )
    prefix = models.CharField(max_length=16, help_text="The token's first characters.")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"], name="apitoken_user_created")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes
