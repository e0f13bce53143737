"""The settings page's form: which kinds are pushed, quiet hours and the time zone."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clock.models import NotificationPreference
from clock.quiet import zone_names

# The push switches in the order the page shows them, each with its label.
SWITCHES = (
    ("turn_push", gettext_lazy("Your move, once you have left the table")),
    ("invitation_push", gettext_lazy("Invitations, and the answers to yours")),
    ("claim_push", gettext_lazy("Claims waiting for your answer, and how yours ended")),
    ("reminder_push", gettext_lazy("Your time for a move is running out")),
    ("over_push", gettext_lazy("A game is over, with its result")),
    ("round_push", gettext_lazy("A tournament round has started")),
)


class PushChoicesForm(forms.ModelForm[NotificationPreference]):
    """Every switch, the quiet hours (both or neither) and the time zone, checked together:
    a form with one bad field changes nothing."""

    quiet_from = forms.TimeField(
        required=False,
        label=gettext_lazy("Quiet from"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_until = forms.TimeField(
        required=False,
        label=gettext_lazy("until"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    time_zone = forms.CharField(
        max_length=64,
        label=gettext_lazy("Time zone"),
        widget=forms.TextInput(
            attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}
        ),
    )

    class Meta:
        model = NotificationPreference
        fields = [name for name, _label in SWITCHES] + ["quiet_from", "quiet_until", "time_zone"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, label in SWITCHES:
            self.fields[name].label = label
            self.fields[name].required = False

    def clean_time_zone(self) -> str:
        value = str(self.cleaned_data.get("time_zone") or "").strip()
        if value not in zone_names():
            raise forms.ValidationError(
                _("Not a time zone we know: write it as on a map of zones, such as Europe/Vilnius.")
            )
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("quiet_from"), data.get("quiet_until")
        if (start is None) != (end is None):
            raise forms.ValidationError(
                _("Give both ends of the quiet hours, or neither for none.")
            )
        return data


def zone_choices() -> list[str]:
    """The time zones offered as the field is typed in (the browser's list)."""
    return sorted(zone_names())
