"""Exact search over the rest of a deal's play, with every hand known (docs/rules.md §10).

The service's own rules (settled deals, proven claims) ask one question of a position in
the play phase: over **every** legal continuation (all four seats' choices, with the hands
known), what is the least and the most a team can still take? A deal is *settled* when
that is one number for both teams; a claim of k tricks is *proven* when the least is at
least k.

>>> from backalley_engine.cards import parse_card
>>> from backalley_engine.actions import BOARD, PASS
>>> from backalley_engine.deal import DealState
>>> hands = [1 << parse_card(c) for c in ("AS", "2S", "3S", "4S")]
>>> d = DealState(hands, upcard=parse_card("5H"), dealer=3)
>>> for a in (BOARD, PASS, PASS, PASS): d.apply(a)
>>> trick_bounds(d, team=0), is_settled(d), claim_holds(d, seat=0, tricks=1)
((1, 1), True, True)

The search is exact: a depth-first walk over the remaining cards, with two reductions that
change no answer — cards of one hand that no other live card separates in rank (within
their suit, or the trump suit) are played as one, and a position met again at the start of
a trick (the same four hands, leader and trump-broken flag) is not searched twice. Jokers
are never merged with another card, since leading a Blooper binds the others (§5).

Every call takes a ``budget``: the most card placements it may try. Past it the answer is
``None`` ("unknown"), never a guess. Node counts do not depend on time, build or machine,
so an answer is deterministic: the same position and budget give the same answer anywhere.
"""

from __future__ import annotations

from typing import Final

from backalley_engine.cards import BB, LB, SUIT_MASKS
from backalley_engine.constants import PLAYING
from backalley_engine.deal import DealCore

DEFAULT_BUDGET: Final = 20_000
_JOKERS_OR_NONE: Final = (1 << LB) | (1 << BB)


class _OverBudget(Exception):
    pass


class _Unsettled(Exception):
    pass


class _Search:
    """One question about one position (the deal is copied in: the caller's is not touched)."""

    __slots__ = ("tm", "levels", "team", "budget", "nodes", "memo", "settle")

    def __init__(self, deal: DealCore, team: int, budget: int, settle: bool) -> None:
        self.tm = deal.trump_mask
        self.levels = tuple(deal.board_level)
        self.team = team
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[int, int, int, int, int, bool], tuple[int, int]] = {}
        self.settle = settle  # stop at the first position with two outcomes

    # -- the rules of play, on plain masks (the same as DealCore.legal_mask) -----------------
    def _led_mask(self, card: int) -> int:
        tm = self.tm
        if tm >> card & 1:
            return tm
        return SUIT_MASKS[card // 13]

    def _legal(self, hand: int, seat: int, lead: int, broken: bool) -> int:
        if lead < 0:
            tm = self.tm
            if broken or not tm or self.levels[seat]:
                return hand
            return hand & ~tm or hand
        led_mask = self._led_mask(lead)
        follow = hand & led_mask
        if not follow:
            return hand
        if lead == BB and self.tm:
            return 1 << (follow.bit_length() - 1)
        if lead == LB and self.tm:
            return follow & -follow
        return follow

    def _choices(self, legal: int, hand: int, live: int) -> list[int]:
        """One card of each run of ``legal`` that no live card of another seat separates."""
        others = live & ~hand
        out: list[int] = []
        tm = self.tm
        groups = (tm, *[s & ~tm for s in SUIT_MASKS]) if tm else SUIT_MASKS
        for g in groups:
            m = legal & g & ~_JOKERS_OR_NONE
            prev = -1
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                if prev >= 0 and not (others & g & ((1 << c) - (1 << (prev + 1)))):
                    prev = c  # same run as the previous card: one representative suffices
                    continue
                out.append(c)
                prev = c
        j = legal & _JOKERS_OR_NONE
        if j >> LB & 1:
            out.append(LB)
        if j >> BB & 1:
            out.append(BB)
        return out

    def _winner(self, leader: int, cards: list[int]) -> int:
        played = 0
        for c in cards:
            played |= 1 << c
        tm = self.tm
        win = ((played & tm) or (played & self._led_mask(cards[0]))).bit_length() - 1
        return (leader + cards.index(win)) & 3

    # -- the walk --------------------------------------------------------------------------
    def from_trick_start(
        self, hands: tuple[int, int, int, int], leader: int, broken: bool
    ) -> tuple[int, int]:
        """(least, most) tricks the team takes from here (the start of a trick)."""
        if not hands[0]:
            return (0, 0)
        key = (hands[0], hands[1], hands[2], hands[3], leader, broken)
        got = self.memo.get(key)
        if got is not None:
            return got
        result = self.in_trick(list(hands), leader, [], broken)
        self.memo[key] = result
        return result

    def in_trick(
        self, hands: list[int], leader: int, cards: list[int], broken: bool
    ) -> tuple[int, int]:
        """(least, most) from a trick in progress (``cards`` played so far, in order)."""
        k = len(cards)
        if k == 4:
            winner = self._winner(leader, cards)
            played = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) | (1 << cards[3])
            now_broken = broken or bool(played & self.tm)
            lo, hi = self.from_trick_start(
                (hands[0], hands[1], hands[2], hands[3]), winner, now_broken
            )
            mine = 1 if winner & 1 == self.team else 0
            return (lo + mine, hi + mine)
        seat = (leader + k) & 3
        hand = hands[seat]
        legal = self._legal(hand, seat, cards[0] if cards else -1, broken)
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for c in cards:
            live |= 1 << c
        best_lo = 99
        best_hi = -1
        for c in self._choices(legal, hand, live):
            self.nodes += 1
            if self.nodes > self.budget:
                raise _OverBudget
            hands[seat] = hand ^ (1 << c)
            cards.append(c)
            lo, hi = self.in_trick(hands, leader, cards, broken)
            cards.pop()
            hands[seat] = hand
            if lo < best_lo:
                best_lo = lo
            if hi > best_hi:
                best_hi = hi
            if self.settle and best_lo != best_hi:
                raise _Unsettled
        return (best_lo, best_hi)


class _Holds(_Search):
    """Whether the team takes at least ``need`` more tricks on every continuation: stops at
    the first continuation that leaves it short, and at every line where it already has
    them (it cannot lose a trick it won), so a claim is answered far sooner than its bounds."""

    __slots__ = ("held",)

    def __init__(self, deal: DealCore, team: int, budget: int) -> None:
        super().__init__(deal, team, budget, settle=False)
        self.held: dict[tuple[int, int, int, int, int, bool, int], bool] = {}

    def start(self, hands: tuple[int, int, int, int], leader: int, broken: bool, need: int) -> bool:
        if need <= 0:
            return True
        if need > hands[0].bit_count():
            return False
        key = (hands[0], hands[1], hands[2], hands[3], leader, broken, need)
        got = self.held.get(key)
        if got is None:
            got = self.holds(list(hands), leader, [], broken, need)
            self.held[key] = got
        return got

    def holds(
        self, hands: list[int], leader: int, cards: list[int], broken: bool, need: int
    ) -> bool:
        k = len(cards)
        if k == 4:
            winner = self._winner(leader, cards)
            played = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]) | (1 << cards[3])
            now_broken = broken or bool(played & self.tm)
            mine = 1 if winner & 1 == self.team else 0
            return self.start(
                (hands[0], hands[1], hands[2], hands[3]), winner, now_broken, need - mine
            )
        seat = (leader + k) & 3
        hand = hands[seat]
        legal = self._legal(hand, seat, cards[0] if cards else -1, broken)
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for c in cards:
            live |= 1 << c
        for c in self._choices(legal, hand, live):
            self.nodes += 1
            if self.nodes > self.budget:
                raise _OverBudget
            hands[seat] = hand ^ (1 << c)
            cards.append(c)
            ok = self.holds(hands, leader, cards, broken, need)
            cards.pop()
            hands[seat] = hand
            if not ok:
                return False
        return True


def _search(deal: DealCore, team: int, budget: int, settle: bool) -> tuple[int, int]:
    """(least, most) tricks ``team`` takes from the rest of ``deal`` (raises past budget)."""
    s = _Search(deal, team, budget, settle)
    hands = list(deal.hands)
    if deal.trick:
        return s.in_trick(hands, deal.leader, list(deal.trick), deal.broken)
    return s.from_trick_start((hands[0], hands[1], hands[2], hands[3]), deal.leader, deal.broken)


def trick_bounds(
    deal: DealCore, *, team: int, budget: int = DEFAULT_BUDGET
) -> tuple[int, int] | None:
    """The least and the most tricks ``team`` still takes (not counting those already won)
    over every legal continuation of ``deal``'s play; None when the search would pass
    ``budget`` card placements, or the deal is not in its play phase."""
    if deal.phase != PLAYING or team not in (0, 1):
        return None
    try:
        return _search(deal, team, budget, settle=False)
    except _OverBudget:
        return None


def is_settled(deal: DealCore, *, budget: int = DEFAULT_BUDGET) -> bool | None:
    """True when every legal continuation of the play gives each team the same tricks;
    False when two continuations differ; None when unknown (over budget, or not in play).

    The walk stops at the first position with two different outcomes, so most unsettled
    deals are answered False long before the budget.
    """
    if deal.phase != PLAYING:
        return None
    try:
        _search(deal, 0, budget, settle=True)
    except _Unsettled:
        return False
    except _OverBudget:
        return None
    return True


def claim_holds(
    deal: DealCore, *, seat: int, tricks: int, budget: int = DEFAULT_BUDGET
) -> bool | None:
    """Whether ``seat``'s team takes at least ``tricks`` of the remaining ones however anyone
    plays (True), not (False: a continuation gives it fewer), or unknown (None)."""
    if deal.phase != PLAYING:
        return None
    if tricks <= 0:
        return True
    s = _Holds(deal, seat & 1, budget)
    hands = list(deal.hands)
    try:
        if deal.trick:
            if tricks > hands[deal.to_act].bit_count():
                return False
            return s.holds(hands, deal.leader, list(deal.trick), deal.broken, tricks)
        return s.start((hands[0], hands[1], hands[2], hands[3]), deal.leader, deal.broken, tricks)
    except _OverBudget:
        return None


def settled_card(deal: DealCore) -> int:
    """The card the service plays for the seat to act in a settled deal: its first legal
    card in canonical order (spades 2..A, hearts, diamonds, clubs, then LB, BB). In a
    settled deal every choice gives the same tricks, so the choice is only for the record
    to be reproducible."""
    m = deal.legal_mask()
    if not m:
        raise ValueError("no card to play: the deal is not in its play phase")
    return (m & -m).bit_length() - 1
