"""Pushes leave for real: pywebpush's encrypted, signed request reaches a push service on
loopback, which the test's browser decrypts with its own keys. "Your move" reaches the seat
to act once its page is away; the game's end reaches every person; a device gone is
forgotten, a busy push service is tried again, and a push names no card and no seed."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from celery.exceptions import Retry

from backalley_engine.cards import NUM_CARDS, cards_str
from games.live import presence
from games.models import Game
from games.services import game_create
from push.models import PushSent, PushSubscription
from push.tasks import push_turn
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.helpers import choose_code, play
from tests.push.helpers import Browser, FakePushService, subscribe, vapid_claims

pytestmark = pytest.mark.django_db(transaction=True)

SHORT = {"rated": False, "schedule": {"first": 12, "last": 12}}  # one deal: a short game


def _table(
    service: FakePushService, options: dict[str, Any] | None = None
) -> tuple[Game, list[Any], list[Browser]]:
    """Four people, each with a phone subscribed, at a started game."""
    people = [PlayerFactory() for _ in range(4)]
    phones = [service.browser(f"phone-{i}") for i in range(4)]
    for person, phone in zip(people, phones, strict=True):
        subscribe(person, phone)
    game = game_create(creator=people[0], seats=people, options=options or {"rated": False})
    return Game.objects.get(pk=game.pk), people, phones


CARDS = set(cards_str(range(NUM_CARDS)))  # "AS", "TD", "LB", …


def _tells_no_secret(game: Game, payload: dict[str, Any]) -> None:
    """Only the four fields, and among their words no card's name and not the seed."""
    assert set(payload) == {"title", "body", "url", "tag"}
    text = json.dumps(payload, ensure_ascii=False)
    assert game.seed not in text
    named = set(re.findall(r"[0-9A-Za-z]+", text)) & CARDS
    assert not named, named


def test_your_move_reaches_only_the_seat_to_act_encrypted_and_signed(
    push_service: FakePushService,
) -> None:
    game, people, phones = _table(push_service)
    first = game.to_act
    assert first is not None
    # The start made it the first bidder's turn: their phone alone was told, once.
    assert [len(push_service.to(p)) for p in phones] == [int(s == first) for s in range(4)]
    (sent,) = push_service.to(phones[first])
    assert sent.headers["content-encoding"] == "aes128gcm"
    assert sent.headers["urgency"] == "high" and int(sent.headers["ttl"]) > 0
    claims = vapid_claims(sent)
    assert claims["aud"] == push_service.base and claims["sub"] == "mailto:ops@backalley.example"
    (payload,) = push_service.delivered(phones[first])
    assert payload == {
        "title": f"Your move in game {game.public_id}",
        "body": f"It is your turn at the table (seat {first}).",
        "url": f"/games/{game.public_id}/",
        "tag": f"game-{game.public_id}",
    }
    _tells_no_secret(game, payload)
    # A move: the next seat is told, nobody else again.
    game = play(game, 1)
    second = game.to_act
    assert second is not None and second != first
    assert [len(push_service.to(p)) for p in phones] == [
        int(s in (first, second)) for s in range(4)
    ]
    assert PushSent.objects.filter(key=f"turn:{game.pk}:1").count() == 1
    assert PushSubscription.objects.get(endpoint=phones[second].endpoint).last_success_at


def test_the_same_turn_is_pushed_once_however_often_its_task_runs(
    push_service: FakePushService,
) -> None:
    game, _people, phones = _table(push_service)
    until = time.time() + 60
    for _ in range(3):  # the outbox's second delivery, a retry
        push_turn.apply(args=(game.pk, game.move_count, until, 0))
    assert len(push_service.to(phones[game.to_act or 0])) == 1


def test_your_move_waits_while_the_table_page_is_shown(
    push_service: FakePushService, settings: Any
) -> None:
    settings.PUSH_TURN_AWAY_S = 120.0
    people = [PlayerFactory() for _ in range(4)]
    phones = [push_service.browser(f"p{i}") for i in range(4)]
    for person, phone in zip(people, phones, strict=True):
        subscribe(person, phone)
    game = game_create(creator=people[0], seats=people, options={"rated": False})
    game = Game.objects.get(pk=game.pk)
    nxt = (game.to_act or 0) + 1
    seat = nxt % 4  # whose turn comes next
    presence.mark(game.pk, seat, shown=True)  # watching the table
    before = len(push_service.to(phones[seat]))
    game = play(game, 1)
    assert game.to_act == seat
    assert len(push_service.to(phones[seat])) == before  # at the table: no phone needed
    # Hidden a moment ago: still nothing.
    presence.mark(game.pk, seat, shown=False, now=time.time() - 30)
    push_turn.apply(args=(game.pk, game.move_count, time.time() + 60, 1))
    assert len(push_service.to(phones[seat])) == before
    # Hidden for longer than PUSH_TURN_AWAY_S: the phone is told.
    presence.mark(game.pk, seat, shown=False, now=time.time() - 200)
    push_turn.apply(args=(game.pk, game.move_count, time.time() + 60, 2))
    assert len(push_service.delivered(phones[seat])) == before + 1


def test_no_push_for_a_bot_or_for_a_turn_already_played(push_service: FakePushService) -> None:
    owner = PlayerFactory()
    bots = [BotPlayerFactory(owner=owner.user) for _ in range(4)]
    phone = push_service.browser("owner")
    subscribe(owner, phone)
    game = game_create(creator=owner, seats=bots, options={"rated": False})
    game = play(Game.objects.get(pk=game.pk), 2)
    assert push_service.received == []
    # A person's turn already played (by them, a premove or auto-play) is not pushed.
    game, _people, phones = _table(push_service)
    seq = game.move_count
    game = play(game, 1)
    n = len(push_service.received)
    push_turn.apply(args=(game.pk, seq, time.time() + 60, 1))
    assert len(push_service.received) == n


def test_the_end_of_the_game_reaches_every_person_with_their_side_s_result(
    push_service: FakePushService,
) -> None:
    game, _people, phones = _table(push_service, SHORT)
    game = play(game, 400)
    assert game.status == "finished" and game.totals is not None
    for seat, phone in enumerate(phones):
        over = [p for p in push_service.delivered(phone) if p["title"].startswith("Game ")]
        assert len(over) == 1, (seat, push_service.delivered(phone))
        (payload,) = over
        assert payload["title"] == f"Game {game.public_id} is over"
        ours, theirs = game.totals[seat % 2], game.totals[1 - seat % 2]
        if game.winner is None:
            assert payload["body"] == f"A draw: {ours} to {theirs}."
        elif game.winner == seat % 2:
            assert payload["body"] == f"Your side won, {ours} to {theirs}."
        else:
            assert payload["body"] == f"Your side lost, {ours} to {theirs}."
        assert payload["url"] == f"/games/{game.public_id}/"
        _tells_no_secret(game, payload)


def test_a_device_gone_is_forgotten_and_the_others_are_still_told(
    push_service: FakePushService,
) -> None:
    people = [PlayerFactory() for _ in range(4)]
    old, new = push_service.browser("old"), push_service.browser("new")
    lost = push_service.browser("lost")
    for b in (old, new, lost):
        subscribe(people[0], b)
    push_service.answer(old, 410)
    push_service.answer(lost, 404)
    game = game_create(creator=people[0], seats=people, options={"rated": False})
    game = Game.objects.get(pk=game.pk)
    # Play until it is seat 0's turn.
    for _ in range(8):
        if PushSent.objects.filter(subscription__endpoint=new.endpoint).exists():
            break
        game = play(game, 1)
    assert len(push_service.delivered(new)) == 1
    assert len(push_service.to(old)) == 1 and len(push_service.to(lost)) == 1
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [new.endpoint]


def test_a_busy_push_service_is_tried_again_for_that_device_alone(
    push_service: FakePushService,
) -> None:
    game = _table(push_service)[0]
    person = game.seats.get(position=game.to_act).player
    busy, calm, broken = (push_service.browser(n) for n in ("busy", "calm", "broken"))
    for b in (busy, calm, broken):
        subscribe(person, b)
    push_service.answer(busy, 429, 503, 503)
    push_service.answer(broken, 400)
    args = (game.pk, game.move_count, time.time() + 60, 0)
    # The worker's first run: the busy phone is left for a retry, after a backoff.
    with pytest.raises(Retry) as retry:
        push_turn.apply(args=args, throw=True)
    assert 24 <= float(retry.value.when or 0) <= 36
    assert retry.value.sig is not None and retry.value.sig.kwargs["only"] == [
        PushSubscription.objects.get(endpoint=busy.endpoint).pk
    ]
    # Its retries (run here at once, as the worker would later), backing off: 503, 503, 201.
    waits, sig = [], retry.value.sig
    while sig is not None:
        try:
            sig.apply(throw=True)
            sig = None
        except Retry as again:
            waits.append(float(again.when or 0))
            sig = again.sig
    assert len(waits) == 2 and 48 <= waits[0] <= 72 and 96 <= waits[1] <= 144
    assert [r.status for r in push_service.to(busy)] == [429, 503, 503, 201]
    assert len(push_service.delivered(busy)) == 1
    # The calm phone was told once; the refused one dropped, never tried again.
    assert [r.status for r in push_service.to(calm)] == [201]
    assert [r.status for r in push_service.to(broken)] == [400]
    assert PushSent.objects.filter(subscription__endpoint=broken.endpoint, refused=True).exists()
    assert PushSubscription.objects.filter(player=person).count() == 4


def test_a_push_is_written_in_its_recipient_s_language(push_service: FakePushService) -> None:
    people = [PlayerFactory() for _ in range(4)]
    for person in people:
        person.language = "sv"
        person.save(update_fields=["language"])
    phones = [push_service.browser(f"sv-{i}") for i in range(4)]
    for person, phone in zip(people, phones, strict=True):
        subscribe(person, phone)
    game = Game.objects.get(
        pk=game_create(creator=people[0], seats=people, options={"rated": False}).pk
    )
    (payload,) = push_service.delivered(phones[game.to_act or 0])
    assert payload["title"] == f"Ditt drag i parti {game.public_id}"
    assert payload["body"] == f"Det är din tur vid bordet (plats {game.to_act})."


def test_a_queued_premove_is_never_told_and_the_turn_it_plays_is_not_pushed(
    push_service: FakePushService,
) -> None:
    from games import statecache
    from games.premoves import premove_set

    game, _people, phones = _table(push_service)
    # Into the play of the first deal, with a trick under way (a lead on the table).
    for _ in range(40):  # four bids, a redeal or two
        if statecache_view(game, 0)["phase"] == "playing":
            break
        game = play(game, 1)
    game = play(game, 1)  # the lead
    mover = game.to_act
    assert mover is not None
    nxt = (mover + 1) % 4
    # A card the next seat may play after the mover's (the one play() makes): a premove is
    # checked only against the hand when queued, and against the trick when played.
    ahead = statecache.state_for(game).clone()
    ahead.apply(choose_code(ahead.legal_actions()))
    assert ahead.seat_to_act == nxt
    queued = cards_str([ahead.legal_actions()[0]])[0]
    premove_set(game_id=game.pk, seats=[nxt], action={"card": queued})
    told_before = [len(push_service.to(p)) for p in phones]
    seq = game.move_count
    game = play(game, 1)  # the mover's card; the premove is played in the same commit
    assert game.move_count == seq + 2  # the mover's card and the premoved one
    assert len(push_service.to(phones[nxt])) == told_before[nxt]  # its turn was played
    for phone in phones:
        for payload in push_service.delivered(phone):
            _tells_no_secret(game, payload)
            # As a word: a game's random id may hold the letters of a card ("g_xf4Sl").
            assert not re.search(rf"\b{queued}\b", json.dumps(payload)), payload


def statecache_view(game: Game, seat: int) -> dict[str, Any]:
    from games import statecache

    game.refresh_from_db()
    return statecache.state_for(game).view(seat)
