"""Claims and concessions through the API (docs/rules.md §10): a proven claim ends the deal at
once; an unproven one waits for both opponents (accepted: credited and scored; refused or
lapsed on the clock: play goes on); the claimant's hand is shown to the table from then on,
and nothing else is."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from backalley_engine import solver
from backalley_engine.cards import card_str, mask_to_cards
from games import statecache
from games.models import Move, SubmittedBy
from tests.factories import PlayerFactory
from tests.games.conftest import Table, client_for, make_table
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


def claim_spot(table: Table, *, unproven: bool, limit: int = 600) -> tuple[int, int]:
    """Play on until a gap between tricks where some seat has a claim that the engine
    proves (or, ``unproven``, one that some continuation defeats); (seat, tricks)."""
    game = table.game
    for _ in range(limit):
        state = statecache.state_for(game)
        if state.phase == "playing" and not state.trick and 2 <= state.n - len(state.tricks) <= 4:
            for seat in range(4):
                b = solver.trick_bounds(state, team=seat & 1, budget=10**6)
                if b is None:
                    continue
                if unproven and b[1] > b[0]:
                    return seat, b[1]
                if not unproven and b[0] > 0:
                    return seat, b[0]
        game = play(game, 1)
    raise AssertionError("no such gap")


def claim(table: Table, by: int, tricks: int, **extra: Any) -> Any:
    return table.clients[by].post(table.url("claim/"), {"tricks": tricks, **extra}, format="json")


def test_a_proven_claim_ends_the_deal_at_once(table: Table) -> None:
    seat, k = claim_spot(table, unproven=False)
    before = statecache.state_for(table.game)
    deal, team_before, left = (
        before.deal_number,
        before.team_tricks(),
        before.n - len(before.tricks),
    )
    r = claim(table, seat, k, seat=seat)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["move"]["action"] == {"claim": k}
    state = statecache.state_for(table.game)
    info = state.deals[-1]
    assert info.number == deal and info.state.claim_end == (seat, k, left, "proven")
    got = info.state.team_tricks()
    assert got[seat & 1] == team_before[seat & 1] + k
    assert got[(seat & 1) ^ 1] == team_before[(seat & 1) ^ 1] + left - k
    record = table.clients[seat].get(table.url("record/")).json()
    entry = next(d for d in record["deals"] if d["number"] == deal and "claim" in d)
    assert entry["claim"] == {"seat": seat, "tricks": k, "remaining": left, "how": "proven"}
    assert record["version"] == 2


def test_a_claim_both_opponents_accept_credits_its_tricks(table: Table) -> None:
    seat, k = claim_spot(table, unproven=True)
    deal = statecache.state_for(table.game).deal_number
    r = claim(table, seat, k, seat=seat)
    assert r.status_code == 201, r.content
    view = r.json()["view"]
    first, second = (seat + 1) % 4, (seat + 3) % 4
    assert view["claim"]["status"] == "pending" and view["claim"]["waiting_for"] == [first, second]
    assert r.json()["to_act"] == first
    # The partner is not asked; play waits.
    r = table.clients[(seat + 2) % 4].post(table.url("claim/accept/"), {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "no_claim_pending")
    r = table.clients[second].post(table.url("claim/accept/"), {}, format="json")
    assert r.status_code == 201 and r.json()["view"]["claim"]["waiting_for"] == [first]
    r = table.clients[first].post(
        table.url("claim/accept/"), {}, format="json", HTTP_IDEMPOTENCY_KEY="a1"
    )
    assert r.status_code == 201
    again = table.clients[first].post(
        table.url("claim/accept/"), {}, format="json", HTTP_IDEMPOTENCY_KEY="a1"
    )
    assert again.status_code == 201 and again.json() == r.json()  # a retry answers the same
    state = statecache.state_for(table.game)
    ended = next(i for i in state.deals if i.number == deal and i.state.claim_end)
    assert ended.state.claim_end[3] == "accepted"
    kinds = [
        m.action for m in Move.objects.filter(game__public_id=table.game_id).order_by("-seq")[:3]
    ]
    assert {"claim_answer": "accept"} in kinds


def test_a_refused_claim_changes_nothing_and_play_goes_on(table: Table) -> None:
    seat, k = claim_spot(table, unproven=True)
    game = table.game
    before = statecache.state_for(game)
    leader, hands = before.seat_to_act, before.hands[:]
    assert claim(table, seat, k, seat=seat).status_code == 201
    r = table.clients[(seat + 1) % 4].post(table.url("claim/refuse/"), {}, format="json")
    assert r.status_code == 201
    state = statecache.state_for(table.game)
    assert state.seat_to_act == leader and state.hands == hands and state.claim == -1
    assert state.legal_actions() == before.legal_actions()
    r = claim(table, (seat + 2) % 4, k)  # the same side, before a trick is played
    assert (r.status_code, r.json()["code"]) == (409, "claim_refused")
    r = table.clients[(seat + 3) % 4].post(table.url("claim/refuse/"), {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "no_claim_pending")


def test_claims_outside_a_gap_between_tricks_are_refused(table: Table) -> None:
    r = claim(table, 0, 1)
    assert (r.status_code, r.json()["code"]) == (409, "claim_not_allowed")  # bidding
    stranger = client_for(PlayerFactory().user)
    r = stranger.post(table.url("claim/"), {"tricks": 1}, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    assert not Move.objects.filter(game__public_id=table.game_id).exists()


def test_the_claimants_hand_and_nothing_else_is_shown_from_the_claim_on(table: Table) -> None:
    seat, k = claim_spot(table, unproven=True)
    state = statecache.state_for(table.game)
    own = {card_str(c) for c in mask_to_cards(state.hands[seat])}
    others = {
        s: {card_str(c) for c in mask_to_cards(state.hands[s])} for s in range(4) if s != seat
    }
    spectator = client_for(PlayerFactory().user)

    def seen(client: Any) -> str:
        return json.dumps(
            [client.get(table.url(t)).json() for t in ("", "events/?since=-1", "record/")]
        )

    def named(text: str, cards: set[str]) -> set[str]:
        return {c for c in cards if f'"{c}"' in text}

    # The feed and the record also name the cards of earlier deals, which may sit in this
    # deal's hands: what counts is what the claim adds to what each reader saw before it.
    readers = [(s, table.clients[s]) for s in range(4) if s != seat] + [(None, spectator)]
    before = {s: seen(client) for s, client in readers}
    for s, _client in readers:
        view_before = json.loads(before[s])[0]["view"]
        assert str(seat) not in view_before.get("shown_hands", {}), s  # not yet shown
    assert claim(table, seat, k, seat=seat).status_code == 201
    for s, client in readers:
        text = seen(client)
        view = client.get(table.url()).json()["view"]
        assert set(view["shown_hands"][str(seat)]) == own
        for o, cards in others.items():
            if o != s:
                assert named(text, cards) <= named(before[s], cards), (s, o)
    events = table.clients[(seat + 1) % 4].get(table.url("events/?since=-1")).json()["events"]
    shown = [e for e in events if e["type"] == "claim"]
    assert shown and set(shown[-1]["hand"]) == own


@pytest.mark.django_db(transaction=True)
def test_a_claim_unanswered_in_the_turns_time_lapses_and_play_goes_on() -> None:
    from clock import services as clock_services
    from clock.models import GameClock
    from clock.sweeper import timeout_play

    table = make_table(("lap_n", "lap_e", "lap_s", "lap_w"), time_control={"days_per_move": 1})
    seat, k = claim_spot(table, unproven=True)
    leader = statecache.state_for(table.game).seat_to_act
    assert claim(table, seat, k, seat=seat).status_code == 201
    game = table.game
    clock_services.clock_sync(game_id=game.pk)
    clock = GameClock.objects.get(game=game)
    assert clock.turn_seat == (seat + 1) % 4  # the answer is timed
    GameClock.objects.filter(game=game).update(expires_at=timezone.now() - timedelta(minutes=1))
    played = timeout_play(game_id=game.pk)
    assert played.outcome == "lapsed"
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and last.action == {"claim_answer": "lapse"}
    assert last.submitted_by == SubmittedBy.SYSTEM
    state = statecache.state_for(table.game)
    assert state.claim == -1 and state.seat_to_act == leader


def test_a_house_bot_answers_a_claim_by_the_engines_proof() -> None:
    from bots import turns
    from games.claims import bot_accepts

    table = make_table(("hb_n", "hb_e", "hb_s", "hb_w"))
    seat, k = claim_spot(table, unproven=True)
    assert claim(table, seat, k, seat=seat).status_code == 201
    state = statecache.state_for(table.game)
    assert bot_accepts(state) is False  # some defence beats it: a bot refuses
    assert bot_accepts(state) is False  # and always the same
    assert turns is not None
