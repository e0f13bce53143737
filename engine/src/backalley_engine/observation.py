"""What one seat knows of the deal in progress, for bots: ``GameState.observation(seat)``.

An :class:`Observation` holds the seat's own hand and the public table (docs/rules.md §8):
the upcard and trump, the joker-swap discard and its discarder, every bid and every card
played, by whom. It is built by the engine from its own fields, reading ``hands[seat]`` only
(never the other hands, the start hands or the stock), so a bot deciding from it cannot
see a hidden card by accident. Besides the facts the engine keeps anyway (contracts, board
levels, trump broken, tricks won, the legal actions) it gives what play has revealed: for
each other seat the cards it can no longer hold (``excluded``), from the rules of play
(docs/rules.md §5) read backwards —

- not following suit: it holds none of the led suit (jokers included for a trump lead);
- a Blooper lead: after BB it played its highest trump, after LB its lowest, so it holds no
  trump above (or below) the one it played, and none at all if it played no trump;
- leading a trump before trump was broken without having bid board: it held only trumps.

>>> from backalley_engine.state import GameState
>>> g = GameState.new("00" * 32)
>>> o = g.observation(0)
>>> o.phase, o.hand_size, len(o.legal), o.trump_broken()
('bidding', 13, 14, False)
"""

from __future__ import annotations

from backalley_engine.cards import BB, FULL_DECK_MASK, LB
from backalley_engine.constants import BIDDING, PLAYING, partner_of
from backalley_engine.deal import DealCore, out_of_play, suit_mask_of
from backalley_engine.game import GameCore
from backalley_engine.shuffle import JokerSwap

Trick = tuple[int, tuple[int, ...], int]  # (leader, cards in play order, winner)
Pair = tuple[int, int]


class Observation:
    """One seat's information set for the current deal (all masks are card bitmasks)."""

    __slots__ = (
        "seat",
        "phase",
        "hand_size",
        "dealer",
        "upcard",
        "trump",
        "trump_mask",
        "hand",
        "bids",
        "tricks",
        "trick_leader",
        "trick",
        "legal",
        "swap_seat",
        "swap_discarded",
        "drawn",
        "deal_number",
        "totals",
        "played",
        "excluded",
        "unseen",
        "shown",
        "_levels",
        "_contracts",
        "_broken",
        "_won",
    )

    seat: int
    phase: str  # "bidding" or "playing"
    hand_size: int
    dealer: int
    upcard: int
    trump: int | None
    trump_mask: int
    hand: int  # the seat's own cards now (after its joker swap, if any)
    bids: tuple[int, ...]  # bid actions in bidding order (the first is seat dealer + 1)
    tricks: tuple[Trick, ...]  # completed tricks of this deal
    trick_leader: int  # leader of the trick in progress (-1 while bidding)
    trick: tuple[int, ...]  # cards of the trick in progress
    legal: tuple[int, ...]  # legal actions when it is this seat's turn, else ()
    swap_seat: int | None  # who discarded a joker (public)
    swap_discarded: int | None
    drawn: int | None  # the card this seat drew for its joker (own seat only)
    deal_number: int
    totals: Pair
    played: tuple[int, int, int, int]  # cards played per seat this deal
    excluded: tuple[int, int, int, int]  # cards a seat is known not to hold now
    unseen: int  # cards in another hand or the undealt stock
    shown: tuple[int, int, int, int]  # hands made public by a claim (0 when not shown)

    def __init__(
        self,
        deal: DealCore,
        seat: int,
        *,
        swap: JokerSwap | None = None,
        deal_number: int = 0,
        totals: Pair = (0, 0),
    ) -> None:
        """The observation of ``seat`` in ``deal`` (a ``GameState`` or a ``DealState``);
        the drawn card of a joker swap only when ``seat`` made the swap."""
        if seat not in (0, 1, 2, 3):
            raise ValueError("seat must be 0..3")
        if deal.phase not in (BIDDING, PLAYING):
            raise ValueError(f"no decision to make: the deal is {deal.phase}")
        self.seat = seat
        self.phase = deal.phase
        self.hand_size = deal.n
        self.dealer = deal.dealer
        self.upcard = deal.upcard
        self.trump = deal.trump
        self.trump_mask = deal.trump_mask
        self.hand = deal.hands[seat]
        self.bids = tuple(deal.bids)
        self.tricks = tuple(deal.tricks)
        self.trick_leader = deal.leader if deal.phase == PLAYING else -1
        self.trick = tuple(deal.trick)
        self.legal = tuple(deal.legal_actions()) if deal.to_act == seat else ()
        self.swap_seat = swap.seat if swap else None
        self.swap_discarded = swap.discarded if swap else None
        self.drawn = swap.drawn if swap and swap.seat == seat else None
        self.deal_number = deal_number
        self.totals = totals
        lv = deal.board_level
        self._levels = (lv[0], lv[1], lv[2], lv[3])
        self._contracts = deal.contracts()
        self._broken = deal.broken
        w = deal.won
        self._won = (w[0], w[1], w[2], w[3])
        played = [0, 0, 0, 0]
        for leader, cards, _ in self.tricks:
            for i, c in enumerate(cards):
                played[(leader + i) & 3] |= 1 << c
        for i, c in enumerate(self.trick):
            played[(self.trick_leader + i) & 3] |= 1 << c
        gone = out_of_play(self.upcard) | played[0] | played[1] | played[2] | played[3]
        self.played = (played[0], played[1], played[2], played[3])
        self.unseen = FULL_DECK_MASK & ~gone & ~self.hand
        # A seat that claimed showed its hand (docs/rules.md §10): known exactly from then.
        shown = [deal.hands[s] if deal.revealed >> s & 1 and s != seat else 0 for s in range(4)]
        self.shown = (shown[0], shown[1], shown[2], shown[3])
        ex = list(self._inferred_exclusions())
        for s in range(4):
            if deal.revealed >> s & 1 and s != seat:
                ex[s] |= FULL_DECK_MASK & ~deal.hands[s]
        self.excluded = (ex[0], ex[1], ex[2], ex[3])

    @classmethod
    def from_deal(
        cls,
        deal: DealCore,
        seat: int,
        *,
        swap: JokerSwap | None = None,
        deal_number: int = 0,
        totals: Pair = (0, 0),
    ) -> Observation:
        """Same as the constructor (the name strategies and their tests use)."""
        return cls(deal, seat, swap=swap, deal_number=deal_number, totals=totals)

    @classmethod
    def from_state(cls, state: GameCore, seat: int) -> Observation:
        """What ``seat`` may know of a game's current deal (``state.observation(seat)``)."""
        if state.outcome is not None:
            raise ValueError("no decision to make: the game is over")
        return cls(state, seat, swap=state.swap, deal_number=state.deal_number, totals=state.totals)

    # -- the engine's facts ----------------------------------------------------------------
    @property
    def partner(self) -> int:
        return partner_of(self.seat)

    @property
    def to_act(self) -> bool:
        return bool(self.legal)

    def board_levels(self) -> tuple[int, int, int, int]:
        """Each seat's board level (0 = no board), docs/rules.md §4."""
        return self._levels

    def contracts(self) -> tuple[Pair, Pair]:
        """Per team (sum of the numbers bid, board level), from the bids so far."""
        return self._contracts

    def trump_broken(self) -> bool:
        return self._broken

    def won(self) -> tuple[int, int, int, int]:
        """Tricks won so far by each seat."""
        return self._won

    def bid_of(self, seat: int) -> int | None:
        """The bid action ``seat`` made this deal, or None if it has not bid yet."""
        i = (seat - self.dealer - 1) & 3
        return self.bids[i] if i < len(self.bids) else None

    def cards_to_hold(self, seat: int) -> int:
        """How many cards ``seat`` holds now."""
        return self.hand_size - self.played[seat].bit_count()

    # -- what play revealed ----------------------------------------------------------------
    def _inferred_exclusions(self) -> tuple[int, int, int, int]:
        tm = self.trump_mask
        ex = [0, 0, 0, 0]
        levels = self._levels
        broken = False
        all_tricks = [(lead, cards) for lead, cards, _ in self.tricks]
        if self.trick:
            all_tricks.append((self.trick_leader, self.trick))
        for leader, cards in all_tricks:
            first = cards[0]
            led_trump = bool(tm >> first & 1)
            if led_trump and not broken and not levels[leader]:
                ex[leader] |= FULL_DECK_MASK & ~tm  # it held nothing but trumps
            led = suit_mask_of(first, tm)
            for i in range(1, len(cards)):
                seat = (leader + i) & 3
                c = cards[i]
                if not led >> c & 1:
                    ex[seat] |= led  # showed out of the led suit
                elif led_trump and first == BB:
                    ex[seat] |= tm & ~((2 << c) - 1)  # played its highest trump
                elif led_trump and first == LB:
                    ex[seat] |= tm & ((1 << c) - 1)  # played its lowest trump
            if len(cards) == 4 and any(tm >> c & 1 for c in cards):
                broken = True
        return ex[0], ex[1], ex[2], ex[3]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in Observation.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Observation seat={self.seat} {self.phase} deal={self.deal_number} "
            f"hand={self.hand:#x} bids={len(self.bids)} tricks={len(self.tricks)}>"
        )
