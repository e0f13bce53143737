"""The new-game form: who sits where (by name, or open), the time control (one the clock
names, or the person's own time per move and bank), rated or not."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.models import Player
from games import extensions

# The creator takes position 0; the others follow clockwise (docs/rules.md §1: partners opposite).
SEAT_FIELDS = (("left", 1), ("partner", 2), ("right", 3))
CUSTOM = "custom"
_DURATION = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")
_UNITS = (86400, 3600, 60, 1)
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
    # The clock's named controls (its presets, whole days), or one of the person's own.
    time_control = forms.ChoiceField(label=gettext_lazy("Time control"), required=False)
    per_move = forms.CharField(
        label=gettext_lazy("Time per move"),
        required=False,
        max_length=20,
        help_text=gettext_lazy("For your own time control: for example 90m, 12h or 2d."),
    )
    bank = forms.CharField(
        label=gettext_lazy("Bank for the whole game"),
        required=False,
        max_length=20,
        help_text=gettext_lazy("Spent by moves made after their time: for example 30m or 3d."),
    )
    # Rated by default, as on the big game sites: a first game already puts you on the ladder.
    rated = forms.BooleanField(label=gettext_lazy("Rated game"), required=False, initial=True)

    def __init__(self, *args: Any, me: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.me = me
        self.players: dict[str, Player | None] = {}
        self.named_controls = {
            key: value for key, _label, value in extensions.option_choices("time_control")
        }
        field = self.fields["time_control"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [
            ("", _("No clock")),
            *[(key, label) for key, label, _value in extensions.option_choices("time_control")],
            (CUSTOM, _("My own: the time per move and bank below")),
        ]

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

    def _clean_duration(self, name: str) -> int | None:
        text = (self.cleaned_data.get(name) or "").strip().lower().replace(" ", "")
        if not text:
            return None
        found = _DURATION.match(text)
        if found is None or not any(found.groups()):
            raise forms.ValidationError(
                _("Write a time such as 90m, 12h, 2d or 1h30m."), code="bad_duration"
            )
        return sum(int(n) * unit for n, unit in zip(found.groups(), _UNITS, strict=True) if n)

    def clean_per_move(self) -> int | None:
        return self._clean_duration("per_move")

    def clean_bank(self) -> int | None:
        return self._clean_duration("bank")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("time_control") == CUSTOM and not data.get("per_move"):
            if "per_move" not in self.errors:
                self.add_error("per_move", _("Give the time per move of your own time control."))
        elif data.get("time_control") == CUSTOM and data["per_move"] % 60:
            self.add_error("per_move", _("The time per move is counted in whole minutes."))
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
        return {"rated": bool(self.cleaned_data.get("rated")), "time_control": self._time_control()}

    def _time_control(self) -> dict[str, Any] | None:
        """The option for ``game_create``, which the clock checks (a bad one is refused there)."""
        key = self.cleaned_data.get("time_control") or ""
        if key != CUSTOM:
            return self.named_controls.get(key)
        per_move = self.cleaned_data.get("per_move") or 0
        bank = self.cleaned_data.get("bank") or 0
        return {"minutes_per_move": per_move // 60, "bank_seconds": bank}


ME = "me"


class ForkForm(forms.Form):
    """Fork this hand (games.forks): where the fork starts, and who sits in each seat: the
    person, one of their bots or a house bot. The start is one of the original's deals
    (from its first bid) or any move number of the game's log."""

    start = forms.TypedChoiceField(label=gettext_lazy("Start from"), coerce=int)
    move = forms.IntegerField(
        label=gettext_lazy("Or after move number (optional)"), required=False, min_value=0
    )
    seat_0 = forms.ChoiceField(label=gettext_lazy("Seat 0"))
    seat_1 = forms.ChoiceField(label=gettext_lazy("Seat 1"))
    seat_2 = forms.ChoiceField(label=gettext_lazy("Seat 2"))
    seat_3 = forms.ChoiceField(label=gettext_lazy("Seat 3"))

    SEATS = ("seat_0", "seat_1", "seat_2", "seat_3")

    def __init__(
        self,
        *args: Any,
        me: Player,
        starts: list[tuple[int, int]],
        candidates: list[Player],
        **kwargs: Any,
    ) -> None:
        """``starts``: (deal number, its first move) of the original's deals; ``candidates``:
        the bots the person may seat (theirs first, then the house's)."""
        super().__init__(*args, **kwargs)
        self.me = me
        self.by_name = {p.name: p for p in candidates}
        start = self.fields["start"]
        assert isinstance(start, forms.TypedChoiceField)
        start.choices = [
            (
                first,
                _("Deal %(number)s, from its first bid (move %(move)s)")
                % {"number": number, "move": first},
            )
            for number, first in starts
        ]
        choices = [(ME, _("You (%(name)s)") % {"name": me.name})] + [
            (p.name, p.name) for p in candidates
        ]
        house = [p.name for p in candidates if p.is_house]
        defaults = [ME, *(house[:3] or [ME] * 3)]
        for name, default in zip(self.SEATS, defaults, strict=False):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices
            field.initial = default

    def move_number(self) -> int:
        move = self.cleaned_data.get("move")
        return int(self.cleaned_data["start"]) if move is None else int(move)

    def seats(self) -> list[Player]:
        return [
            self.me if self.cleaned_data[name] == ME else self.by_name[self.cleaned_data[name]]
            for name in self.SEATS
        ]
