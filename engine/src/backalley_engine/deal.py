"""One deal as a state machine: bidding, then play, then the deal's score (docs/rules.md §3-§6).

``DealState`` can be built from explicit hands, so bots can simulate determinized deals:

>>> from backalley_engine.cards import parse_card
>>> hands = [1 << parse_card(c) for c in ("AS", "2S", "3S", "4S")]
>>> d = DealState(hands, upcard=parse_card("5H"), dealer=3)
>>> for a in (BOARD, PASS, PASS, PASS): d.apply(a)
>>> d.apply(parse_card("AS")); d.apply(parse_card("2S")); d.apply(parse_card("3S"))
>>> d.apply(parse_card("4S")); d.phase, d.team_tricks(), d.scores()
('done', (1, 0), (10, 0))

Hot paths are mask arithmetic: the legal cards of a seat are one mask expression, the trick
winner is the top bit of the trumps (or of the led suit) played. Within a trump mask a higher
bit is a higher card, jokers included (BB=53 > LB=52 > the trump ace).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from backalley_engine.actions import ACCEPT_BASE, BOARD, PASS, REFUSE_BASE
from backalley_engine.cards import (
    BB,
    JOKER_LISTS,
    JOKERS_MASK,
    LB,
    SUIT_LISTS,
    SUIT_MASKS,
    TRUMP_MASKS,
    card_str,
    mask_to_cards,
    suit_name,
)
from backalley_engine.constants import BIDDING as BIDDING  # re-exported: phases are part of a deal
from backalley_engine.constants import DONE as DONE
from backalley_engine.constants import PLAYING as PLAYING
from backalley_engine.errors import (
    ActionParseError,
    EngineError,
    IllegalBid,
    IllegalCard,
    MustFollowSuit,
    MustPlayHighestTrump,
    MustPlayLowestTrump,
    TrumpNotBroken,
    WrongPhase,
)

# Legal bids per hand size: pass, 1..n-1, board (on a 1-card deal only pass and board).
BID_ACTIONS: Final[tuple[tuple[int, ...], ...]] = tuple(
    (PASS, *range(PASS + 1, PASS + n), BOARD) for n in range(14)
)
# What the trick's lead obliges the others to play.
NO_BLOOPER: Final = 0
BLOOPER_BB: Final = 1
BLOOPER_LB: Final = 2
# Per-suit tables: 13-bit suit mask -> its cards.
_S0: Final = SUIT_LISTS[0]
_S1: Final = SUIT_LISTS[1]
_S2: Final = SUIT_LISTS[2]
_S3: Final = SUIT_LISTS[3]
# A joker's own "suit" in a no-trump deal, where no joker is in play (say, in a bad record).
_PRINTED_SUIT_MASKS: Final = (*SUIT_MASKS, JOKERS_MASK)


def bidder(dealer: int, index: int) -> int:
    """The seat that makes the ``index``-th bid (0-based) of a deal: bidding starts at the
    dealer's left and goes clockwise (docs/rules.md §4).

    >>> [bidder(3, i) for i in range(4)]
    [0, 1, 2, 3]
    """
    return (dealer + 1 + index) & 3


def out_of_play(upcard: int) -> int:
    """Cards in no hand from the start of a deal: the upcard, and both jokers in a no-trump
    deal (the other joker is discarded face up; docs/rules.md §3).

    >>> out_of_play(0) == 1, out_of_play(BB) == JOKERS_MASK
    (True, True)
    """
    return (1 << upcard) | JOKERS_MASK if upcard >= LB else 1 << upcard


def suit_mask_of(card: int, trump_mask: int) -> int:
    """The cards of ``card``'s effective suit: the whole trump suit (jokers included) for a
    trump, else its printed suit (docs/rules.md §3, §5).

    >>> suit_mask_of(BB, TRUMP_MASKS[0]) == TRUMP_MASKS[0], suit_mask_of(0, TRUMP_MASKS[1])
    (True, 8191)
    """
    return trump_mask if trump_mask >> card & 1 else _PRINTED_SUIT_MASKS[card // 13]


def winning_card(played: int, led_mask: int, trump_mask: int) -> int:
    """The card that wins (so far) among ``played`` (a mask): the highest trump, else the
    highest card of the led suit (docs/rules.md §5, winning a trick). Within a suit a higher
    bit is a higher card, jokers included (BB > LB > the trump ace).

    >>> from backalley_engine.cards import parse_card as p
    >>> played = (1 << p("KD")) | (1 << p("AD")) | (1 << p("2S"))
    >>> winning_card(played, SUIT_MASKS[2], TRUMP_MASKS[0]) == p("2S")
    True
    """
    return ((played & trump_mask) or (played & led_mask)).bit_length() - 1


def winning_index(cards: Sequence[int], trump_mask: int) -> int:
    """Index in ``cards`` (a trick or its start, in play order) of the card winning it."""
    played = 0
    for c in cards:
        played |= 1 << c
    return list(cards).index(winning_card(played, suit_mask_of(cards[0], trump_mask), trump_mask))


def trick_winner(leader: int, cards: Sequence[int], trump_mask: int) -> int:
    """The seat that wins (so far) a trick led by ``leader``."""
    return (leader + winning_index(cards, trump_mask)) & 3


def score_team(number: int, board: int, tricks: int, hand_size: int) -> int:
    """A team's points for one deal (docs/rules.md §6).

    ``number`` is the sum of the partners' numeric bids, ``board`` the team's board level
    (0 = none; it overrides the number).

    >>> score_team(3, 0, 4, 5), score_team(3, 0, 2, 5), score_team(0, 0, 2, 5)
    (16, -15, 2)
    >>> score_team(0, 2, 5, 5), score_team(4, 1, 4, 5)
    (100, -50)
    """
    if board:
        points = 10 * hand_size * board
        return points if tricks == hand_size else -points
    if number == 0:
        return tricks
    if tricks >= number:
        return 5 * number + (tricks - number)
    return -5 * number


class DealCore:
    """The fields and rules of one deal; ``DealState`` (one deal) and ``GameState`` (the
    current deal of a game) both build on it so the hot path has no indirection."""

    __slots__ = (
        "n",
        "dealer",
        "upcard",
        "trump",
        "trump_mask",
        "start_hands",
        "hands",
        "bids",
        "board_level",
        "boards",
        "phase",
        "to_act",
        "leader",
        "trick",
        "led_mask",
        "led_list",
        "led_shift",
        "blooper",
        "broken",
        "tricks",
        "won",
        "claim",
        "claim_ok",
        "revealed",
        "claim_end",
        "credit",
        "claim_marks",
        "_lm",
    )

    def _setup(self, hands: tuple[int, ...], upcard: int, dealer: int, n: int) -> None:
        self.n = n
        self.dealer = dealer
        self.upcard = upcard
        self.trump: int | None = None if upcard >= LB else upcard // 13
        self.trump_mask = 0 if self.trump is None else TRUMP_MASKS[self.trump]
        self.start_hands: tuple[int, ...] = hands
        self.hands: list[int] = list(hands)
        self.bids: list[int] = []
        self.board_level = [0, 0, 0, 0]
        self.boards = 0
        self.phase = BIDDING
        self.to_act = (dealer + 1) & 3
        self.leader = -1
        self.trick: list[int] = []
        self.led_mask = 0
        self.led_list: tuple[tuple[int, ...], ...] | None = None  # led plain suit's table
        self.led_shift = 0
        self.blooper = NO_BLOOPER
        self.broken = False
        # Completed tricks as (leader, cards in play order, winner).
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.won = [0, 0, 0, 0]
        # Claims (docs/rules.md §10; backalley_engine.claims): the pending claim as
        # seat * 14 + tricks (-1: none), the opponents who accepted it (a seat mask), the
        # seats whose hand is public since they claimed, how a claim ended the deal
        # (seat, tricks, remaining, "proven" | "accepted"), the tricks it credited per team,
        # and per team the trick count at its last claim (one claim per team between tricks).
        self.claim = -1
        self.claim_ok = 0
        self.revealed = 0
        self.claim_end: tuple[int, int, int, str] | None = None
        self.credit = [0, 0]
        self.claim_marks = [-1, -1]
        self._lm = -1  # legal mask cached by legal_actions() until the next action

    def _share_deal_into(self, c: DealCore) -> None:
        """Give ``c`` this deal's fields by reference (for a deal that will not change again)."""
        c.n = self.n
        c.dealer = self.dealer
        c.upcard = self.upcard
        c.trump = self.trump
        c.trump_mask = self.trump_mask
        c.start_hands = self.start_hands
        c.hands = self.hands
        c.bids = self.bids
        c.board_level = self.board_level
        c.boards = self.boards
        c.phase = self.phase
        c.to_act = self.to_act
        c.leader = self.leader
        c.trick = self.trick
        c.led_mask = self.led_mask
        c.led_list = self.led_list
        c.led_shift = self.led_shift
        c.blooper = self.blooper
        c.broken = self.broken
        c.tricks = self.tricks
        c.won = self.won
        c.claim = self.claim
        c.claim_ok = self.claim_ok
        c.revealed = self.revealed
        c.claim_end = self.claim_end
        c.credit = self.credit
        c.claim_marks = self.claim_marks
        c._lm = self._lm

    def _copy_deal_into(self, c: DealCore) -> None:
        c.n = self.n
        c.dealer = self.dealer
        c.upcard = self.upcard
        c.trump = self.trump
        c.trump_mask = self.trump_mask
        c.start_hands = self.start_hands
        c.hands = self.hands[:]
        c.bids = self.bids[:]
        c.board_level = self.board_level[:]
        c.boards = self.boards
        c.phase = self.phase
        c.to_act = self.to_act
        c.leader = self.leader
        c.trick = self.trick[:]
        c.led_mask = self.led_mask
        c.led_list = self.led_list
        c.led_shift = self.led_shift
        c.blooper = self.blooper
        c.broken = self.broken
        c.tricks = self.tricks[:]
        c.won = self.won[:]
        c.claim = self.claim
        c.claim_ok = self.claim_ok
        c.revealed = self.revealed
        c.claim_end = self.claim_end
        c.credit = self.credit[:]
        c.claim_marks = self.claim_marks[:]
        c._lm = self._lm

    # -- legal moves -------------------------------------------------------------------
    def legal_mask(self) -> int:
        """The cards the seat to act may play now (0 outside the play phase): the one
        legality kernel of docs/rules.md §5 (following, leading trump, Blooper leads)."""
        if self.phase != PLAYING:
            return 0
        seat = self.to_act
        hand = self.hands[seat]
        if self.trick:
            follow = hand & self.led_mask
            if not follow:
                return hand  # cannot follow: any card, trump included
            bl = self.blooper
            if bl:  # Blooper lead: highest (BB) or lowest (LB) trump, partners included
                return 1 << (follow.bit_length() - 1) if bl == BLOOPER_BB else follow & -follow
            return follow
        tm = self.trump_mask
        if self.broken or not tm or self.board_level[seat]:
            return hand
        # Trump may not be led before it is broken, unless the hand holds nothing else.
        return hand & ~tm or hand

    def legal_actions(self) -> list[int]:
        """Legal actions of the seat to act, in ascending order."""
        if self.phase != PLAYING:
            return list(BID_ACTIONS[self.n]) if self.phase == BIDDING else []
        if self.claim >= 0:  # a claim waits for this opponent's answer
            return [ACCEPT_BASE + self.to_act, REFUSE_BASE + self.to_act]
        m = self._lm
        if m < 0:
            m = self._lm = self.legal_mask()
            table = self.led_list
            if table is not None and self.trick and not m & ~self.led_mask:
                return list(table[m >> self.led_shift])  # following a plain suit: one lookup
        return [
            *_S0[m & 0x1FFF],
            *_S1[m >> 13 & 0x1FFF],
            *_S2[m >> 26 & 0x1FFF],
            *_S3[m >> 39 & 0x1FFF],
            *JOKER_LISTS[m >> 52],
        ]

    # -- applying ----------------------------------------------------------------------
    def bid(self, action: int) -> None:
        if self.phase != BIDDING:
            raise WrongPhase(
                "The bidding is over: play a card."
                if self.phase == PLAYING
                else "This deal is over.",
                {"phase": self.phase},
            )
        if not PASS <= action <= BOARD:
            raise WrongPhase(
                "Bidding is not over yet: bid before playing a card.", {"phase": BIDDING}
            )
        if PASS < action < BOARD and action - PASS >= self.n:
            raise IllegalBid(
                f"On a {self.n}-card deal a numeric bid is at most {self.n - 1}"
                + (" (only pass or board are possible)." if self.n == 1 else "."),
                {"max_number": self.n - 1},
            )
        seat = self.to_act
        self.bids.append(action)
        self._lm = -1
        if action == BOARD:
            self.boards += 1
            self.board_level[seat] = self.boards
        if len(self.bids) < 4:
            self.to_act = (seat + 1) & 3
            return
        leader = self.opening_leader()
        if leader is None:  # all passed: the deal is void
            self.phase = DONE
            self.to_act = -1
            return
        self.phase = PLAYING
        self.leader = self.to_act = leader

    def opening_leader(self) -> int | None:
        """Highest bidder: any board beats any number, the latest board leads, equal numbers
        go to the first who bid them. None when everyone passed."""
        best_key = 0
        best_seat: int | None = None
        first = self.dealer + 1
        for i, b in enumerate(self.bids):
            key = 100 + i if b == BOARD else b - PASS
            if key > best_key:  # strict: the first of equal numbers keeps the lead
                best_key, best_seat = key, (first + i) & 3
        return best_seat

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to act; a typed error, changing nothing, if not legal."""
        if self.phase != PLAYING:
            raise WrongPhase(
                "Bidding is not over yet: bid before playing a card."
                if self.phase == BIDDING
                else "This deal is over.",
                {"phase": self.phase},
            )
        seat = self.to_act
        bit = 1 << card
        legal = self._lm
        if legal < 0:
            legal = self.legal_mask()
        if not legal & bit:
            raise self._play_error(card)
        self._lm = -1
        self.hands[seat] ^= bit
        trick = self.trick
        trick.append(card)
        k = len(trick)
        if k == 1:
            self._lead(card)
            self.to_act = (seat + 1) & 3
            return
        if k < 4:
            self.to_act = (seat + 1) & 3
            return
        # The trick is complete.
        played = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | bit
        tm = self.trump_mask
        if played & tm:
            self.broken = True
        winner = (self.leader + trick.index(winning_card(played, self.led_mask, tm))) & 3
        self.tricks.append((self.leader, tuple(trick), winner))
        self.won[winner] += 1
        self.trick = []
        self.blooper = NO_BLOOPER
        if len(self.tricks) == self.n:
            self.phase = DONE
            self.to_act = -1
        else:
            self.leader = self.to_act = winner

    def _lead(self, card: int) -> None:
        """What leading ``card`` obliges the others to play: its effective suit, and for a
        Blooper their highest or lowest trump (docs/rules.md §5)."""
        tm = self.trump_mask
        if tm >> card & 1:
            self.led_mask = tm
            self.led_list = None
            self.blooper = BLOOPER_BB if card == BB else BLOOPER_LB if card == LB else NO_BLOOPER
        else:
            suit = card // 13
            self.led_mask = SUIT_MASKS[suit]
            self.led_list = SUIT_LISTS[suit]
            self.led_shift = 13 * suit
            self.blooper = NO_BLOOPER

    def _play_error(self, card: int) -> EngineError:
        """Why ``card`` may not be played now (the message names only the actor's own cards)."""
        seat = self.to_act
        hand = self.hands[seat]
        extra: dict[str, object] = {"card": card_str(card)}
        if not hand >> card & 1:
            return IllegalCard("You do not hold that card.", extra)
        if not self.trick:
            return TrumpNotBroken(
                "You may not lead a trump until trump has been played in an earlier trick "
                "(unless you bid board or hold only trumps).",
                extra,
            )
        if self.blooper == BLOOPER_BB:
            return MustPlayHighestTrump("The Big Blooper was led: play your highest trump.", extra)
        if self.blooper == BLOOPER_LB:
            return MustPlayLowestTrump("The Little Blooper was led: play your lowest trump.", extra)
        led = "trumps" if self.led_mask == self.trump_mask else suit_name(self.trick[0] // 13)
        return MustFollowSuit(f"You must follow suit: you hold {led}.", {**extra, "led": led})

    # -- results -----------------------------------------------------------------------
    def all_passed(self) -> bool:
        return len(self.bids) == 4 and self.bids.count(PASS) == 4

    def team_tricks(self) -> tuple[int, int]:
        """Tricks by team: those won in play plus those a claim credited."""
        w = self.won
        c = self.credit
        return (w[0] + w[2] + c[0], w[1] + w[3] + c[1])

    def contracts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Per team (sum of numbers, board level); board level 0 means a numeric contract."""
        num = [0, 0, 0, 0]
        first = self.dealer + 1
        for i, b in enumerate(self.bids):
            if PASS < b < BOARD:
                num[(first + i) & 3] = b - PASS
        lv = self.board_level
        return (num[0] + num[2], max(lv[0], lv[2])), (num[1] + num[3], max(lv[1], lv[3]))

    def scores(self) -> tuple[int, int]:
        """This deal's points by team; (0, 0) for a voided deal or one not yet played out."""
        if self.phase != DONE or not (self.tricks or self.claim_end is not None):
            return (0, 0)
        t = self.team_tricks()
        c = self.contracts()
        return (
            score_team(c[0][0], c[0][1], t[0], self.n),
            score_team(c[1][0], c[1][1], t[1], self.n),
        )

    def bid_seat(self, index: int) -> int:
        """The seat that makes the index-th bid of the deal."""
        return bidder(self.dealer, index)

    def hand(self, seat: int) -> list[int]:
        return mask_to_cards(self.hands[seat])


class DealState(DealCore):
    """One deal on its own (for bots' simulations): built from explicit hands."""

    __slots__ = ()

    def __init__(
        self,
        hands: Sequence[int] | None = None,
        upcard: int = 0,
        dealer: int = 0,
        hand_size: int | None = None,
    ) -> None:
        """Start a deal at its first bid. ``hands`` are bitmasks as held when bidding begins
        (in a no-trump deal: after the joker swap). Without hands, an empty shell for the
        engine to fill (no ``__new__`` tricks, so the class also compiles)."""
        if hands is None:
            return
        if len(hands) != 4:
            raise ValueError("a deal has four hands")
        n = hands[0].bit_count() if hand_size is None else hand_size
        if any(h.bit_count() != n for h in hands) or not 1 <= n <= 13:
            raise ValueError("every hand must hold the deal's hand size (1..13) of cards")
        if not 0 <= upcard < 54 or dealer not in (0, 1, 2, 3):
            raise ValueError("bad upcard or dealer")
        seen = 1 << upcard
        for h in hands:
            if h & seen or h >> 54:
                raise ValueError("hands must be disjoint and exclude the upcard")
            seen |= h
        if upcard >= LB and seen & JOKERS_MASK & ~(1 << upcard):
            raise ValueError("a no-trump deal has no joker in play")
        self._setup(tuple(hands), upcard, dealer, n)

    @classmethod
    def dealt(cls, hands: tuple[int, ...], upcard: int, dealer: int, hand_size: int) -> DealState:
        """A deal from hands the shuffle produced (trusted: no consistency checks)."""
        d = DealState()
        d._setup(hands, upcard, dealer, hand_size)
        return d

    @classmethod
    def copy_of(cls, core: DealCore) -> DealState:
        """A DealState holding a copy of any deal's fields (e.g. a game's current deal)."""
        d = DealState()
        core._copy_deal_into(d)
        return d

    def clone(self) -> DealState:
        return DealState.copy_of(self)

    def apply(self, action: object) -> None:
        """Apply a bid or a card for the seat to act; raises a typed error, changing nothing,
        when it is not legal (``object``: a value of any type gets the typed error)."""
        if type(action) is not int or not 0 <= action <= BOARD:
            raise ActionParseError(f"Not an action: {action!r}.", {"action": repr(action)[:20]})
        if action < 54:
            self.play(action)
        else:
            self.bid(action)
