"""Determinization: deal the cards a seat cannot see, consistently with what it knows.

A sample gives every other seat as many unseen cards as it still holds (the rest stay in
the stock), never a card that seat is known not to hold (``SeatKnowledge.excluded``), and is
then replayed through the engine from the start of the deal — bids, tricks, the trick in
progress — so a sample that broke a rule of play could not be returned. Only the
``SeatKnowledge`` is read: the real hands are never at hand here.
"""

from __future__ import annotations

import random

from backalley_engine.actions import BOARD, PASS
from backalley_engine.cards import FULL_DECK_MASK, mask_to_cards
from backalley_engine.deal import DealState, bidder, out_of_play
from backalley_engine.errors import EngineError
from backalley_engine.heuristic import choose_bid
from bots.strategies.knowledge import SeatKnowledge

STOCK = 3  # bin index of the undealt stock (bins 0..2 are the other seats in seat order)


class SamplingError(RuntimeError):
    """No deal of the unseen cards fits what the seat knows (a bug if ever raised)."""


class Sampler:
    """Deals the unseen cards of one decision point, again and again.

    The set-up (which cards are free to go anywhere, which are barred from some seat) is
    done once; each guess then places the constrained cards first, each in an allowed bin
    weighted by its room left, and deals the free cards as one shuffled run cut to the room
    that remains — with no constraints, a uniformly random deal.
    """

    def __init__(self, info: SeatKnowledge) -> None:
        self.info = info
        self.others = [s for s in range(4) if s != info.seat]
        cards = mask_to_cards(info.unseen)
        caps = [info.cards_to_hold(s) for s in self.others]
        stock = len(cards) - sum(caps)
        if stock < 0 or any(c < 0 for c in caps):
            raise SamplingError("the unseen cards cannot fill the other hands")
        self.caps = [*caps, stock]
        self.free: list[int] = []
        self.constrained: list[tuple[int, list[int]]] = []
        barred = [info.excluded[s] for s in self.others]
        for c in cards:
            allowed = [i for i in range(3) if not barred[i] >> c & 1]
            if len(allowed) == 3:
                self.free.append(c)
            else:
                self.constrained.append((c, [*allowed, STOCK]))

    def _guess(self, rng: random.Random) -> list[int] | None:
        room = self.caps[:]
        bins = [0, 0, 0, 0]
        options = self.constrained[:]
        rng.shuffle(options)
        options.sort(key=lambda o: len(o[1]))  # most constrained first; the shuffle breaks ties
        for card, allowed in options:
            total = 0
            for b in allowed:
                total += room[b]
            if not total:
                return None
            r = rng.randrange(total)
            for b in allowed:
                r -= room[b]
                if r < 0:
                    room[b] -= 1
                    bins[b] |= 1 << card
                    break
        free = self.free[:]
        rng.shuffle(free)
        at = 0
        for b in range(4):
            for c in free[at : at + room[b]]:
                bins[b] |= 1 << c
            at += room[b]
        return bins

    def hands(self, rng: random.Random, tries: int = 20) -> list[int]:
        """Current hands of all four seats: the seat's own, and a consistent guess for the
        rest."""
        bins = None
        for _ in range(tries):
            bins = self._guess(rng)
            if bins is not None:
                break
        if bins is None:
            options = [(c, [0, 1, 2, STOCK]) for c in self.free] + self.constrained
            bins = _matching(options, self.caps)
            if bins is None:
                raise SamplingError("no deal of the unseen cards fits what the seat knows")
        hands = [0, 0, 0, 0]
        hands[self.info.seat] = self.info.hand
        for i, s in enumerate(self.others):
            hands[s] = bins[i]
        return hands

    def world(self, rng: random.Random, bid_tries: int = 6) -> DealState:
        """A determinized deal at the seat's decision point.

        Guesses are weighed by :func:`bid_fit` (rejection sampling over up to ``bid_tries``
        guesses; if none is accepted, the best-fitting one is used).
        """
        info = self.info
        best: list[int] | None = None
        best_fit = -1.0
        for _ in range(max(1, bid_tries)):
            hands = self.hands(rng)
            fit = bid_fit(info, hands) if bid_tries > 1 else 1.0
            if fit > best_fit:
                best, best_fit = hands, fit
            if rng.random() < fit:
                best = hands
                break
        assert best is not None
        for _ in range(5):
            try:
                return world_from_hands(info, best)
            except EngineError:
                best = self.hands(rng)  # only if the inference missed a rule: try afresh
        raise SamplingError("sampled deals keep contradicting the play so far")


def _matching(options: list[tuple[int, list[int]]], caps: list[int]) -> list[int] | None:
    """Any assignment meeting the constraints (augmenting paths over bin slots)."""
    slots = [b for b, cap in enumerate(caps) for _ in range(cap)]
    owner: list[int | None] = [None] * len(slots)  # slot -> option index

    def place(i: int, seen: set[int]) -> bool:
        allowed = options[i][1]
        for j, b in enumerate(slots):
            if b in allowed and j not in seen:
                seen.add(j)
                held = owner[j]
                if held is None or place(held, seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(options)):
        if not place(i, set()):
            return None
    hands = [0, 0, 0, 0]
    for j, held in enumerate(owner):
        if held is not None:
            hands[slots[j]] |= 1 << options[held][0]
    return hands


def sample_hands(info: SeatKnowledge, rng: random.Random) -> list[int]:
    """One guess of all four current hands (see :class:`Sampler`)."""
    return Sampler(info).hands(rng)


def world_from_hands(info: SeatKnowledge, hands: list[int]) -> DealState:
    """The deal replayed to now from the given current hands (plus the cards already played):
    the engine checks every bid and card again, so an inconsistent guess raises."""
    start = tuple(hands[s] | info.played[s] for s in range(4))
    world = DealState.dealt(start, info.upcard, info.dealer, info.hand_size)
    for b in info.bids:
        world.bid(b)
    for _, cards, _ in info.tricks:
        for c in cards:
            world.play(c)
    for c in info.trick:
        world.play(c)
    return world


def _bid_level(bid: int, hand_size: int) -> int:
    return hand_size if bid == BOARD else bid - PASS


def bid_fit(info: SeatKnowledge, hands: list[int]) -> float:
    """How well a guess explains the others' bids: 1.0 when each bid is the one the heuristic
    would have made from the guessed hand, ``0.35`` per trick of difference otherwise.

    A soft model of the bidders (people and other bots bid differently): it makes likely
    deals likelier, it never rules one out.
    """
    out = out_of_play(info.upcard)
    tm = info.trump_mask
    n = info.hand_size
    fit = 1.0
    for i, bid in enumerate(info.bids):
        seat = bidder(info.dealer, i)
        if seat == info.seat:
            continue
        start = hands[seat] | info.played[seat]
        live = FULL_DECK_MASK & ~out & ~start
        guess = choose_bid(start, tm, n, live, seat, info.dealer, info.bids[:i])
        fit *= 0.35 ** abs(_bid_level(guess, n) - _bid_level(bid, n))
    return fit
