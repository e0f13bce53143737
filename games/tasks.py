"""Periodic work of the games app (on the beat's static schedule)."""

from __future__ import annotations

from celery import shared_task

from games.invitations import invitations_expire


@shared_task(acks_late=True, reject_on_worker_lost=True, time_limit=120, soft_time_limit=100)
def expire_invitations() -> int:
    """Mark unanswered invitations past their time expired and tell who invited."""
    return invitations_expire()
