"""Errors of the daylongs: stable codes, rendered in the one error shape."""

from __future__ import annotations

from backalley_site.errors import DomainError


class EventNotFound(DomainError):
    code = "daylong_not_found"
    http_status = 404


class BadEvent(DomainError):
    """The fields given to create an event do not make one."""

    code = "bad_daylong"
    http_status = 400


class EventNotOpen(DomainError):
    """The window has not opened yet, or has closed."""

    code = "daylong_not_open"
    http_status = 409


class AlreadyEntered(DomainError):
    code = "already_entered"
    http_status = 409


class NotEntered(DomainError):
    code = "not_entered"
    http_status = 404


class CannotEnter(DomainError):
    """The player may not enter (a house bot, a retired bot, someone else's player)."""

    code = "cannot_enter"
    http_status = 403


class AllBoardsPlayed(DomainError):
    code = "all_boards_played"
    http_status = 409


class StillOpen(DomainError):
    """Every table's record (and its seed) is shown only once the window's end was
    processed."""

    code = "daylong_still_open"
    http_status = 409


class NotYourPlayer(DomainError):
    """The player named is neither the caller nor one of the caller's bots."""

    code = "not_your_player"
    http_status = 403
