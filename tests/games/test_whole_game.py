"""A whole 25-deal game played through the API by four users.

One game is played (it is the slow part) and then checked from every side: the record
validates with the engine's validator, the stored result and deals agree with a replay, and
no response or event any seat received held a card of another seat's unplayed hand or the
seed before the end. Each player has a phone subscribed to pushes, and each move's
after-commit work runs as it would in production (the outbox, the push tasks): every push
the phones' push service received, decrypted with the phone's own keys, names no card at
all, no hand and no seed.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command

from backalley_engine.actions import parse_action
from backalley_engine.cards import card_str
from backalley_engine.records import validate_record
from games import statecache
from games.models import GameStatus, Move, SeededDeal
from tests.factories import PlayerFactory
from tests.games.conftest import Table, choose, clear_presence, client_for, make_table
from tests.push.helpers import PUSH_SETTINGS, Browser, FakePushService, subscribe

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|LB|BB)$")


def _strings(obj: Any) -> Iterator[str]:
    """Every string value in a JSON body (not keys)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def _cards(obj: Any) -> set[str]:
    return {s for s in _strings(obj) if CARD.match(s)}


class Played:
    """The harness's own account of the game: what each seat was sent, and when."""

    def __init__(
        self,
        table: Table,
        around_move: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext,
    ) -> None:
        self.t = table
        self.around_move = around_move  # what each move's request runs inside
        self.seen: list[tuple[int, int, str, Any]] = []  # (seat, seq when sent, kind, body)
        self.deal_at: dict[int, tuple[int, int]] = {0: (1, 0)}
        self.played_at: dict[int, frozenset[str]] = {0: frozenset()}
        self.event_since = [-1, -1, -1, -1]
        self.events: list[list[dict[str, Any]]] = [[], [], [], []]

    def keep(self, seat: int, kind: str, body: Any, seq: int) -> None:
        self.seen.append((seat, seq, kind, body))

    def poll_events(self, seat: int) -> None:
        r = self.t.clients[seat].get(self.t.url(f"events/?since={self.event_since[seat]}"))
        assert r.status_code == 200
        body = r.json()
        self.events[seat].extend(body["events"])
        self.event_since[seat] = body["seq"]

    def play(self) -> None:
        t = self.t
        seq = 0
        seat = t.game.to_act  # then each answer says whose turn it is
        while seat is not None:
            legal = t.legal(seat)
            self.keep(seat, "legal", t.responses[-1][1], seq)
            action = choose(legal)
            if seq % 97 == 5:
                # Two kinds of refusals carry state: check they leak nothing either.
                other = (seat + 1) % 4
                r = t.move(other, action, seq)
                assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
                self.keep(other, "error", r.json(), seq)
                r = t.move(seat, action, max(seq - 1, 0) if seq else 3)
                assert r.status_code == 409 and r.json()["code"] == "stale_state"
                self.keep(seat, "error", r.json(), seq)
            with self.around_move():
                r = t.move(seat, action, seq, key=f"{seat}-{seq}")
            assert r.status_code == 201, r.content
            body = r.json()
            seq += 1
            assert body["seq"] == seq and body["move"]["seat"] == seat
            self.keep(seat, "move", body, seq)
            deal = (body["view"]["deal_number"], body["view"]["attempt"])
            prev = self.played_at[seq - 1]
            if deal != self.deal_at[seq - 1]:
                self.played_at[seq] = frozenset()
            elif "card" in action:
                self.played_at[seq] = prev | {card_str(parse_action(action["card"]))}
            else:
                self.played_at[seq] = prev
            self.deal_at[seq] = deal
            if seq % 50 == 0:
                for s in range(4):
                    self.poll_events(s)
                    view = t.clients[s].get(t.url()).json()
                    self.keep(s, "view", view, seq)
                    record = t.clients[s].get(t.url("record/")).json()
                    self.keep(s, "record", record, seq)
            seat = body["to_act"]


@pytest.fixture
def pushes(settings: Any) -> Iterator[FakePushService]:
    """Push on (the tests' keys), its tasks run in the test, a push service on loopback."""
    from backalley_site.celery import app

    for name, value in PUSH_SETTINGS.items():
        setattr(settings, name, value)
    clear_presence()  # no table page shown: every turn of a person is pushed
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    service = FakePushService()
    yield service
    service.stop()
    app.conf.task_always_eager = before
    clear_presence()


def test_whole_game_by_four_users_validates_and_leaks_nothing(
    pushes: FakePushService, django_capture_on_commit_callbacks: Any
) -> None:
    """One game (the slow part), checked from both sides below."""
    table = make_table(("west1", "north1", "east1", "south1"))
    phones = [pushes.browser(f"seat-{s}") for s in range(4)]
    for player, phone in zip(table.players, phones, strict=True):
        subscribe(player, phone)
    # Each move's after-commit work (its outbox delivery, the push tasks) runs right after it.
    played = Played(table, around_move=lambda: django_capture_on_commit_callbacks(execute=True))
    played.play()
    for s in range(4):
        played.poll_events(s)
    check_whole_game(played)
    check_no_seat_ever_received_another_hand_or_the_seed(played)
    check_no_push_named_a_card_a_hand_or_the_seed(played, pushes, phones)


def _hands_by_deal(record: dict[str, Any]) -> dict[tuple[int, int], list[set[str]]]:
    return {(d["number"], d["attempt"]): [set(h) for h in d["hands"]] for d in record["deals"]}


def check_whole_game(played: Played) -> None:
    t = played.t
    game = t.game
    assert game.status == GameStatus.FINISHED and game.finished_at is not None
    assert game.to_act is None
    # The record, whole and with the seed, validates with the engine's validator.
    record = t.clients[0].get(t.url("record/")).json()
    assert record["seed"] == game.seed and record["result"] is not None
    assert validate_record(record) == []
    scored = [d for d in record["deals"] if d["status"] in ("played", "passed_out")]
    assert len(scored) == 25
    assert record["result"] == {"totals": [game.total_0, game.total_1], "winner": game.winner}
    # The log has no gap; the stored deals are every deal reached, as the record has them.
    seqs = list(Move.objects.filter(game=game).values_list("seq", flat=True))
    assert seqs == list(range(1, game.move_count + 1))
    stored = {(d.number, d.attempt): d for d in SeededDeal.objects.filter(game=game)}
    assert set(stored) == {(d["number"], d["attempt"]) for d in record["deals"]}
    for d in record["deals"]:
        row = stored[(d["number"], d["attempt"])]
        assert [set(h) for h in row.hands] == [set(h) for h in d["hands"]]
        assert row.upcard == d["upcard"] and row.dealer == d["dealer"]
    # The state served from the snapshot (no process cache) is the full replay's state.
    replayed = statecache.replay(game)
    statecache.forget()
    served = statecache.state_for(game)
    assert game.snapshot_seq == game.move_count
    assert served.history == replayed.history
    assert served.record("all") == replayed.record("all")
    # A finished game's record is whole for anyone, spectators included.
    spectator = client_for(PlayerFactory().user)
    assert spectator.get(t.url("record/")).json() == record
    # verify_games agrees.
    call_command("verify_games")
    # Everyone now sees the seed; moves are refused as game over.
    view = t.clients[2].get(t.url()).json()
    assert view["seed"] == game.seed and view["result"]["winner"] == game.winner
    r = t.move(0, {"bid": "pass"}, game.move_count)
    assert (r.status_code, r.json()["code"]) == (409, "game_over")
    assert Move.objects.filter(game=game).count() == game.move_count


def check_no_seat_ever_received_another_hand_or_the_seed(played: Played) -> None:
    t = played.t
    game = t.game
    final = t.clients[0].get(t.url("record/")).json()
    hands = _hands_by_deal(final)
    checked = 0
    for seat, seq, kind, body in played.seen:
        if seq < game.move_count:  # the last move's answer is sent after the end
            assert game.seed not in json.dumps(body), (kind, seq)
        if kind == "record":
            _check_seat_record(body, seat)
            continue
        deal = played.deal_at[seq]
        others = set().union(*(hands[deal][o] for o in range(4) if o != seat))
        forbidden = others - played.played_at[seq]
        # A move's echo of the mover's own action may be the last card of the deal before.
        scanned = {k: v for k, v in body.items() if k != "move"}
        leaked = _cards(scanned) & forbidden
        assert not leaked, (seat, seq, kind, leaked)
        checked += 1
    assert checked > 1500
    for seat in range(4):
        _check_events(played.events[seat], seat, hands, game.seed)


def _check_seat_record(record: dict[str, Any], seat: int) -> None:
    assert record["seed"] is None and record["result"] is None
    for d in record["deals"]:
        for o, hand in enumerate(d["hands"]):
            assert (hand is None) == (o != seat)
        swap = d.get("joker_swap")
        if swap and swap["seat"] != seat:
            assert swap["drawn"] is None


def _check_events(
    events: list[dict[str, Any]], seat: int, hands: dict[tuple[int, int], list[set[str]]], seed: str
) -> None:
    """Walk a seat's event stream in order, tracking the deal and the cards played."""
    assert events and events[0]["type"] == "deal_start" and events[-1]["type"] == "game_end"
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs)
    deal: tuple[int, int] | None = None
    played: set[str] = set()
    for ev in events:
        assert ev["private_to"] in (None, seat), ev
        if ev["type"] == "deal_start":
            deal, played = (ev["number"], ev["attempt"]), set()
        elif ev["type"] == "play":
            played.add(ev["card"])
        assert deal is not None
        if ev["type"] == "game_end":
            assert ev["seed"] == seed
            continue
        assert seed not in json.dumps(ev)
        others = set().union(*(hands[deal][o] for o in range(4) if o != seat))
        leaked = _cards(ev) & (others - played)
        assert not leaked, (seat, ev, leaked)
    own_hands = [e for e in events if e["type"] == "hand"]
    assert own_hands and all(e["seat"] == seat for e in own_hands)


PUSH_FIELDS = {"title", "body", "url", "tag"}
WORD = re.compile(r"[0-9A-Za-z]+")


def check_no_push_named_a_card_a_hand_or_the_seed(
    played: Played, service: FakePushService, phones: list[Browser]
) -> None:
    """Every push of the game, as each phone decrypts it: only a title, a text, a page and
    a tag, and among their words no card (not even one already played: a push shows on a
    locked screen), none of the seed, nothing of a hand."""
    game = played.t.game
    final = played.t.clients[0].get(played.t.url("record/")).json()
    dealt = {c for d in final["deals"] for h in d["hands"] for c in h}
    received = 0
    for seat, phone in enumerate(phones):
        payloads = service.delivered(phone)
        assert len(payloads) == len(service.to(phone))  # every push read with the phone's keys
        turns = [p for p in payloads if p["title"].startswith("Your move")]
        # Told of (nearly) every turn of theirs: the moves each seat made, the first aside.
        made = sum(1 for s, _seq, kind, _b in played.seen if s == seat and kind == "move")
        assert made - 1 <= len(turns) <= made, (seat, made, len(turns))
        (over,) = [p for p in payloads if p["title"] == f"Game {game.public_id} is over"]
        assert str(game.total_0) in over["body"] and str(game.total_1) in over["body"]
        for payload in payloads:
            assert set(payload) == PUSH_FIELDS, payload
            text = json.dumps(payload, ensure_ascii=False)
            assert game.seed not in text and game.seed[:16] not in text
            named = {w for w in WORD.findall(text) if CARD.match(w)}
            assert not named, (seat, payload, named)
            assert not (set(WORD.findall(text)) & dealt), payload
            assert "hand" not in text.lower(), payload
            received += 1
    assert received > 700  # a whole game: hundreds of turns told
