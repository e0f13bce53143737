"""What one seat knows about the deal in progress: its own hand plus public information.

Strategies decide from a :class:`SeatKnowledge`, never from the engine state itself, so a
strategy cannot read another seat's hand by accident. :func:`SeatKnowledge.from_deal` is the
one place that touches the engine's fields, and it reads ``hands[seat]`` only (never the
other hands, the start hands or the stock); the rest is public (RULES.md §8): the upcard and
trump, the joker-swap discard and its discarder, every bid and every card played, by whom.

Besides the raw facts it derives what play has revealed: for each other seat the cards it
can no longer hold (``excluded``), from
- not following suit (it holds none of the led suit, jokers included for a trump lead),
- Blooper leads (after BB it played its highest trump, after LB its lowest: no trump above,
  or below, the one it played; no trump at all if it played none),
- leading a trump before trump was broken without having bid board (only trumps were left).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine.actions import BOARD, PASS
from games.engine.cards import BB, FULL_DECK_MASK, JOKERS_MASK, LB, SUIT_MASKS
from games.engine.deal import BIDDING, PLAYING, DealCore
from games.engine.shuffle import JokerSwap
from games.engine.state import GameState

Trick = tuple[int, tuple[int, ...], int]  # (leader, cards in play order, winner)


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """One seat's information set for the current deal (all masks are card bitmasks)."""

    seat: int
    phase: str  # "bidding" or "playing"
    hand_size: int
    dealer: int
    upcard: int
    trump: int | None
    hand: int  # the seat's own cards now (after its joker swap, if any)
    bids: tuple[int, ...]  # bid actions in bidding order (the first is seat dealer + 1)
    tricks: tuple[Trick, ...]  # completed tricks of this deal
    trick_leader: int  # leader of the trick in progress (-1 while bidding)
    trick: tuple[int, ...]  # cards of the trick in progress
    legal: tuple[int, ...]  # legal actions when it is this seat's turn, else ()
    swap_seat: int | None = None  # who discarded a joker (public)
    swap_discarded: int | None = None
    drawn: int | None = None  # the card this seat drew for its joker (own seat only)
    deal_number: int = 0
    totals: tuple[int, int] = (0, 0)
    # Derived in __post_init__.
    played: tuple[int, int, int, int] = field(init=False)  # cards played per seat this deal
    excluded: tuple[int, int, int, int] = field(init=False)  # cards a seat cannot hold now
    unseen: int = field(init=False)  # cards in another hand or the undealt stock

    def __post_init__(self) -> None:
        played = [0, 0, 0, 0]
        for leader, cards, _ in self.tricks:
            for i, c in enumerate(cards):
                played[(leader + i) & 3] |= 1 << c
        for i, c in enumerate(self.trick):
            played[(self.trick_leader + i) & 3] |= 1 << c
        out = 1 << self.upcard
        if self.trump is None:
            out |= JOKERS_MASK  # a no-trump deal has no joker in play
        gone = out | played[0] | played[1] | played[2] | played[3]
        object.__setattr__(self, "played", tuple(played))
        object.__setattr__(self, "unseen", FULL_DECK_MASK & ~gone & ~self.hand)
        object.__setattr__(self, "excluded", self._inferred_exclusions())

    # -- derived facts -------------------------------------------------------------------
    @property
    def trump_mask(self) -> int:
        return 0 if self.trump is None else SUIT_MASKS[self.trump] | JOKERS_MASK

    @property
    def partner(self) -> int:
        return self.seat ^ 2

    def bid_of(self, seat: int) -> int | None:
        """The bid action ``seat`` made this deal, or None if it has not bid yet."""
        i = (seat - self.dealer - 1) & 3
        return self.bids[i] if i < len(self.bids) else None

    def board_levels(self) -> tuple[int, int, int, int]:
        levels = [0, 0, 0, 0]
        k = 0
        for i, b in enumerate(self.bids):
            if b == BOARD:
                k += 1
                levels[(self.dealer + 1 + i) & 3] = k
        return levels[0], levels[1], levels[2], levels[3]

    def cards_to_hold(self, seat: int) -> int:
        """How many cards ``seat`` holds now."""
        return self.hand_size - self.played[seat].bit_count()

    def trump_broken(self) -> bool:
        tm = self.trump_mask
        return any(sum(1 << c for c in cards) & tm for _, cards, _ in self.tricks)

    def _inferred_exclusions(self) -> tuple[int, int, int, int]:
        tm = self.trump_mask
        ex = [0, 0, 0, 0]
        levels = self.board_levels()
        broken = False
        all_tricks = [(lead, cards) for lead, cards, _ in self.tricks]
        if self.trick:
            all_tricks.append((self.trick_leader, self.trick))
        for leader, cards in all_tricks:
            first = cards[0]
            led_trump = bool(tm >> first & 1)
            if led_trump and not broken and not levels[leader]:
                ex[leader] |= FULL_DECK_MASK & ~tm  # it held nothing but trumps
            led = tm if led_trump else SUIT_MASKS[first // 13]
            for i in range(1, len(cards)):
                seat = (leader + i) & 3
                c = cards[i]
                if not led >> c & 1:
                    ex[seat] |= led  # showed out of the led suit
                elif led_trump and first == BB:
                    ex[seat] |= tm & ~((2 << c) - 1)  # played its highest trump
                elif led_trump and first == LB:
                    ex[seat] |= tm & ((1 << c) - 1)  # played its lowest trump
            if sum(1 << c for c in cards) & tm and len(cards) == 4:
                broken = True
        return ex[0], ex[1], ex[2], ex[3]

    # -- construction --------------------------------------------------------------------
    @classmethod
    def from_deal(
        cls,
        deal: DealCore,
        seat: int,
        *,
        swap: JokerSwap | None = None,
        deal_number: int = 0,
        totals: tuple[int, int] = (0, 0),
    ) -> SeatKnowledge:
        """Knowledge of ``seat`` in a deal (a ``GameState`` or a ``DealState``).

        Reads only public fields and ``deal.hands[seat]``; the drawn card of a joker swap
        only when ``seat`` made the swap.
        """
        if seat not in (0, 1, 2, 3):
            raise ValueError("seat must be 0..3")
        if deal.phase not in (BIDDING, PLAYING):
            raise ValueError(f"no decision to make: the deal is {deal.phase}")
        mine = deal.to_act == seat
        return cls(
            seat=seat,
            phase=deal.phase,
            hand_size=deal.n,
            dealer=deal.dealer,
            upcard=deal.upcard,
            trump=deal.trump,
            hand=deal.hands[seat],
            bids=tuple(deal.bids),
            tricks=tuple(deal.tricks),
            trick_leader=deal.leader if deal.phase == PLAYING else -1,
            trick=tuple(deal.trick),
            legal=tuple(deal.legal_actions()) if mine else (),
            swap_seat=swap.seat if swap else None,
            swap_discarded=swap.discarded if swap else None,
            drawn=swap.drawn if swap and swap.seat == seat else None,
            deal_number=deal_number,
            totals=totals,
        )

    @classmethod
    def from_state(cls, state: GameState, seat: int) -> SeatKnowledge:
        """Knowledge of ``seat`` in a game's current deal."""
        if state.is_terminal():
            raise ValueError("no decision to make: the game is over")
        return cls.from_deal(
            state, seat, swap=state.swap, deal_number=state.deal_number, totals=state.totals
        )

    @property
    def to_act(self) -> bool:
        return bool(self.legal)

    def contracts(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Per team (sum of the numbers bid, board level) from the bids so far."""
        num = [0, 0, 0, 0]
        for i, b in enumerate(self.bids):
            if PASS < b < BOARD:
                num[(self.dealer + 1 + i) & 3] = b - PASS
        lv = self.board_levels()
        return (num[0] + num[2], max(lv[0], lv[2])), (num[1] + num[3], max(lv[1], lv[3]))

    def won(self) -> tuple[int, int, int, int]:
        w = [0, 0, 0, 0]
        for _, _, winner in self.tricks:
            w[winner] += 1
        return w[0], w[1], w[2], w[3]
