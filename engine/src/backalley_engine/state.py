"""The whole game: 25 scored deals of 13..1..13 cards, redeals, pass-outs and the result.

OpenSpiel-like: randomness is an input (the seed), and every game replays from its history.
``GameState`` *is* its current deal (it extends ``DealCore``, through the game's fields in
``backalley_engine.game``), so ``legal_actions`` and ``apply`` reach the rules without
indirection; finished deals are kept as ``DealInfo``.

>>> g = GameState.new("00" * 32)
>>> g.deal_number, g.hand_size, g.dealer, g.phase, g.seat_to_act
(1, 13, 3, 'bidding', 0)
>>> g.apply(PASS, seat=0); g.move_count
1

A short game plays a run of the schedule's deals (``backalley_engine.schedule``), each
dealt as in a whole game:

>>> s = GameState.new("00" * 32, schedule=Schedule(11, 15))
>>> s.deal_number, s.hand_size, s.dealer, s.schedule
(11, 3, 1, Schedule(first=11, last=15))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from backalley_engine.actions import BOARD, LAST_ACTION, PASS, action_str
from backalley_engine.checkpoint import checkpoint, resume
from backalley_engine.claims import apply_claim_action
from backalley_engine.constants import (
    FINISHED,
    MAX_ATTEMPTS,
    MAX_DEALS,
    MAX_MOVES,
    NUM_DEALS,
    PASSED_OUT,
    PLAYED,
    VOIDED,
)
from backalley_engine.deal import DONE, DealState
from backalley_engine.errors import ActionParseError, BadRecord, ClaimPending, GameOver, NotYourTurn
from backalley_engine.events import deal_end_events, deal_start_events, play_events
from backalley_engine.game import DealInfo, GameCore, Outcome, Viewer
from backalley_engine.observation import Observation
from backalley_engine.records import record_actions, record_schedule, write_record
from backalley_engine.schedule import WHOLE_GAME, Schedule
from backalley_engine.shuffle import (
    HmacKey,
    _deck,
    check_seed,
    commitment,
    deal_hands,
    first_dealer,
    hand_size_of,
)
from backalley_engine.views import game_view


class GameState(GameCore):
    """A Back Alley game. ``seat_to_act`` is None once the game is finished.

    ``schedule``: the deals it plays, all 25 or a run of them (a short game); part of the
    game's rules, carried by a replay, a checkpoint and a record.
    """

    __slots__ = ()  # the fields are GameCore's (backalley_engine.game)

    def __init__(self, seed_hex: str | None = None, *, schedule: Schedule | None = None) -> None:
        """A new game of ``seed_hex`` at its first deal; without a seed, an empty shell that
        ``clone`` and ``resume`` fill."""
        self.schedule = WHOLE_GAME if schedule is None else schedule
        if seed_hex is None:
            return
        self._key = HmacKey(check_seed(seed_hex))
        self.seed = seed_hex
        self.commitment = commitment(seed_hex)
        self.first_dealer = first_dealer(seed_hex)
        self.deals = []
        self.history = []
        self.totals = (0, 0)
        self.outcome = None
        self._scored = 0
        first = self.schedule.first
        self._start_deal(first, 0, self.schedule.first_deal_dealer(first_dealer=self.first_dealer))

    @classmethod
    def new(
        cls,
        seed_hex: str,
        events: list[dict[str, Any]] | None = None,
        *,
        schedule: Schedule | None = None,
    ) -> GameState:
        """A new game with its first deal dealt; ``events`` receives the opening events."""
        g = cls(seed_hex, schedule=schedule)
        if events is not None:
            events.extend(deal_start_events(g))
        return g

    @classmethod
    def replay(
        cls, seed_hex: str, actions: Iterable[int], *, schedule: Schedule | None = None
    ) -> GameState:
        """The game after ``actions`` (validated one by one) from a new game of ``seed_hex``."""
        g = cls(seed_hex, schedule=schedule)
        for a in actions:
            g.apply(a)
        return g

    def clone(self) -> GameState:
        c = GameState(schedule=self.schedule)
        self._copy_deal_into(c)
        c.seed = self.seed
        c.commitment = self.commitment
        c.first_dealer = self.first_dealer
        c.deal_number = self.deal_number
        c.attempt = self.attempt
        c.swap = self.swap
        c.deals = self.deals[:]  # finished deals never change: shared
        c.history = self.history[:]
        c.totals = self.totals
        c.seat_to_act = self.seat_to_act
        c.outcome = self.outcome
        c._scored = self._scored
        c._key = self._key
        return c

    # -- moves -------------------------------------------------------------------------
    def apply(
        self, action: object, seat: int | None = None, events: list[dict[str, Any]] | None = None
    ) -> None:
        """Apply the action of the seat to act (``seat``, when given, must be that seat).

        Raises a typed ``EngineError`` and changes nothing when the action is not legal.
        When ``events`` is a list, the events this action caused are appended to it.
        """
        if type(action) is not int or not 0 <= action <= LAST_ACTION:  # bool and the rest refused
            raise ActionParseError(f"Not an action: {action!r}.", {"action": repr(action)[:20]})
        actor = self.seat_to_act
        if actor is None:
            raise GameOver("The game is over.")
        if action > BOARD:  # a claim or its answer: any seat may make them (claims)
            if apply_claim_action(self, action, seat, events):
                self._end_deal(events)
            return
        if self.claim >= 0:
            raise ClaimPending(
                "A claim waits for the opponents' answers: play goes on once it is answered.",
                {"claim": self.claim},
            )
        if seat is not None and seat != actor:
            raise NotYourTurn(f"It is seat {actor}'s turn.", {"seat_to_act": actor})
        if action < 54:
            self.play(action)
        else:
            self.bid(action)
        self.history.append(action)
        if events is not None:
            events.extend(play_events(self, actor, action))
        if self.phase == DONE:
            self._end_deal(events)
        else:
            self.seat_to_act = self.to_act

    # -- deals -------------------------------------------------------------------------
    def _start_deal(self, number: int, attempt: int, dealer: int) -> None:
        n = hand_size_of(number)
        hands, upcard, swap = deal_hands(_deck(self._key, number, attempt), dealer, n)
        self._setup(hands, upcard, dealer, n)
        self.deal_number = number
        self.attempt = attempt
        self.swap = swap
        self.seat_to_act = self.to_act

    def _end_deal(self, events: list[dict[str, Any]] | None) -> None:
        score = (0, 0)
        if self.tricks or self.claim_end is not None:
            status = PLAYED
            score = self.scores()
            self.totals = (self.totals[0] + score[0], self.totals[1] + score[1])
            self._scored += 1
        elif self.attempt + 1 >= MAX_ATTEMPTS or not self.schedule.redeal:
            # Passed out: the fourth all-pass in a row, or any in duplicate play (§4).
            status = PASSED_OUT
            self._scored += 1
        else:
            status = VOIDED
        # The finished deal's lists are never touched again: the snapshot takes them over.
        snap = DealState()
        self._share_deal_into(snap)
        info = DealInfo(self.deal_number, self.attempt, self.swap, snap, status, score, self.totals)
        self.deals.append(info)
        if events is not None:
            events.extend(deal_end_events(info))
        if self._scored == self.schedule.count:
            t = self.totals
            self.outcome = Outcome(t, None if t[0] == t[1] else (0 if t[0] > t[1] else 1))
            self.seat_to_act = None
            self.phase = FINISHED
            if events is not None:
                events.append(
                    {
                        "type": "game_end",
                        "private_to": None,
                        "totals": list(t),
                        "winner": self.outcome.winner,
                        "seed": self.seed,
                    }
                )
            return
        next_dealer = (self.dealer + 1) & 3
        if status == VOIDED:
            self._start_deal(self.deal_number, self.attempt + 1, next_dealer)
        else:
            self._start_deal(self.deal_number + 1, 0, next_dealer)
        if events is not None:
            events.extend(deal_start_events(self))

    # -- views and records ---------------------------------------------------------------
    def view(self, seat: int | None, *, reveal: bool | None = None) -> dict[str, Any]:
        """What ``seat`` (None = a spectator) may see, as JSON-able data (docs/rules.md §8).
        ``reveal=False`` keeps a finished game's seed secret (``views.game_view``)."""
        return game_view(self, seat, reveal=reveal)

    def record(
        self,
        viewer: Viewer = "all",
        players: list[str] | None = None,
        game: str | None = None,
        *,
        reveal: bool | None = None,
    ) -> dict[str, Any]:
        """The game record (docs/record-format.md) as ``viewer`` may see it; ``reveal=False``
        writes a finished game's record as ``viewer`` saw it, without the seed
        (``records.write_record``)."""
        return write_record(self, viewer, players=players, game=game, reveal=reveal)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know of the current deal, for a bot: its hand, the public table
        and what play has revealed (see ``backalley_engine.observation``)."""
        return Observation.from_state(self, seat)

    def checkpoint(self) -> dict[str, Any]:
        """This state as versioned plain data (see ``backalley_engine.checkpoint``)."""
        return checkpoint(self)

    @classmethod
    def resume(cls, seed_hex: str, data: object) -> GameState:
        """The state a :meth:`checkpoint` describes (``CheckpointError`` if unreadable)."""
        return resume(seed_hex, data, into=cls())

    def legal_actions_text(self) -> list[str]:
        return [action_str(a) for a in self.legal_actions()]

    def __repr__(self) -> str:
        return (
            f"<GameState{'' if self.schedule.is_default else ' deals ' + str(self.schedule)} "
            f"deal {self.deal_number}.{self.attempt} {self.phase} "
            f"to_act={self.seat_to_act} moves={self.move_count} totals={self.totals}>"
        )


def state_from_record(record: dict[str, Any]) -> GameState:
    """Rebuild the game from the record's seed and moves (each move validated by the engine).

    Raises ``BadRecord`` when the record has no seed or cannot be read, and the engine's
    typed error when a move is illegal. Use ``validate_record`` for a full check.
    """
    seed = record.get("seed") if isinstance(record, dict) else None
    if not isinstance(seed, str):
        raise BadRecord("Only a record with its seed (a finished game) can be rebuilt.", {})
    return GameState.replay(seed, record_actions(record), schedule=record_schedule(record))


__all__ = [
    "BOARD",
    "PASS",
    "GameState",
    "Outcome",
    "DealInfo",
    "Viewer",
    "state_from_record",
    "MAX_DEALS",
    "MAX_MOVES",
    "NUM_DEALS",
]
