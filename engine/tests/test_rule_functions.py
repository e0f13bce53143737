"""The engine's rule functions agree with its state machine, and bots see its facts."""

from __future__ import annotations

import random

from backalley_engine.cards import mask_to_cards
from backalley_engine.deal import trick_winner, winning_index
from backalley_engine.state import GameState

SEED = "7d" * 32


def _walk(seed: str, moves: int, rng: random.Random):  # type: ignore[no-untyped-def]
    g = GameState.new(seed)
    for _ in range(moves):
        if g.is_terminal():
            return
        yield g
        g.apply(rng.choice(g.legal_actions()))


def test_legal_actions_are_the_legality_kernels_cards() -> None:
    for g in _walk(SEED, 2500, random.Random(1)):
        if g.phase == "playing":
            assert g.legal_actions() == mask_to_cards(g.legal_mask())
            refused = [c for c in range(54) if not g.legal_mask() >> c & 1]
            for c in refused[:3]:
                try:
                    g.clone().apply(c)
                except Exception:  # noqa: BLE001 - any typed refusal will do
                    continue
                raise AssertionError(f"card {c} outside the legal mask was accepted")


def test_trick_winner_names_the_winner_the_deal_recorded() -> None:
    g = GameState.new(SEED)
    rng = random.Random(2)
    while not g.is_terminal():
        g.apply(rng.choice(g.legal_actions()))
    checked = 0
    for info in g.deals:
        d = info.state
        for leader, cards, winner in d.tricks:
            assert trick_winner(leader, cards, d.trump_mask) == winner
            assert cards[winning_index(cards, d.trump_mask)] == cards[(winner - leader) & 3]
            checked += 1
    assert checked > 100


def test_an_observation_carries_the_engines_facts() -> None:
    for g in _walk(SEED, 900, random.Random(3)):
        seat = g.seat_to_act
        assert seat is not None
        o = g.observation(seat)
        assert o.contracts() == g.contracts()
        assert list(o.board_levels()) == g.board_level
        assert o.trump_broken() == g.broken
        assert list(o.won()) == g.won
        assert list(o.legal) == g.legal_actions()
        assert o.hand == g.hands[seat]
        other = (seat + 1) % 4
        # What play revealed never contradicts the real hand.
        assert not g.hands[other] & o.excluded[other]
        assert g.observation(other).legal == ()
