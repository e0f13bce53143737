"""Site forms for accounts."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy

from accounts.models import Scope
from accounts.services import player_create, player_name_check
from backalley_site.errors import DomainError


class SignUpForm(UserCreationForm[User]):
    """UserCreationForm plus the public player name, created together or not at all."""

    name = forms.CharField(
        label=gettext_lazy("Player name"),
        max_length=30,
        help_text=gettext_lazy(
            "Your public name at the tables: 3 to 30 letters, digits, '_' or '-'."
        ),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def clean_name(self) -> str:
        try:
            return player_name_check(self.cleaned_data["name"])
        except DomainError as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from None

    def save(self, commit: bool = True) -> Any:
        with transaction.atomic():
            user = super().save(commit=True)
            try:
                player_create(user=user, name=self.cleaned_data["name"])
            except DomainError as exc:
                # Lost a race for the name: undo the user too, and show the error.
                self.add_error("name", exc.message)
                transaction.set_rollback(True)
                return None
        return user


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=100,
        help_text=gettext_lazy("To recognise it later, e.g. 'laptop'."),
    )
    scopes = forms.MultipleChoiceField(
        choices=Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[Scope.READ, Scope.PLAY],
    )


class AccountDeleteForm(forms.Form):
    """Deleting an account: the password, and a tick that says the person means it."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    understood = forms.BooleanField(
        label=gettext_lazy("I understand that this cannot be undone."), required=True
    )
