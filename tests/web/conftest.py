"""Fixtures for the play pages: signed-in Django clients and a started four-person game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from backalley_engine.cards import card_str
from games import feed, services, statecache
from games.models import Game
from games.web.present import card_view
from tests.factories import PlayerFactory


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    statecache.forget()
    feed.forget()
    yield
    statecache.forget()
    feed.forget()


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def four(db: Any) -> list[Any]:
    return [PlayerFactory(name=n) for n in ("north", "east", "south", "west")]


@pytest.fixture
def started(four: list[Any]) -> Game:
    return services.game_create(creator=four[0], seats=four)


_CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC]|LB|BB)(?![A-Za-z0-9])")
_LABELS = {card_view(card_str(c)).label.lower(): card_str(c) for c in range(54)}


def shown_cards(html: str) -> set[str]:
    """Every card a page names anywhere: by its code as a word ("AS", "TD", "BB"), or by
    its name ("ace of spades", "big blooper"). Used to prove a page holds no hidden card."""
    low = html.lower()
    return set(_CODE.findall(html)) | {code for label, code in _LABELS.items() if label in low}
