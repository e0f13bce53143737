"""Claims and concessions (docs/rules.md §10) in the engine: proven, accepted, refused and
lapsed claims, the claimant's hand made public, records of version 2 and their validation."""

import json
import random
from pathlib import Path

import pytest

from backalley_engine import solver
from backalley_engine.actions import LAPSE, accept_action, claim_action, refuse_action
from backalley_engine.cards import card_str
from backalley_engine.claims import claim_check
from backalley_engine.errors import ClaimNotAllowed, ClaimPending, NoClaimPending, NotYourTurn
from backalley_engine.records import validate_record
from backalley_engine.state import GameState, state_from_record

GOLDEN = Path(__file__).parent / "golden" / "selfplay-golden-0.json"


def between_tricks(seed: str, *, unproven: bool, rng_seed: int = 1) -> tuple[GameState, int, int]:
    """A game between tricks of a deal in play, a seat and a claim for it: one that holds
    against every continuation, or (``unproven``) one that some continuation defeats."""
    rng = random.Random(rng_seed)
    g = GameState.new(seed)
    while g.seat_to_act is not None:
        if g.phase == "playing" and not g.trick and 2 <= g.n - len(g.tricks) <= 4:
            seat = g.seat_to_act
            bounds = solver.trick_bounds(g, team=seat & 1, budget=10**6)
            if bounds is not None and (bounds[1] > bounds[0]) == unproven:
                return g, seat, bounds[1] if unproven else bounds[0]
        g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no such position")


def finish(g: GameState, rng_seed: int = 2) -> None:
    rng = random.Random(rng_seed)
    while g.seat_to_act is not None:
        g.apply(rng.choice(g.legal_actions()))


def test_a_proven_claim_ends_the_deal_at_once_and_credits_its_tricks() -> None:
    g, seat, k = between_tricks("11" * 32, unproven=False)
    deal_no, played, left = g.deal_number, g.team_tricks(), g.n - len(g.tricks)
    events: list[dict] = []
    g.apply(claim_action(seat, k), seat=seat, events=events)
    info = g.deals[-1]
    assert (info.number, info.status) == (deal_no, "played")
    team = seat & 1
    got = info.state.team_tricks()
    assert got[team] == played[team] + k and got[team ^ 1] == played[team ^ 1] + left - k
    assert [e["type"] for e in events[:2]] == ["claim", "claim_end"]
    assert events[1]["how"] == "proven" and events[0]["hand"]
    assert info.state.scores() == info.score


def test_a_concession_always_holds() -> None:
    g, seat, _ = between_tricks("12" * 32, unproven=True)
    number = g.deal_number
    g.apply(claim_action(seat, 0), seat=seat)
    assert g.deals[-1].number == number and g.deals[-1].state.claim_end is not None
    assert g.deals[-1].state.claim_end[3] == "proven"


def test_an_unproven_claim_waits_for_both_opponents_and_shows_the_hand() -> None:
    g, seat, k = between_tricks("13" * 32, unproven=True)
    leader = g.seat_to_act
    hand = [card_str(c) for c in g.hand(seat)]
    g.apply(claim_action(seat, k), seat=seat)
    first, second = (seat + 1) & 3, (seat + 3) & 3
    assert g.seat_to_act == first
    assert g.legal_actions() == [accept_action(first), refuse_action(first)]
    for viewer in (0, 1, 2, 3, None):
        view = g.view(viewer)
        assert view["claim"]["status"] == "pending" and view["claim"]["waiting_for"] == [
            first,
            second,
        ]
        if viewer != seat:
            assert len(view["shown_hands"][str(seat)]) == len(hand)
    for other in range(4):
        if other != seat:
            assert g.observation(other).shown[seat] == g.hands[seat]
            hands = g.record(other)["deals"][-1]["hands"]
            assert hands[seat] is not None and set(hand) <= set(hands[seat])
            assert [h is None for h in hands] == [s not in (seat, other) for s in range(4)]
    with pytest.raises(ClaimPending):
        g.apply(min(g.hands[leader].bit_length() - 1, 53), seat=leader)
    with pytest.raises(NoClaimPending):
        g.apply(accept_action((seat + 2) & 3))  # the partner is not asked
    g.apply(accept_action(second))  # either opponent may answer first
    assert g.seat_to_act == first
    number = g.deal_number
    g.apply(accept_action(first))
    assert g.deals[-1].number == number and g.deals[-1].state.claim_end[3] == "accepted"


def test_a_refused_claim_changes_nothing_but_the_shown_hand() -> None:
    g, seat, k = between_tricks("14" * 32, unproven=True)
    before = (g.seat_to_act, g.hands[:], g.team_tricks(), g.legal_actions())
    g.apply(claim_action(seat, k), seat=seat)
    g.apply(refuse_action((seat + 1) & 3))
    assert (g.seat_to_act, g.hands, g.team_tricks(), g.legal_actions()) == before
    assert g.view(seat ^ 1)["shown_hands"][str(seat)]
    with pytest.raises(ClaimNotAllowed):  # one claim per side until a trick is played
        claim_check(g, seat ^ 2, k)


def test_a_lapsed_claim_lets_play_go_on() -> None:
    g, seat, k = between_tricks("15" * 32, unproven=True)
    leader = g.seat_to_act
    g.apply(claim_action(seat, k), seat=seat)
    g.apply(LAPSE)
    assert g.seat_to_act == leader and g.claim == -1
    with pytest.raises(NoClaimPending):
        g.apply(LAPSE)


def test_claims_are_refused_outside_the_gaps_between_tricks() -> None:
    g = GameState.new("16" * 32)
    with pytest.raises(ClaimNotAllowed):
        g.apply(claim_action(0, 1), seat=0)  # bidding
    rng = random.Random(3)
    while not (g.phase == "playing" and len(g.trick) == 1):
        g.apply(rng.choice(g.legal_actions()))
    with pytest.raises(ClaimNotAllowed):
        g.apply(claim_action(0, 1), seat=0)  # a trick in progress
    with pytest.raises(NotYourTurn):
        g.apply(claim_action(0, 1), seat=1)  # another seat's claim


def test_records_with_claims_are_version_2_validate_and_rebuild() -> None:
    g, seat, k = between_tricks("17" * 32, unproven=False)
    g.apply(claim_action(seat, k), seat=seat)
    h, s2, k2 = g, None, None
    # A second deal ended by an accepted claim.
    rng = random.Random(9)
    while h.seat_to_act is not None:
        if h.phase == "playing" and not h.trick and 2 <= h.n - len(h.tricks) <= 4:
            s2 = h.seat_to_act
            b = solver.trick_bounds(h, team=s2 & 1, budget=10**6)
            if b is not None and b[1] > b[0]:
                k2 = b[1]
                break
        h.apply(rng.choice(h.legal_actions()))
    assert s2 is not None and k2 is not None
    h.apply(claim_action(s2, k2), seat=s2)
    h.apply(accept_action((s2 + 1) & 3))
    h.apply(accept_action((s2 + 3) & 3))
    finish(h)
    record = h.record("all")
    assert record["version"] == 2
    claims = [d["claim"] for d in record["deals"] if "claim" in d]
    assert {c["how"] for c in claims} == {"proven", "accepted"}
    assert validate_record(record) == []
    assert state_from_record(record).record("all") == record
    json.dumps(record)


def test_the_validator_checks_a_claim_entry() -> None:
    g, seat, k = between_tricks("18" * 32, unproven=True)
    g.apply(claim_action(seat, k), seat=seat)
    g.apply(accept_action((seat + 1) & 3))
    g.apply(accept_action((seat + 3) & 3))
    finish(g)
    record = g.record("all")
    assert validate_record(record) == []
    i = next(i for i, d in enumerate(record["deals"]) if "claim" in d)
    bad = json.loads(json.dumps(record))
    bad["deals"][i]["claim"]["how"] = "proven"  # not proven: some continuation defeats it
    assert "not proven" in validate_record(bad)[0].message
    bad = json.loads(json.dumps(record))
    bad["deals"][i]["claim"]["remaining"] += 1
    assert validate_record(bad)
    bad = json.loads(json.dumps(record))
    bad["version"] = 1
    assert "version 2" in validate_record(bad)[0].message


def test_version_1_records_still_validate() -> None:
    golden = json.loads(GOLDEN.read_text())
    golden["version"] = 1
    assert validate_record(golden) == []


def test_a_pending_claim_survives_a_checkpoint() -> None:
    g, seat, k = between_tricks("19" * 32, unproven=True)
    g.apply(claim_action(seat, k), seat=seat)
    again = GameState.resume(g.seed, g.checkpoint())
    assert again.view(0) == g.view(0) and again.seat_to_act == g.seat_to_act
    assert again.legal_actions() == g.legal_actions()
