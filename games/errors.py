"""Errors of the games service. Each has a stable code; the API renders them in one shape.

Engine errors (``backalley_engine.errors.EngineError``) carry ``code``, ``message`` and
``extra`` too and are rendered as they are. Neither knows about HTTP: the web layer's
exception handler (``backalley_site.exception_handler.STATUS_BY_CODE``) maps each code to
its status (an illegal card is a 400 with the engine's code, a move out of turn a 409).
"""

from __future__ import annotations

from backalley_site.errors import DomainError


class GameNotFound(DomainError):
    code = "game_not_found"


class BadGameSetup(DomainError):
    """The seats or options given to create a game do not make a game."""

    code = "bad_game_setup"


class UnknownPlayer(DomainError):
    code = "unknown_player"


class NoPlayer(DomainError):
    """The caller has no player (only people and bots can sit at a table)."""

    code = "no_player"


class SeatTaken(DomainError):
    code = "seat_taken"


class AlreadySeated(DomainError):
    code = "already_seated"


class NotSeated(DomainError):
    code = "not_seated"


class GameNotWaiting(DomainError):
    """Seats change only before the game starts."""

    code = "game_not_waiting"


class GameNotStarted(DomainError):
    code = "game_not_started"


class GameOver(DomainError):
    code = "game_over"


class GameAborted(DomainError):
    code = "game_aborted"


class NotYourSeat(DomainError):
    code = "not_your_seat"


class NotYourTurn(DomainError):
    code = "not_your_turn"


class StaleState(DomainError):
    """``expected_seq`` is not the game's move count; ``extra`` holds the current state."""

    code = "stale_state"


class HeldGameChanged(StaleState):
    """A writer holding a game in memory (``games.held``) found it changed by someone else:
    nothing of its move was kept. Never answered to a client (the writer reads the game
    again), so its message is not translated."""


class IdempotencyKeyReused(DomainError):
    """The key was used for a different move (another seat or another action)."""

    code = "idempotency_key_reused"


class BadIdempotencyKey(DomainError):
    code = "bad_idempotency_key"


class PlayerRetired(DomainError):
    """The player (a bot its owner deleted) no longer takes seats."""

    code = "player_retired"


class InvitationNotFound(DomainError):
    code = "invitation_not_found"


class InvitationClosed(DomainError):
    """Answered already, expired, or its game no longer waits for players."""

    code = "invitation_closed"


class AlreadyInvited(DomainError):
    code = "already_invited"


class TooManyInvitations(DomainError):
    """A waiting game sends at most ``GAMES_MAX_INVITATIONS_PER_GAME`` invitations."""

    code = "too_many_invitations"


class CreatorNotSeated(DomainError):
    """A new game seats its creator or one of the creator's bots."""

    code = "creator_not_seated"


class TooManyWaitingGames(DomainError):
    code = "too_many_waiting_games"


class TooManyNewGames(DomainError):
    code = "too_many_new_games"


class PremoveNotAllowed(DomainError):
    """No premove can be queued now (the seat's turn now, or no deal to queue in)."""

    code = "premove_not_allowed"


class PremoveNotLegal(DomainError):
    """Not an action the seat could take next in this deal (it is checked again in turn)."""

    code = "premove_not_legal"


class PlayerNotFound(DomainError):
    """No player has the name in the address (an export's player)."""

    code = "player_not_found"


class InvalidFilter(DomainError):
    """A filter of a list or export is not a value it takes (``extra["name"]``)."""

    code = "invalid_filter"


class InvalidCursor(DomainError):
    """A cursor that this service did not hand out (or that it cannot read any more)."""

    code = "invalid_cursor"


class GameNotFinished(DomainError):
    """Only a finished game can be forked."""

    code = "game_not_finished"


class RecordNotPublic(DomainError):
    """The game's cards are still in play at other tables (its deal set's seed is secret)."""

    code = "record_not_public"


class InvalidMoveNumber(DomainError):
    """No fork starts there: past the end, at the end, or while a claim waits for answers."""

    code = "invalid_move_number"


class ForkSeatNotAllowed(DomainError):
    """A fork seats its forker, the forker's own bots and the house bots, nobody else."""

    code = "fork_seat_not_allowed"


class DumpNotFound(DomainError):
    """No complete dump has the file name in the address."""

    code = "dump_not_found"
