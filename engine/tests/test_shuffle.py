"""The seeded shuffle reproduces the shared test vectors (docs/rules.md §9)."""

import json
from pathlib import Path
from typing import Any

import pytest

from backalley_engine.cards import card_str, cards_str
from backalley_engine.errors import BadSeed
from backalley_engine.shuffle import (
    commitment,
    deal_cards,
    deal_deck,
    first_dealer,
    hand_size_of,
)

VECTORS_PATH = Path(__file__).parent / "shuffle_vectors.json"
VECTORS: list[dict[str, Any]] = json.loads(VECTORS_PATH.read_text())["vectors"]
DEALS = [(v["seed"], d) for v in VECTORS for d in v["deals"]]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["seed"][:8])
def test_commitment_is_sha256_of_seed_bytes(vector: dict[str, Any]) -> None:
    assert commitment(vector["seed"]) == vector["commitment"]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["seed"][:8])
def test_first_dealer_matches_vector(vector: dict[str, Any]) -> None:
    assert first_dealer(vector["seed"]) == vector["first_dealer"]


@pytest.mark.parametrize(("seed", "deal"), DEALS, ids=lambda x: str(x)[:12])
def test_deck_matches_vector(seed: str, deal: dict[str, Any]) -> None:
    assert cards_str(deal_deck(seed, deal["deal"], deal["attempt"])) == deal["deck"]


@pytest.mark.parametrize(("seed", "deal"), DEALS, ids=lambda x: str(x)[:12])
def test_hands_upcard_and_joker_swap_match_vector(seed: str, deal: dict[str, Any]) -> None:
    dealt = deal_cards(seed, deal["deal"], deal["attempt"], deal["dealer"])
    assert hand_size_of(deal["deal"]) == deal["hand_size"]
    assert [cards_str(h) for h in dealt.order] == deal["hands"]
    assert card_str(dealt.upcard) == deal["upcard"]
    swap = dealt.swap
    got = (
        None
        if swap is None
        else {
            "seat": swap.seat,
            "discarded": card_str(swap.discarded),
            "drawn": card_str(swap.drawn),
        }
    )
    assert got == deal["joker_swap"]


def test_vectors_include_a_joker_swap() -> None:
    assert any(d["joker_swap"] for _, d in DEALS)


def test_joker_upcard_means_no_trump_and_no_jokers_in_hands() -> None:
    seed, deal = next((s, d) for s, d in DEALS if d["joker_swap"])
    dealt = deal_cards(seed, deal["deal"], deal["attempt"], deal["dealer"])
    assert dealt.trump is None
    assert all(h >> 52 == 0 for h in dealt.hands)


@pytest.mark.parametrize("bad", ["", "00" * 31, "AB" * 32, "zz" * 32, "0" * 65])
def test_bad_seed_is_rejected(bad: str) -> None:
    with pytest.raises(BadSeed):
        commitment(bad)


def test_hand_sizes_run_13_down_to_1_and_back() -> None:
    assert [hand_size_of(d) for d in range(1, 26)] == list(range(13, 0, -1)) + list(range(2, 14))


def test_rejection_sampling_path_gives_the_same_decks() -> None:
    # The fast path skips rejection checks when no draw can be rejected; take the careful one.
    from backalley_engine import shuffle

    for seed, deal in DEALS:
        key = shuffle.HmacKey(bytes.fromhex(seed))
        deck = shuffle._deck(key, deal["deal"], deal["attempt"], fast=False)
        assert cards_str(deck) == deal["deck"]


def test_uniform_rejects_draws_at_or_above_the_limit() -> None:
    from backalley_engine import shuffle

    values = iter([2**32 - 1, 2**32 - 2, 7])  # 2**32 mod 3 == 1: limit 2**32 - 1
    assert shuffle.uniform(values.__next__, 3) == (2**32 - 2) % 3
