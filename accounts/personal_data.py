"""What each app holds of a person, and how it hands it over or erases it (docs/privacy.md).

A person may download everything of theirs (one JSON archive) and delete their account. No
single app knows all that is theirs: each app that keeps something of a person registers,
in its ``AppConfig.ready()``,

- an **exporter**: a function of an :class:`Subject` returning that app's section of the
  archive (plain JSON: strings, numbers, lists, dicts), and
- an **eraser**: a function of an :class:`Erasure`, called inside the deletion's
  transaction, that erases or pseudonymises what the app holds of the person and leaves
  what others' records need (finished games, ratings) under the pseudonym. It must be
  safe to call twice (a retried deletion).

::

    from accounts import personal_data

    personal_data.register(
        "push",
        export=lambda subject: {"subscriptions": [...]},
        erase=lambda erasure: Subscription.objects.filter(user=erasure.user).delete(),
    )

Erasers run in the order given by ``order`` (lower first; default 100): the accounts app's
own (the name, the e-mail, the tokens, the sign-in) runs last, at 1000, so the others still
see the person as they were. A new app that stores anything about a person must register
here: ``tests/accounts/test_erasure.py`` scans every table for what a deleted person left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from accounts.models import Player


@dataclass(frozen=True)
class Subject:
    """Whose data an exporter writes out."""

    user: User
    player: Player


@dataclass(frozen=True)
class Erasure:
    """A deletion under way: who, the name they are known by from now on, and when.
    ``old_name`` and ``old_username`` are what erasers look for in text that quotes them
    (other people's notices), to replace them with ``pseudonym``."""

    user: User
    player: Player
    pseudonym: str
    old_name: str
    old_username: str
    at: datetime
    erased: dict[str, int] = field(default_factory=dict)  # what each eraser counted
    renamed: dict[str, str] = field(default_factory=dict)  # other names given up (bots')

    def count(self, what: str, n: int) -> None:
        self.erased[what] = self.erased.get(what, 0) + int(n)

    def names(self) -> dict[str, str]:
        """Every name given up, and the pseudonym that stands for it now."""
        return {
            self.old_name: self.pseudonym,
            self.old_username: self.pseudonym,
            **self.renamed,
        }


Exporter = Callable[[Subject], Mapping[str, Any]]
Eraser = Callable[[Erasure], None]


@dataclass(frozen=True)
class _Entry:
    name: str
    export: Exporter | None
    erase: Eraser | None
    order: int


_registry: dict[str, _Entry] = {}


def register(
    name: str, *, export: Exporter | None = None, erase: Eraser | None = None, order: int = 100
) -> None:
    """Register an app's exporter and eraser under ``name`` (its section of the archive).
    Registering a name again replaces it (``ready()`` may run twice in some test set-ups)."""
    _registry[name] = _Entry(name, export, erase, order)


def unregister(name: str) -> None:
    _registry.pop(name, None)


def exporters() -> list[tuple[str, Exporter]]:
    return [(e.name, e.export) for e in sorted(_registry.values(), key=_key) if e.export]


def erasers() -> list[tuple[str, Eraser]]:
    return [(e.name, e.erase) for e in sorted(_registry.values(), key=_key) if e.erase]


def _key(entry: _Entry) -> tuple[int, str]:
    return entry.order, entry.name
