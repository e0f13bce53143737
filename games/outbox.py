"""Delivering the outbox: every event to every consumer, at least once.

The games services write an :class:`~games.models.Event` row in the transaction of the
move (or start) that caused it and call :func:`emit`, which delivers the rows right after
the commit in the committing process (the fast path: a bot's task or a waiting client's
wake-up does not wait for a relay tick). Whatever is not acknowledged there — the process
died between commit and delivery, or a consumer raised — is delivered by :func:`relay`
(the beat task ``games.tasks.relay_events``), which claims due rows with ``SKIP LOCKED``
and pushes their ``next_try_at`` back first, so the claim doubles as a lease: a relay
that dies mid-delivery leaves the rows due again after the back-off.

Acknowledgements are tracked per (event, consumer): an event all consumers took is marked
``delivered_at`` in one UPDATE; a partial delivery records who took it
(:class:`~games.models.EventDelivery`) so a retry calls only the others. A consumer may
therefore see an event more than once (never less): consumers are idempotent.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from backalley_site import metrics
from games import hooks
from games.models import Event, EventDelivery, Game

logger = logging.getLogger(__name__)

RELAY_BATCH = 200


def _retry_s() -> float:
    """Seconds the relay leaves an event to its committing process (and the first back-off)."""
    return float(getattr(settings, "GAMES_EVENTS_RETRY_S", 10.0))


def _backoff(attempts: int) -> timedelta:
    return timedelta(seconds=min(_retry_s() * 2 ** max(attempts - 1, 0), 600.0))


def event(
    game: Game,
    kind: str,
    *,
    seq: int,
    seat: int | None = None,
    now: datetime | None = None,
    to_act_abandoned: bool = False,
) -> Event:
    """An unsaved outbox row for ``game`` as it is now (pass it to :func:`emit`)."""
    now = now or timezone.now()
    return Event(
        kind=kind,
        game=game,
        public_id=game.public_id,
        seq=seq,
        seat=seat,
        to_act=game.to_act,
        to_act_abandoned=to_act_abandoned,
        status=game.status,
        created_at=now,
        next_try_at=now + _backoff(0),
    )


def emit(events: Sequence[Event], *, deliver_on_commit: bool = True) -> None:
    """Store ``events`` in the caller's open transaction; deliver them once it commits
    (with ``deliver_on_commit=False`` the caller delivers them itself after the commit, with
    :func:`deliver`; the relay does if it never gets there)."""
    assert transaction.get_connection().in_atomic_block, "emit inside the causing transaction"
    Event.objects.bulk_create(events)
    if deliver_on_commit:
        stored = list(events)
        transaction.on_commit(lambda: deliver(stored))


def as_game_event(row: Event) -> hooks.GameEvent:
    return hooks.GameEvent(
        row.kind,
        row.game_id,
        row.public_id,
        row.seq,
        row.seat,
        row.to_act,
        row.status,
        row.pk,
        row.to_act_abandoned,
    )


def deliver(
    events: Sequence[Event],
    acked: Collection[tuple[int, str]] = (),
    *,
    mark: bool = True,
) -> list[int]:
    """Call each consumer of each event that has not acknowledged it; record the outcome.

    Returns the ids of the events now delivered to all their consumers. Never raises: what
    fails (a consumer, or the bookkeeping itself) is logged and left to the relay. With
    ``mark=False`` the events delivered to all are not marked so: the caller marks them
    later, many at once (:func:`mark_delivered`), or the relay delivers them again.
    """
    done: list[int] = []
    partial: list[EventDelivery] = []
    for row in events:
        game_event = as_game_event(row)
        took: list[str] = []
        complete = True
        for name, callback in hooks.consumers(row.kind).items():
            if (row.pk, name) in acked:
                continue
            try:
                callback(game_event)
            except Exception:
                complete = False
                metrics.CONSUMER_FAILURES.labels(consumer=name).inc()
                logger.exception("event %s: consumer %s failed; it will be retried", row, name)
            else:
                took.append(name)
        if complete:
            done.append(row.pk)
        else:
            partial += [EventDelivery(event_id=row.pk, consumer=name) for name in took]
    try:
        if partial:
            EventDelivery.objects.bulk_create(partial, ignore_conflicts=True)
        if done and mark:
            mark_delivered(done)
    except Exception:  # the relay delivers again; consumers are idempotent
        logger.exception("could not record the delivery of events %s", [e.pk for e in events])
        return []
    return done


def mark_delivered(ids: Collection[int]) -> None:
    """Mark the events ``ids`` delivered to all their consumers, in one UPDATE."""
    if ids:
        Event.objects.filter(pk__in=list(ids)).update(delivered_at=timezone.now())


def acked_but(events: Sequence[Event], consumer: str) -> set[tuple[int, str]]:
    """The acknowledgements :func:`deliver` takes to call only ``consumer`` of ``events``."""
    return {
        (row.pk, name) for row in events for name in hooks.consumers(row.kind) if name != consumer
    }


def acked_only(events: Sequence[Event], consumer: str) -> set[tuple[int, str]]:
    """The acknowledgements :func:`deliver` takes to call every consumer of ``events`` but
    ``consumer`` (a caller that does that consumer's work itself)."""
    return {(row.pk, consumer) for row in events}


def relay(*, limit: int = RELAY_BATCH, now: datetime | None = None) -> int:
    """Deliver due, unacknowledged events (oldest first); returns how many were tried."""
    now = now or timezone.now()
    with transaction.atomic():
        batch = list(
            Event.objects.select_for_update(skip_locked=True)
            .filter(delivered_at__isnull=True, next_try_at__lte=now)
            .order_by("next_try_at", "pk")[:limit]
        )
        for row in batch:
            row.attempts += 1
            row.next_try_at = now + _backoff(row.attempts)
        if batch:
            Event.objects.bulk_update(batch, ["attempts", "next_try_at"])
    if not batch:
        return 0
    acked = set(
        EventDelivery.objects.filter(event_id__in=[e.pk for e in batch]).values_list(
            "event_id", "consumer"
        )
    )
    deliver(batch, acked)
    return len(batch)


def prune(*, before: datetime) -> int:
    """Delete events delivered before ``before``; returns how many."""
    deleted, _ = Event.objects.filter(delivered_at__lt=before).delete()
    return deleted


def backlog(*, now: datetime | None = None) -> tuple[int, float]:
    """How many events wait for delivery, and how long the oldest of them has waited (s):
    what an operator watches (``/metrics``, ``/healthz/?deep=1``). One query, on the
    relay's partial index."""
    now = now or timezone.now()
    row = Event.objects.filter(delivered_at__isnull=True).aggregate(
        n=Count("pk"), oldest=Min("created_at")
    )
    oldest = row["oldest"]
    return int(row["n"]), max((now - oldest).total_seconds(), 0.0) if oldest else 0.0


def scrape_metrics() -> list[Any]:
    """The outbox's gauges, read at each scrape of ``/metrics``."""
    waiting, lag = backlog()
    return [
        GaugeMetricFamily(
            "backalley_outbox_backlog", "Events not yet delivered to all their consumers.", waiting
        ),
        GaugeMetricFamily(
            "backalley_outbox_lag_seconds",
            "How long the oldest undelivered event has waited (0 when none waits).",
            lag,
        ),
    ]
