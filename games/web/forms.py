"""The new-game form: who sits where (by name, or open), the time control, rated or not."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.models import Player

# The creator takes position 0; the others follow clockwise (docs/rules.md §1: partners opposite).
SEAT_FIELDS = (("left", 1), ("partner", 2), ("right", 3))
TIME_CONTROLS = [
    ("", gettext_lazy("No clock")),
    ("1", gettext_lazy("1 day per move")),
    ("2", gettext_lazy("2 days per move")),
    ("3", gettext_lazy("3 days per move")),
    ("7", gettext_lazy("7 days per move")),
]
OPEN_HELP = gettext_lazy("A player's or bot's name, or leave empty for an open seat.")


def _seat_field(label: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=30,
        help_text=OPEN_HELP,
        widget=forms.TextInput(
            attrs={
                "list": "player-names",
                "autocomplete": "off",
                "placeholder": pgettext_lazy("placeholder", "open seat"),
            }
        ),
    )


class GameCreateForm(forms.Form):
    left = _seat_field(gettext_lazy("Left opponent"))
    partner = _seat_field(gettext_lazy("Partner"))
    right = _seat_field(gettext_lazy("Right opponent"))
    days_per_move = forms.TypedChoiceField(
        label=gettext_lazy("Time control"),
        choices=TIME_CONTROLS,
        coerce=int,
        empty_value=None,
        required=False,
    )
    # Rated by default, as on the big game sites: a first game already puts you on the ladder.
    rated = forms.BooleanField(label=gettext_lazy("Rated game"), required=False, initial=True)

    def __init__(self, *args: Any, me: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.me = me
        self.players: dict[str, Player | None] = {}

    def _clean_seat(self, name: str) -> Player | None:
        text = (self.cleaned_data.get(name) or "").strip()
        if not text:
            return None
        player = Player.objects.filter(name__iexact=text).first()
        if player is None:
            raise forms.ValidationError(
                _("There is no player or bot called “%(name)s”.") % {"name": text}
            )
        if player.pk == self.me.pk:
            raise forms.ValidationError(_("You already sit in your own game."))
        return player

    def clean_left(self) -> Player | None:
        return self._clean_seat("left")

    def clean_partner(self) -> Player | None:
        return self._clean_seat("partner")

    def clean_right(self) -> Player | None:
        return self._clean_seat("right")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seen: set[int] = set()
        for name, _position in SEAT_FIELDS:
            player = data.get(name)
            if player is None:
                continue
            if player.pk in seen:
                self.add_error(name, _("%(name)s can take only one seat.") % {"name": player.name})
            seen.add(player.pk)
        return data

    def seats(self) -> list[Player | None]:
        """The four positions for ``game_create``: the creator, then clockwise."""
        return [self.me] + [self.cleaned_data.get(name) for name, _position in SEAT_FIELDS]

    def options(self) -> dict[str, Any]:
        days = self.cleaned_data.get("days_per_move")
        return {
            "rated": bool(self.cleaned_data.get("rated")),
            "time_control": {"days_per_move": days} if days else None,
        }
