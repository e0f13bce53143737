"""The strong strategy: determinized search (perfect-information Monte Carlo).

For each sampled deal of the unseen cards (``sampling``) every candidate action is applied
and the rest of the deal — the remaining bids included — is played out by the heuristic for
all four seats; a candidate's value is the mean over the samples of the deal's score
difference, our team minus theirs. All candidates see the same samples, so the comparison
is not swamped by card luck. Equivalent cards (touching in rank once the cards gone are
removed) are tried once.

The search stops after ``samples`` samples, or earlier when it has used ``time_budget``
seconds of CPU time (at least one sample is always used). CPU time of the deciding thread,
not the wall clock: on a busy machine the search then plays as well as on an idle one, and
takes proportionally longer. When the sample count, not the clock, ends
the search, the choice depends only on the seed.
"""

from __future__ import annotations

import random
import time

from backalley_engine.actions import BOARD, PASS
from backalley_engine.cards import FULL_DECK_MASK, LB
from backalley_engine.constants import partner_of, team_of
from backalley_engine.deal import BIDDING, DONE, PLAYING, DealState, out_of_play, suit_mask_of
from backalley_engine.heuristic import choose_bid, choose_card
from bots.strategies.base import _require_turn, heuristic_action
from bots.strategies.knowledge import SeatKnowledge
from bots.strategies.sampling import Sampler


def rollout(world: DealState) -> None:
    """Play ``world`` to the end of the deal with the heuristic for every seat (in place).

    Each seat decides from its own hand and the cards played (``live`` = the rest), as the
    heuristic does at a real table.
    """
    tm = world.trump_mask
    n = world.n
    base = FULL_DECK_MASK & ~out_of_play(world.upcard)
    for _, cards, _ in world.tricks:
        for c in cards:
            base &= ~(1 << c)
    for c in world.trick:
        base &= ~(1 << c)
    hands = world.hands
    while world.phase == BIDDING:
        seat = world.to_act
        world.bid(
            choose_bid(hands[seat], tm, n, base & ~hands[seat], seat, world.dealer, world.bids)
        )
    if world.phase != PLAYING:
        return
    levels = world.board_level
    while world.phase != DONE:
        seat = world.to_act
        hand = hands[seat]
        card = choose_card(
            seat,
            hand,
            world.legal_mask(),
            world.trick,
            world.leader,
            tm,
            base & ~hand,
            bool(levels[seat] or levels[partner_of(seat)]),
        )
        world.play(card)
        base &= ~(1 << card)


def _distinct_cards(info: SeatKnowledge) -> list[int]:
    """The legal cards with touching equivalents dropped (keeping the lowest of each run).

    Two cards of one effective suit are equivalent when every card between them is gone
    for good (played in an earlier trick, or out of play) or in this seat's own hand.
    Bloopers are never merged: leading BB and LB oblige the others differently.
    """
    tm = info.trump_mask
    open_cards = info.unseen
    for c in info.trick:
        open_cards |= 1 << c
    legal = sorted(info.legal)
    kept: list[int] = []
    prev_by_suit: dict[int, int] = {}
    for c in legal:
        suit_mask = suit_mask_of(c, tm)
        key = -1 if tm >> c & 1 else c // 13
        prev = prev_by_suit.get(key)
        prev_by_suit[key] = c
        if prev is not None and c < LB and prev < LB:
            between = suit_mask & ((1 << c) - (2 << prev))
            if not between & open_cards:
                continue
        kept.append(c)
    return kept


def _bid_candidates(info: SeatKnowledge) -> list[int]:
    """Pass, board, and the numbers around the heuristic's bid."""
    h = heuristic_action(info)
    base = h - PASS if PASS < h < BOARD else 0
    wanted = {PASS, BOARD, h}
    for k in range(max(1, base - 1), base + 3):
        wanted.add(PASS + k)
    return [a for a in info.legal if a in wanted]


class StrongStrategy:
    """Determinized search over ``samples`` sampled deals within ``time_budget`` seconds."""

    name = "strong"

    def __init__(self, samples: int = 48, time_budget: float = 0.3, bid_tries: int = 6) -> None:
        self.samples = samples
        self.time_budget = time_budget
        self.bid_tries = bid_tries  # 1 = sample without weighing the guesses by the bids

    def evaluate(self, info: SeatKnowledge, rng: random.Random) -> tuple[dict[int, float], int]:
        """Mean score difference (our team minus theirs) per candidate, and samples used."""
        _require_turn(info)
        candidates = _bid_candidates(info) if info.phase == BIDDING else _distinct_cards(info)
        team = team_of(info.seat)
        totals = dict.fromkeys(candidates, 0.0)
        deadline = time.thread_time() + self.time_budget
        used = 0
        sampler = Sampler(info)
        while used < self.samples:
            world = sampler.world(rng, self.bid_tries)
            for a in candidates:
                w = world.clone()
                if a >= PASS:
                    w.bid(a)
                else:
                    w.play(a)
                rollout(w)
                s = w.scores()
                totals[a] += s[team] - s[team ^ 1]
            used += 1
            if time.thread_time() >= deadline:
                break
        return {a: t / used for a, t in totals.items()}, used

    def choose(self, info: SeatKnowledge, rng: random.Random) -> int:
        _require_turn(info)
        if len(info.legal) == 1:
            return info.legal[0]
        values, _ = self.evaluate(info, rng)
        if len(values) == 1:
            return next(iter(values))
        preferred = heuristic_action(info)
        # Ties go to the heuristic's choice, then to the lowest action.
        return max(values, key=lambda a: (round(values[a], 9), a == preferred, -a))
