"""factory_boy factories shared by the whole test suite (add yours below)."""

from __future__ import annotations

import secrets

import factory
from django.contrib.auth import get_user_model

from accounts.models import ApiToken, Player
from accounts.tokens import PREFIX_SHOWN, TOKEN_PREFIX, token_hash

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


class ApiTokenFactory(factory.django.DjangoModelFactory):
    """An API token; its plain secret is on the instance as ``.secret`` (never stored)."""

    class Meta:
        model = ApiToken

    user = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"token {n}")
    scopes = factory.LazyFunction(lambda: ["bot", "play", "read"])
    bot = None
    secret = factory.LazyFunction(lambda: TOKEN_PREFIX + secrets.token_urlsafe(32))
    prefix = factory.LazyAttribute(lambda o: o.secret[:PREFIX_SHOWN])
    key_hash = factory.LazyAttribute(lambda o: token_hash(o.secret))

    @classmethod
    def _create(cls, model_class, *args, **kwargs):  # type: ignore[no-untyped-def]
        secret = kwargs.pop("secret")
        token = super()._create(model_class, *args, **kwargs)
        token.secret = secret
        return token


def auth_header(token: ApiToken) -> dict[str, str]:
    """``client.get(url, **auth_header(token))`` sends ``Authorization: Bearer <secret>``."""
    return {"HTTP_AUTHORIZATION": f"Bearer {token.secret}"}  # type: ignore[attr-defined]
