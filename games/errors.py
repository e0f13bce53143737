"""Errors of the games service. Each has a stable code; the API renders them in one shape.

Engine errors (``games.engine.errors.EngineError``) carry ``code``, ``message`` and
``http_status`` too and are rendered as they are: an illegal card is a 400 with the
engine's code (``must_follow_suit``, ``trump_not_broken``, ...).
"""

from __future__ import annotations

from backalley_site.errors import DomainError


class GameNotFound(DomainError):
    code = "game_not_found"
    http_status = 404


class BadGameSetup(DomainError):
    """The seats or options given to create a game do not make a game."""

    code = "bad_game_setup"
    http_status = 400


class UnknownPlayer(DomainError):
    code = "unknown_player"
    http_status = 400


class NoPlayer(DomainError):
    """The caller has no player (only people and bots can sit at a table)."""

    code = "no_player"
    http_status = 403


class SeatTaken(DomainError):
    code = "seat_taken"
    http_status = 409


class AlreadySeated(DomainError):
    code = "already_seated"
    http_status = 409


class NotSeated(DomainError):
    code = "not_seated"
    http_status = 409


class GameNotWaiting(DomainError):
    """Seats change only before the game starts."""

    code = "game_not_waiting"
    http_status = 409


class GameNotStarted(DomainError):
    code = "game_not_started"
    http_status = 409


class GameOver(DomainError):
    code = "game_over"
    http_status = 409


class GameAborted(DomainError):
    code = "game_aborted"
    http_status = 409


class NotYourSeat(DomainError):
    code = "not_your_seat"
    http_status = 403


class NotYourTurn(DomainError):
    code = "not_your_turn"
    http_status = 409


class StaleState(DomainError):
    """``expected_seq`` is not the game's move count; ``extra`` holds the current state."""

    code = "stale_state"
    http_status = 409


class IdempotencyKeyReused(DomainError):
    """The key was used for a different move (another seat or another action)."""

    code = "idempotency_key_reused"
    http_status = 422


class BadIdempotencyKey(DomainError):
    code = "bad_idempotency_key"
    http_status = 400


class PlayerRetired(DomainError):
    """The player (a bot its owner deleted) no longer takes seats."""

    code = "player_retired"
    http_status = 409


class InvitationNotFound(DomainError):
    code = "invitation_not_found"
    http_status = 404


class InvitationClosed(DomainError):
    """Answered already, expired, or its game no longer waits for players."""

    code = "invitation_closed"
    http_status = 409


class AlreadyInvited(DomainError):
    code = "already_invited"
    http_status = 409


class CreatorNotSeated(DomainError):
    """A new game seats its creator or one of the creator's bots."""

    code = "creator_not_seated"
    http_status = 409


class TooManyWaitingGames(DomainError):
    code = "too_many_waiting_games"
    http_status = 409


class TooManyNewGames(DomainError):
    code = "too_many_new_games"
    http_status = 429
