"""The record validator: checks a ``backalley-record`` against docs/rules.md and reports the first
error with the deal, the trick and the card or bid at fault.

It checks the format and version; that each deal's cards follow from the seed (when the
record has one); that every bid and card was legal when made; trick leaders and winners;
tricks won, deal scores and running totals; the number of deals, voids and pass-outs; and
the result. A duplicate game's record (``"schedule": {..., "redeal": false}``) passes out
every all-pass deal. A short game's record (``"schedule": {"first": f, "last": l}``) plays
deals f to l of the schedule, the first dealt by seat ``first_dealer + f - 1``. Without a
seed, a hidden hand is known from the cards its seat played, which is the whole hand once
the deal is played out; a rule is reported broken only when the cards known prove it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from backalley_engine import solver
from backalley_engine.actions import parse_bid
from backalley_engine.cards import BB, LB, card_str
from backalley_engine.claims import ACCEPTED, CLAIM_BUDGET, PROVEN
from backalley_engine.constants import (
    DEAL_STATUSES,
    MAX_ATTEMPTS,
    RECORD_FORMAT,
    RECORD_VERSIONS,
)
from backalley_engine.deal import DONE, PLAYING, DealState, bidder
from backalley_engine.errors import BadSchedule, EngineError
from backalley_engine.events import trump_str
from backalley_engine.schedule import Schedule
from backalley_engine.shuffle import deal_cards, first_dealer, hand_size_of
from backalley_engine.validate_play import PlayChecker, RecordError, _Fail, _is_int

_HEX = frozenset("0123456789abcdef")


def _is_hex64(v: object) -> bool:
    return isinstance(v, str) and len(v) == 64 and _HEX.issuperset(v)


def _pair(v: object) -> tuple[int, int] | None:
    if isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v):
        return (v[0], v[1])
    return None


def validate_record(record: object) -> list[RecordError]:
    """[] when the record is valid, else a one-element list with the first error."""
    try:
        _Validator(record).run()
    except _Fail as f:
        return [f.error]
    except Exception as e:  # noqa: BLE001 - a malformed record must never crash the check
        return [RecordError(f"Malformed record ({type(e).__name__}: {e}).")]
    return []


class _Validator(PlayChecker):
    def __init__(self, record: object) -> None:
        super().__init__()
        self.record = record
        self.seed: str | None = None
        self.version = 1
        self.redeal = True

    # -- the record -----------------------------------------------------------------------
    def run(self) -> None:
        rec = self.record
        if not isinstance(rec, dict):
            self.fail("A record is a JSON object.")
        assert isinstance(rec, dict)
        if rec.get("format") != RECORD_FORMAT:
            self.fail(f"format must be '{RECORD_FORMAT}'.")
        if not _is_int(rec.get("version")) or rec.get("version") not in RECORD_VERSIONS:
            self.fail(f"version must be one of {', '.join(map(str, RECORD_VERSIONS))}.")
        self.version = rec["version"]
        players = rec.get("players")
        if players is not None and not (isinstance(players, list) and len(players) == 4):
            self.fail("players must list four names (seats 0..3) or be null.")
        commitment = rec.get("commitment")
        if not _is_hex64(commitment):
            self.fail("commitment must be 64 lowercase hex digits.")
        seed = rec.get("seed")
        if seed is not None:
            if not _is_hex64(seed):
                self.fail("seed must be 64 lowercase hex digits or null.")
            assert isinstance(seed, str)
            if hashlib.sha256(bytes.fromhex(seed)).hexdigest() != commitment:
                self.fail("The seed does not match the commitment (SHA-256 of the seed).")
            self.seed = seed
        fd = rec.get("first_dealer")
        if not isinstance(fd, int) or isinstance(fd, bool) or not 0 <= fd <= 3:
            self.fail("first_dealer must be a seat 0..3.")
        if self.seed is not None and fd != first_dealer(self.seed):
            self.fail(
                f"first_dealer {fd} does not follow from the seed ({first_dealer(self.seed)})."
            )
        try:
            schedule = Schedule.from_json(rec.get("schedule"))
        except BadSchedule as e:
            self.fail(f"schedule: {e.message}")
        deals = rec.get("deals")
        if not isinstance(deals, list) or not deals:
            self.fail("deals must be a non-empty list (a game always has its first deal).")
        assert isinstance(deals, list)
        result = rec.get("result")
        if result is not None and not isinstance(result, dict):
            self.fail("result must be an object or null.")

        count = schedule.count
        self.redeal = schedule.redeal
        number, attempt, totals, scored = schedule.first, 0, (0, 0), 0
        dealer = schedule.first_deal_dealer(first_dealer=fd)
        for i, deal in enumerate(deals):
            self.index, self.number, self.attempt, self.trick = i, number, attempt, None
            if scored == count:
                self.fail(
                    f"A deal is listed after the last scored deal ({count} of {count}): "
                    "the game was over."
                )
            status, score = self.check_deal(
                deal, number, attempt, dealer, totals, i == len(deals) - 1
            )
            totals = (totals[0] + score[0], totals[1] + score[1])
            dealer = (dealer + 1) % 4
            if status == "voided":
                attempt += 1
            elif status in ("played", "passed_out"):
                scored += 1
                number, attempt = number + 1, 0
        self.index = self.number = self.attempt = self.trick = None
        finished = scored == count
        if result is None:
            if finished:
                self.fail(f"The game is over ({count} scored deals) but result is null.")
            if self.seed is not None:
                self.fail("The seed is revealed but the game is not over.")
            return
        assert isinstance(result, dict)
        if not finished:
            self.fail(f"result is given but only {scored} of {count} deals were scored.")
        rt = _pair(result.get("totals"))
        if rt is None:
            self.fail("result.totals must be two integers.")
        if rt != totals:
            self.fail(
                f"result.totals {list(rt or ())} differ from the deals' totals {list(totals)}."
            )
        winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        if "winner" not in result or result["winner"] is not None and not _is_int(result["winner"]):
            self.fail("result.winner must be 0, 1 or null (a draw).")
        if result["winner"] != winner:
            self.fail(f"result.winner should be {winner} (totals {list(totals)}).")

    # -- one deal ---------------------------------------------------------------------------
    def check_deal(
        self,
        deal: object,
        number: int,
        attempt: int,
        dealer: int,
        totals: tuple[int, int],
        is_last: bool,
    ) -> tuple[str, tuple[int, int]]:
        if not isinstance(deal, dict):
            self.fail("A deal is a JSON object.")
        assert isinstance(deal, dict)
        if deal.get("number") != number or not _is_int(deal.get("number")):
            self.fail(f"Deal number should be {number}, the record says {deal.get('number')!r}.")
        if deal.get("attempt") != attempt or not _is_int(deal.get("attempt")):
            self.fail(f"Attempt should be {attempt}, the record says {deal.get('attempt')!r}.")
        n = hand_size_of(number)
        if deal.get("hand_size") != n or not _is_int(deal.get("hand_size")):
            self.fail(
                f"Deal {number} has {n} cards per hand, the record says {deal.get('hand_size')!r}."
            )
        if deal.get("dealer") != dealer or not _is_int(deal.get("dealer")):
            self.fail(
                f"The dealer should be seat {dealer}, the record says {deal.get('dealer')!r}."
            )
        raw_status = deal.get("status")
        if raw_status not in DEAL_STATUSES:
            self.fail(f"status must be one of {', '.join(DEAL_STATUSES)}.")
        status = str(raw_status)
        upcard = self.card(deal.get("upcard"), "upcard")
        trump = None if upcard >= LB else upcard // 13
        if deal.get("trump") != trump_str(trump):
            self.fail(f"trump should be {trump_str(trump)!r} for upcard {card_str(upcard)}.")
        hands = self.given_hands(deal, n, upcard)
        swap = self.check_swap(deal, hands, upcard)
        if self.seed is not None:
            hands, swap = self.check_seed_deal(number, attempt, dealer, upcard, hands, swap)
        bids = deal.get("bids")
        if not isinstance(bids, list) or len(bids) > 4:
            self.fail("bids must be a list of at most four bids.")
        assert isinstance(bids, list)
        tricks = deal.get("tricks")
        if not isinstance(tricks, list):
            self.fail("tricks must be a list.")
        assert isinstance(tricks, list)
        actions = self.parse_bids(bids, dealer)
        known = [h if h is not None else -1 for h in hands]
        probe = DealState.dealt(tuple(max(h, 0) for h in known), upcard, dealer, n)
        for k, b in enumerate(actions):
            try:
                probe.bid(b)
            except EngineError as e:
                self.fail(
                    f"Seat {probe.to_act} bid {bids[k]['bid']!r}: {e.message}",
                    str(bids[k]["bid"]),
                    e.code,
                )
        if len(actions) < 4:
            if status != "in_progress" or tricks:
                self.fail("A deal with fewer than four bids is in progress and has no tricks.")
            if not is_last:
                self.fail("A deal in progress must be the last deal of the record.")
            self.check_tail(deal, probe, status, totals)
            return status, (0, 0)
        if probe.phase != PLAYING:  # everyone passed
            # Passed out: the fourth all-pass in a row, or any without redeals (duplicate).
            last_try = attempt + 1 >= MAX_ATTEMPTS or not self.redeal
            want = "passed_out" if last_try else "voided"
            if status != want:
                self.fail(f"All four passed at attempt {attempt}: the status should be {want!r}.")
            if tricks:
                self.fail("A deal where everyone passed has no tricks.")
            self.check_tail(deal, probe, status, totals)
            return status, (0, 0)
        if status in ("voided", "passed_out"):
            self.fail(f"Status {status!r} but not everyone passed.")
        d = self.play_tricks(tricks, known, upcard, dealer, n, actions, swap, status)
        if deal.get("claim") is not None:
            self.check_claim(deal["claim"], d, status, all(h >= 0 for h in known))
        elif status == "played" and len(d.tricks) != n:
            self.fail(f"A played deal has {n} complete tricks; the record has {len(tricks)}.")
        if status == "in_progress" and (len(d.tricks) == n or not is_last):
            self.fail("A deal in progress must be the last deal and unfinished.")
        self.trick = None
        return status, self.check_tail(deal, d, status, totals)

    def check_claim(self, claim: object, d: DealState, status: str, hands_known: bool) -> None:
        """A version-2 claim that ended the deal: credit its tricks to ``d`` (then the tail is
        checked as usual). A proven claim is checked by the engine's search when every hand
        is known (an answer over the search's budget is not held against the record)."""
        self.trick = None
        if self.version < 2:
            self.fail("A deal's claim needs record version 2.")
        if not isinstance(claim, dict):
            self.fail("claim must be {seat, tricks, remaining, how}.")
        assert isinstance(claim, dict)
        seat, tricks, rem, how = (claim.get(k) for k in ("seat", "tricks", "remaining", "how"))
        if not (_is_int(seat) and 0 <= seat <= 3):  # type: ignore[operator]
            self.fail("claim.seat must be a seat 0..3.")
        if status != "played":
            self.fail("A deal a claim ended has the status 'played'.")
        if d.trick:
            self.fail("A claim is made between tricks: the last trick must be complete.")
        left = d.n - len(d.tricks)
        if rem != left or not _is_int(rem):
            self.fail(f"claim.remaining should be {left} (tricks still to play).")
        if not _is_int(tricks) or not 0 <= tricks <= left:  # type: ignore[operator]
            self.fail(f"claim.tricks must be between 0 and {left}.")
        if how not in (PROVEN, ACCEPTED):
            self.fail("claim.how must be 'proven' or 'accepted'.")
        assert isinstance(seat, int) and isinstance(tricks, int)
        holds = (
            solver.claim_holds(d, seat=seat, tricks=tricks, budget=CLAIM_BUDGET)
            if how == PROVEN and hands_known
            else None
        )
        if holds is False:
            self.fail(
                f"The claim of seat {seat} ({tricks} tricks) does not hold against every "
                "continuation: it was not proven."
            )
        team = seat & 1
        d.credit = [0, 0]
        d.credit[team] = tricks
        d.credit[team ^ 1] = left - tricks
        d.claim_end = (seat, tricks, left, str(how))
        d.phase = DONE

    def check_tail(
        self, deal: dict[str, Any], d: DealState, status: str, totals: tuple[int, int]
    ) -> tuple[int, int]:
        """tricks_won, score and totals of a deal; returns the score."""
        tw = _pair(deal.get("tricks_won"))
        if tw != d.team_tricks():
            self.fail(f"tricks_won should be {list(d.team_tricks())}.")
        score = d.scores() if status == "played" else (0, 0)
        got = _pair(deal.get("score"))
        if got != score and not (status == "in_progress" and deal.get("score") is None):
            self.fail(
                f"The deal's score should be {list(score)}, the record says {deal.get('score')!r}."
            )
        want = (totals[0] + score[0], totals[1] + score[1])
        got_totals = _pair(deal.get("totals"))
        if got_totals != want and not (status == "in_progress" and deal.get("totals") is None):
            self.fail(
                f"The running totals should be {list(want)}, the record says {deal.get('totals')!r}."
            )
        return score

    # -- cards --------------------------------------------------------------------------------
    def given_hands(self, deal: dict[str, Any], n: int, upcard: int) -> list[int | None]:
        raw = deal.get("hands")
        if not isinstance(raw, list) or len(raw) != 4:
            self.fail("hands must list four hands (null when hidden).")
        assert isinstance(raw, list)
        hands: list[int | None] = []
        seen = 1 << upcard
        for seat, h in enumerate(raw):
            if h is None:
                hands.append(None)
                continue
            if not isinstance(h, list) or len(h) != n:
                self.fail(f"Seat {seat}'s hand must list {n} cards.")
            m = 0
            for v in h:
                c = self.card(v, f"seat {seat}'s hand")
                if (m | seen) >> c & 1:
                    self.fail(
                        f"{card_str(c)} is listed twice (or is the upcard) in the hands.",
                        card_str(c),
                    )
                m |= 1 << c
            if upcard >= LB and m >> LB:
                self.fail(
                    f"Seat {seat} holds a joker in a no-trump deal.", "LB" if m >> LB & 1 else "BB"
                )
            seen |= m
            hands.append(m)
        return hands

    def check_swap(
        self, deal: dict[str, Any], hands: list[int | None], upcard: int
    ) -> tuple[int, int, int | None] | None:
        sw = deal.get("joker_swap")
        if sw is None:
            return None
        if upcard < LB:
            self.fail("A joker swap happens only when the upcard is a joker.")
        if not isinstance(sw, dict) or not _is_int(sw.get("seat")) or not 0 <= sw["seat"] <= 3:
            self.fail("joker_swap must be {seat, discarded, drawn}.")
        seat = sw["seat"]
        discarded = self.card(sw.get("discarded"), "joker_swap.discarded")
        if discarded != LB + BB - upcard:
            self.fail("The discarded card must be the other joker.", card_str(discarded))
        drawn = None if sw.get("drawn") is None else self.card(sw.get("drawn"), "joker_swap.drawn")
        if drawn is not None:
            if drawn >= LB:
                self.fail("The drawn card cannot be a joker.", card_str(drawn))
            for s, h in enumerate(hands):
                if h is not None and (s == seat) != bool(h >> drawn & 1):
                    self.fail(
                        f"The drawn card {card_str(drawn)} must be in seat {seat}'s hand.",
                        card_str(drawn),
                    )
        return (seat, discarded, drawn)

    def check_seed_deal(
        self,
        number: int,
        attempt: int,
        dealer: int,
        upcard: int,
        hands: list[int | None],
        swap: tuple[int, int, int | None] | None,
    ) -> tuple[list[int | None], tuple[int, int, int | None] | None]:
        assert self.seed is not None
        dealt = deal_cards(self.seed, number, attempt, dealer)
        if upcard != dealt.upcard:
            self.fail(
                f"The upcard does not follow from the seed ({card_str(dealt.upcard)}).",
                card_str(upcard),
            )
        for seat, h in enumerate(hands):
            if h is not None and h != dealt.hands[seat]:
                wrong = (h & ~dealt.hands[seat]).bit_length() - 1
                self.fail(f"Seat {seat}'s hand does not follow from the seed.", card_str(wrong))
        want = dealt.swap
        if (swap is None) != (want is None) or (
            swap is not None
            and want is not None
            and (
                swap[0] != want.seat
                or swap[1] != want.discarded
                or swap[2] not in (None, want.drawn)
            )
        ):
            self.fail("The joker swap does not follow from the seed.")
        full: list[int | None] = list(dealt.hands)
        sw = None if want is None else (want.seat, want.discarded, want.drawn)
        return full, sw

    def parse_bids(self, bids: list[Any], dealer: int) -> list[int]:
        out = []
        for k, b in enumerate(bids):
            seat = bidder(dealer, k)
            if not isinstance(b, dict) or "bid" not in b:
                self.fail("A bid is {seat, bid}.")
            try:
                action = parse_bid(b["bid"])
            except EngineError:
                self.fail(f"{b['bid']!r} is not a bid.", str(b["bid"])[:12], "bad_action")
            if b.get("seat") != seat or not _is_int(b.get("seat")):
                self.fail(
                    f"Bid {k + 1} is seat {seat}'s (bidding goes clockwise from the dealer's left).",
                    str(b["bid"]),
                )
            out.append(action)
        return out

    # -- play ---------------------------------------------------------------------------------


__all__ = ["RecordError", "validate_record"]
