"""Checking a deal's tricks card by card, for the record validator (``validate``).

A hidden hand (no seed, hand null) is credited with the cards its seat plays, first come
first held, following the tricks with their true leaders; that is the whole hand once the
deal is played out, and otherwise a part of it, so a rule is reported broken only when the
cards known prove it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from backalley_engine.cards import BB, LB, card_str, parse_card
from backalley_engine.deal import DealState, trick_winner
from backalley_engine.errors import EngineError


@dataclass(frozen=True, slots=True)
class RecordError:
    """One finding. ``deal`` is the deal number, ``trick`` the index (0-based) in that deal's
    ``tricks`` list, ``at`` the card or bid at fault (as text), ``index`` the deal's position
    in the record's ``deals`` list."""

    message: str
    deal: int | None = None
    attempt: int | None = None
    trick: int | None = None
    at: str | None = None
    index: int | None = None
    code: str = "invalid_record"

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "deal": self.deal,
            "attempt": self.attempt,
            "trick": self.trick,
            "at": self.at,
            "index": self.index,
        }

    def __str__(self) -> str:
        where = []
        if self.deal is not None:
            where.append(f"deal {self.deal}" + (f" attempt {self.attempt}" if self.attempt else ""))
        if self.trick is not None:
            where.append(f"trick {self.trick}")
        if self.at is not None:
            where.append(f"at {self.at}")
        return (", ".join(where) + ": " if where else "") + self.message


class _Fail(Exception):
    def __init__(self, error: RecordError) -> None:
        super().__init__(error.message)
        self.error = error


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class PlayChecker:
    """Error positions, ``fail`` and the trick-by-trick check; ``validate`` builds on it."""

    def __init__(self) -> None:
        self.number: int | None = None
        self.attempt: int | None = None
        self.index: int | None = None
        self.trick: int | None = None

    def fail(self, message: str, at: str | None = None, code: str = "invalid_record") -> NoReturn:
        raise _Fail(
            RecordError(message, self.number, self.attempt, self.trick, at, self.index, code)
        )

    def card(self, v: object, what: str) -> int:
        try:
            return parse_card(v)  # type: ignore[arg-type]
        except EngineError:
            self.fail(f"{what}: {v!r} is not a card.", str(v)[:12], "bad_card")

    def play_tricks(
        self,
        tricks: list[Any],
        known: list[int],
        upcard: int,
        dealer: int,
        n: int,
        bids: list[int],
        swap: tuple[int, int, int | None] | None,
        status: object,
    ) -> DealState:
        hands = [h if h >= 0 else 0 for h in known]
        hidden = [h < 0 for h in known]
        unavailable = 1 << upcard
        if swap is not None:
            unavailable |= 1 << swap[1]
        for s in range(4):
            if not hidden[s]:
                unavailable |= known[s]
        if upcard >= LB:
            unavailable |= (1 << LB) | (1 << BB)
        if any(hidden):
            # A hidden hand holds at least the cards its seat plays (all of them, once the
            # deal is played out): follow the tricks with the true leaders to find them.
            probe = DealState.dealt((0, 0, 0, 0), upcard, dealer, n)
            for b in bids:
                probe.bid(b)
            leader = probe.to_act
            tm = probe.trump_mask
            taken = unavailable
            if swap is not None and swap[2] is not None and hidden[swap[0]]:
                hands[swap[0]] |= 1 << swap[2]
                taken |= 1 << swap[2]
            for t in tricks:
                cards = t.get("cards") if isinstance(t, dict) else None
                if not isinstance(cards, list) or len(cards) > 4:
                    break
                try:
                    cs = [parse_card(c) for c in cards]
                except (EngineError, TypeError):
                    break
                for j, c in enumerate(cs):
                    # First come, first held: a repeated or unavailable card is reported
                    # where it is played, not credited to a second hand.
                    if hidden[(leader + j) % 4] and not taken >> c & 1:
                        hands[(leader + j) % 4] |= 1 << c
                        taken |= 1 << c
                if len(cs) < 4:
                    break
                if len(set(cs)) == 4:  # a repeated card is reported when the trick is checked
                    leader = trick_winner(leader, cs, tm)
        d = DealState.dealt(tuple(hands), upcard, dealer, n)
        for b in bids:
            d.bid(b)
        if len(tricks) > n:
            self.fail(f"A {n}-card deal has {n} tricks; the record lists {len(tricks)}.")
        for k, t in enumerate(tricks):
            self.trick = k
            if not isinstance(t, dict) or not isinstance(t.get("cards"), list):
                self.fail("A trick is {leader, cards, winner}.")
            if t.get("leader") != d.to_act or not _is_int(t.get("leader")):
                self.fail(
                    f"The leader of this trick is seat {d.to_act}, the record says {t.get('leader')!r}."
                )
            cards = t["cards"]
            last = k == len(tricks) - 1
            if len(cards) > 4 or (len(cards) < 4 and not (last and status == "in_progress")):
                self.fail(
                    "A trick has four cards (only the last trick of a deal in progress has fewer)."
                )
            if not cards and not last:
                self.fail("An empty trick.")
            for v in cards:
                seat = d.to_act
                c = self.card(v, "played card")
                if hidden[seat] and unavailable >> c & 1:
                    self.fail(
                        f"Seat {seat} played {card_str(c)}, which it cannot hold.",
                        card_str(c),
                        "illegal_card",
                    )
                try:
                    d.play(c)
                except EngineError as e:
                    self.fail(
                        f"Seat {seat} played {card_str(c)}: {_explain(e.code)}", card_str(c), e.code
                    )
                unavailable |= 1 << c
            if len(cards) == 4:
                winner = d.tricks[-1][2]
                if t.get("winner") != winner or not _is_int(t.get("winner")):
                    self.fail(
                        f"Seat {winner} wins this trick, the record says {t.get('winner')!r}.",
                        card_str(d.tricks[-1][1][(winner - d.tricks[-1][0]) % 4]),
                    )
            elif t.get("winner") is not None:
                self.fail("An unfinished trick has no winner yet (null).")
        return d


def _explain(code: str) -> str:
    return {
        "illegal_card": "that card is not in its hand.",
        "must_follow_suit": "it holds a card of the led suit and must follow suit.",
        "trump_not_broken": "trump may not be led before it is broken "
        "(the leader did not bid board and holds a card that is not a trump).",
        "must_play_highest_trump": "the Big Blooper was led: it must play its highest trump.",
        "must_play_lowest_trump": "the Little Blooper was led: it must play its lowest trump.",
    }.get(code, code)
