"""factory_boy factories shared by the whole test suite (add yours below)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from accounts.models import Player

User = get_user_model()
PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.com")
    password = factory.django.Password(PASSWORD)


class PlayerFactory(factory.django.DjangoModelFactory):
    """A person's player (with its own user)."""

    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"player{n}")
    user = factory.SubFactory(UserFactory)
    is_bot = False
    owner = None


class BotPlayerFactory(PlayerFactory):
    """A bot player owned by a user."""

    name = factory.Sequence(lambda n: f"bot{n}")
    user = None
    is_bot = True
    owner = factory.SubFactory(UserFactory)
