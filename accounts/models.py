"""Players: people and bots alike are players; a player's name is its public identity."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower

NAME_PATTERN = r"^[A-Za-z0-9_-]{3,30}$"
NAME_HELP = "3 to 30 letters, digits, '_' or '-'."

validate_player_name = RegexValidator(
    regex=NAME_PATTERN, message=f"A player name is {NAME_HELP}", code="invalid_name"
)


class Player(models.Model):
    """A seat-taker: a person (``user`` set) or a bot (``is_bot``, with an ``owner``).

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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_ci_unique"),
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
