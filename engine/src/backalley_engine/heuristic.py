"""The heuristic strategy: bids an estimate of its tricks and plays by simple card sense.

It is the service's house ``heuristic`` (and the move played for a bot that faults), kept
here because it is pure: a bot author plays against the very same strategy offline.
``heuristic_action`` decides from a seat's :class:`~backalley_engine.observation.Observation`,
deterministically:

>>> from backalley_engine import GameState, action_str
>>> g = GameState.new("00" * 32)
>>> action_str(heuristic_action(g.observation(0)))
'pass'

Written as plain functions over card bitmasks so the search strategy can also use them to
play out sampled deals quickly. Each function gets only what the acting seat may know: its
own hand, the public table (bids, trick, played cards) and ``live`` — the cards it cannot
see (in other hands or the stock).

Within one effective suit (a plain suit, or the trump suit with both jokers) a higher bit is
a higher card, so "beats" and "is the top remaining card" are mask comparisons.
"""

from __future__ import annotations

from collections.abc import Sequence

from backalley_engine.actions import BOARD, PASS
from backalley_engine.cards import JOKERS_MASK, SUIT_MASKS, card_mask, mask_to_cards
from backalley_engine.constants import BIDDING, partner_of, team_of
from backalley_engine.deal import bidder, suit_mask_of, winning_index
from backalley_engine.observation import Observation

_SUIT_NUMBERS = (0, 1, 2, 3)


def _low(m: int) -> int:
    return (m & -m).bit_length() - 1


def _high(m: int) -> int:
    return m.bit_length() - 1


def is_boss(card: int, tm: int, live: int) -> bool:
    """No card the others might hold ranks above ``card`` in its effective suit."""
    return not live & suit_mask_of(card, tm) & ~((2 << card) - 1)


# -- bidding -------------------------------------------------------------------------------
def estimate_tricks(hand: int, tm: int, hand_size: int, live: int) -> tuple[float, float]:
    """(expected tricks, chance of taking every trick alone) for ``hand``.

    ``live`` is every card this seat cannot see. A card counts by how likely the higher cards
    of its suit that it cannot see sit with the opponents (few do on small deals, where most
    of the deck stays in the stock), softened by guards (lower cards of the suit it holds).
    Spare trumps count extra beside a void or a singleton side suit.
    """
    n = hand_size
    unseen = live.bit_count() or 1
    q = min(1.0, 2 * n / unseen)  # chance a given unseen card is in an opponent's hand
    p_clear = 1.0 - q
    total = 0.0
    all_win = 1.0
    trumps = hand & tm
    spare = 0
    ruff = 0.01 * n if tm else 0.0  # a side winner can be ruffed, more on big deals
    for is_trump, suit_mask in ((True, tm), *((False, m & ~tm) for m in SUIT_MASKS)):
        mine = hand & suit_mask
        if not mine:
            continue
        live_suit = live & suit_mask
        guards = 0
        while mine:
            low = mine & -mine
            mine ^= low
            missing = (live_suit >> low.bit_length()).bit_count()  # live cards above it
            if missing:
                # Clear if the higher cards are out of play; else a guarded card may still
                # outlast them (about one time in two per higher card).
                pc = p_clear**missing
                v = pc + (1.0 - pc) * 0.5**missing if guards >= missing else pc
            else:
                v = 1.0
            if is_trump:
                if v < 0.5:
                    spare += 1
            elif ruff:
                v *= max(0.4, 1.0 - ruff * (missing + 1))
            total += v
            all_win *= v
            guards += 1
    if trumps:
        # Length: trumps beyond three outlast the others' trumps on big deals.
        total += 0.3 * max(0, trumps.bit_count() - 3) * q
        for sm in SUIT_MASKS:
            side = (hand & sm & ~tm).bit_count()
            if side < 2 and sm & ~tm:
                use = min(spare, 2 - side)
                total += 0.6 * use * q
                spare -= use
    return min(total, float(n)), all_win


def choose_bid(
    hand: int,
    tm: int,
    hand_size: int,
    live: int,
    seat: int,
    dealer: int,
    bids: Sequence[int],
) -> int:
    """A bid action from the trick estimate, the partner's bid and the team total."""
    n = hand_size
    est, all_win = estimate_tricks(hand, tm, n, live)
    partner_bid = None
    opp_numbers = 0
    for i, b in enumerate(bids):
        who = bidder(dealer, i)
        if who == partner_of(seat):
            partner_bid = b
        elif PASS < b < BOARD:
            opp_numbers += b - PASS
    if partner_bid == BOARD:
        # The team's contract is the partner's board; a second board would double it.
        return BOARD if all_win >= 0.8 else PASS
    board_bar = 0.55 if n == 1 else 0.7 if n <= 3 else 0.8
    if all_win >= board_bar:
        return BOARD
    b = int(est - 0.1)
    partner_number = partner_bid - PASS if partner_bid is not None and partner_bid != BOARD else 0
    # Tricks are shared: keep the team total (and the table's) within the deal.
    room = n - partner_number - max(0, opp_numbers - 1)
    b = max(0, min(b, room, n - 1))
    return PASS + b if b else PASS


# -- play ----------------------------------------------------------------------------------
def _discard(hand: int, legal: int, tm: int, live: int) -> int:
    """The least useful legal card: a low non-trump that is not a winner, from a short suit
    (to make a void), else the lowest card."""
    side = legal & ~tm
    if not side:
        return _low(legal)
    best = -1
    best_key: tuple[int, int, int] = (99, 99, 99)
    for s in _SUIT_NUMBERS:
        m = side & SUIT_MASKS[s]
        if not m:
            continue
        c = _low(m)
        key = (1 if is_boss(c, tm, live) else 0, c % 13, (hand & SUIT_MASKS[s]).bit_count())
        if key < best_key:
            best_key, best = key, c
    return best


def _choose_lead(hand: int, legal: int, tm: int, live: int, our_board: bool) -> int:
    side = legal & ~tm
    trumps = legal & tm
    live_trumps = live & tm
    if trumps:
        top = _high(trumps)
        # Draw trumps with the top trump when long in them (or playing for every trick).
        if (
            is_boss(top, tm, live)
            and (our_board or (hand & tm).bit_count() > live_trumps.bit_count() // 2 + 1)
            and (not side or our_board or top < 52 or (hand & tm).bit_count() >= 3)
        ):
            return top
    # Cash a side winner, in the suit with the most cards still out (least ruff risk).
    best = -1
    best_out = -1
    m = side
    while m:
        c = _high(m)
        m &= ~SUIT_MASKS[c // 13]
        if is_boss(c, tm, live):
            out = (live & SUIT_MASKS[c // 13]).bit_count()
            if out > best_out:
                best, best_out = c, out
    if best >= 0:
        return best
    if not side:
        top = _high(trumps)
        return top if is_boss(top, tm, live) else _low(trumps)
    if our_board:
        return _high(side)
    # A singleton side card, to ruff that suit later while holding trumps.
    if hand & tm:
        for s in _SUIT_NUMBERS:
            m = side & SUIT_MASKS[s]
            if m and not m & (m - 1) and not (hand & SUIT_MASKS[s] & ~m):
                return _low(m)
    # Otherwise lead low from the longest side suit, for the partner to win.
    longest = max(_SUIT_NUMBERS, key=lambda s: ((side & SUIT_MASKS[s]).bit_count(), -s))
    return _low(side & SUIT_MASKS[longest])


def choose_card(
    seat: int,
    hand: int,
    legal: int,
    trick: Sequence[int],
    leader: int,
    tm: int,
    live: int,
    our_board: bool = False,
) -> int:
    """A card from ``legal`` (a mask) for ``seat``: win cheaply, duck when the partner holds
    the trick or it cannot be won, trump in when void, keep the Bloopers for need."""
    if not legal & (legal - 1):
        return _low(legal)
    if not trick:
        return _choose_lead(hand, legal, tm, live, our_board)
    led = trick[0]
    led_mask = suit_mask_of(led, tm)
    idx = winning_index(trick, tm)
    best = trick[idx]
    winner = (leader + idx) & 3
    pos = len(trick)  # cards before mine: 1 = second hand, 3 = last
    above = ~((2 << best) - 1)
    win = legal & tm & above if tm >> best & 1 else legal & led_mask & above | legal & tm
    following = bool(legal & led_mask)
    if winner == partner_of(seat):
        # The partner holds the trick: keep my cards unless its card may fall to the last hand.
        if pos == 3 or is_boss(best, tm, live) or not win:
            return _low(legal & led_mask) if following else _discard(hand, legal, tm, live)
        safe = [c for c in mask_to_cards(win) if is_boss(c, tm, live)]
        if safe and safe[0] < 52:
            return safe[0]
        return _low(legal & led_mask) if following else _discard(hand, legal, tm, live)
    if not win:
        return _low(legal & led_mask) if following else _discard(hand, legal, tm, live)
    # Prefer winning with the suit led over trumping; within a suit, the cheapest card.
    plain = win & ~tm
    if pos == 3:
        return _low(plain) if plain else _low(win)
    safe = [c for c in mask_to_cards(win) if is_boss(c, tm, live)]
    plain_safe = [c for c in safe if not tm >> c & 1]
    if plain_safe:
        return plain_safe[0]
    if not following:
        # Void: trump in with the cheapest trump that wins, Bloopers last.
        non_joker = win & ~JOKERS_MASK
        if non_joker:
            return _low(non_joker)
        return _low(win) if pos == 2 or our_board else _discard(hand, legal, tm, live)
    if safe:
        return safe[0]
    if pos == 2 and plain:
        return _high(plain)  # third hand high: make the last hand pay
    return _low(legal & led_mask)


def heuristic_action(info: Observation) -> int:
    """The heuristic's action for the seat of ``info`` (deterministic); ``ValueError`` when
    it is not that seat's turn."""
    if not info.legal:
        raise ValueError(f"it is not seat {info.seat}'s turn: there is no action to choose")
    tm = info.trump_mask
    if info.phase == BIDDING:
        return choose_bid(
            info.hand, tm, info.hand_size, info.unseen, info.seat, info.dealer, info.bids
        )
    our_board = info.contracts()[team_of(info.seat)][1] > 0
    return choose_card(
        info.seat,
        info.hand,
        card_mask(info.legal),
        info.trick,
        info.trick_leader,
        tm,
        info.unseen,
        our_board,
    )
