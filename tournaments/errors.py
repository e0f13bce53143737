"""Errors of the tournaments service: stable codes, rendered in the one error shape."""

from __future__ import annotations

from backalley_site.errors import DomainError


class TournamentNotFound(DomainError):
    code = "tournament_not_found"
    http_status = 404


class BadTournament(DomainError):
    """The fields given to create a tournament do not make one."""

    code = "bad_tournament"
    http_status = 400


class NotOrganiser(DomainError):
    code = "not_organiser"
    http_status = 403


class RegistrationClosed(DomainError):
    code = "registration_closed"
    http_status = 409


class AlreadyRegistered(DomainError):
    code = "already_registered"
    http_status = 409


class NotRegistered(DomainError):
    code = "not_registered"
    http_status = 404


class ConditionNotMet(DomainError):
    """An entry condition (rating, rated games, bots, room) refuses the entrant; ``code``
    names which one."""

    code = "condition_not_met"
    http_status = 403


class NotYourEntry(DomainError):
    code = "not_your_entry"
    http_status = 403


class BadTournamentState(DomainError):
    """The action does not fit the tournament's status (start a running event, ...)."""

    code = "bad_tournament_state"
    http_status = 409
