"""What the several-nodes tests need on a cluster's database, made through the services.

Run in a process of its own with the cluster's environment (``python -m tests.ops.nodes_world
<what> ...``, see :func:`make`): the test's own process is set up for another database. Each
game made is printed as a line of JSON: its ids, seed, schedule and the seats' tokens.

* ``people N FIRST LAST``: N started unrated games of four people, deals FIRST to LAST;
* ``bots FIRST LAST``: a started game of four hosted bots (random strategy), deals FIRST..LAST;
* ``webhooks URL FIRST LAST``: the same with four webhook bots answering at URL;
* ``rated N``: N rated (whole) games of four people, played to one move before the end;
* ``rate K GAME_PK...``: K more copies of each game's rating task, sent to the broker at
  once (the workers race for them);
* ``tournament N ROUNDS IN_S``: an individual Swiss event of N people and ROUNDS rounds,
  starting IN_S seconds from now (by the beat); prints its id and start time;
* ``start K EVENT``: K copies of the event's start task;
* ``round EVENT N``: every game of round N played to one move before its end (each seat
  given a token of its own), each printed as a game;
* ``finished K GAME_PK...``: K copies of each game's round-bookkeeping task;
* ``standings EVENT``: each entrant's half points and games played as the standings say,
  and as the games' own results give them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from backalley_engine.schedule import Schedule
from backalley_engine.state import GameState
from bench import api_prep


@dataclass
class Table:
    """A game the test plays through the API: ids, seed, schedule and the four tokens."""

    id: str
    pk: int
    seed: str
    tokens: list[str]
    schedule: dict[str, Any] | None = None
    state: GameState = field(init=False)

    def __post_init__(self) -> None:
        self.state = GameState.new(self.seed, schedule=Schedule.from_json(self.schedule))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        """The game as the preparing process left it (its moves made by the same policy)."""
        table = cls(data["id"], data["pk"], data["seed"], data["tokens"], data.get("schedule"))
        while table.state.move_count < data.get("move_count", 0):
            table.state.apply(api_prep.policy(table.state))
        return table

    def next_move(self) -> tuple[int, int, dict[str, Any]]:
        """The seat to act, the expected seq and the body of the clients' move (the policy of
        bench/api_prep.py, as JSON)."""
        from backalley_engine.actions import action_to_json

        state = self.state
        seat = state.seat_to_act
        assert seat is not None, "the game is over"
        action = api_prep.policy(state)
        body = {"action": action_to_json(action), "expected_seq": state.move_count, "seat": seat}
        return seat, state.move_count, body

    def post_move(self, base_url: str, timeout: float = 30.0, tries: int = 20) -> float:
        """Make the next move through ``base_url`` (the same ``Idempotency-Key`` on every try
        after a refused or lost connection, as a client should); returns when it was answered
        (``time.monotonic()``)."""
        import time

        seat, seq, body = self.next_move()
        key = f"nodes-{self.pk}-{seq}"
        last: Any = None
        for _ in range(tries):
            try:
                r = httpx.post(
                    f"{base_url}/api/v1/games/{self.id}/moves/",
                    json=body,
                    headers={
                        "Authorization": f"Bearer {self.tokens[seat]}",
                        "Idempotency-Key": key,
                    },
                    timeout=timeout,
                )
            except httpx.TransportError as exc:
                last = exc
                time.sleep(0.2)
                continue
            if r.status_code in (201, 200):
                answered = time.monotonic()
                got = r.json()["move"]["seq"]
                assert got == seq + 1, (self.id, seq, r.json())
                self.state.apply(api_prep.policy(self.state))
                return answered
            if r.status_code in (502, 503, 504):  # the balancer between two nodes
                last = r.text
                time.sleep(0.2)
                continue
            raise AssertionError(f"{self.id}: move {seq} answered {r.status_code}: {r.text}")
        raise AssertionError(f"{self.id}: move {seq} never answered: {last}")


def make(env: dict[str, str], *args: str, timeout: float = 600) -> Iterator[dict[str, Any]]:
    """Run this module with ``args`` in a process of its own on ``env`` (a cluster's); the
    JSON lines it printed."""
    import subprocess

    from bench.nodes import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "tests.ops.nodes_world", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"nodes_world {' '.join(args)} failed:\n{done.stderr[-4000:]}")
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            yield json.loads(line)


# --- in the process of its own ---------------------------------------------------------------
def _table_json(game: Any, tokens: list[str]) -> str:
    game.refresh_from_db()
    schedule = (game.options or {}).get("schedule")
    return json.dumps(
        {
            "id": game.public_id,
            "pk": game.pk,
            "seed": game.seed,
            "tokens": tokens,
            "schedule": schedule,
            "move_count": game.move_count,
        }
    )


def _people(count: str, first: str, last: str) -> None:
    from games.services import game_create

    schedule = {"first": int(first), "last": int(last)}
    for _ in range(int(count)):
        four = api_prep.make_players(4)
        game = game_create(
            creator=four[0][0],
            seats=[p for p, _ in four],
            options={"rated": False, "schedule": schedule},
        )
        print(_table_json(game, [t for _, t in four]))


def _bots(first: str, last: str) -> None:
    from django.contrib.auth import get_user_model

    from bots.models import BotKind
    from bots.services import bot_create
    from games.services import game_create

    ((host, _),) = api_prep.make_players(1)
    owner = get_user_model().objects.get(pk=host.user_id)
    bots = [
        bot_create(owner=owner, name=f"{host.name}b{i}", kind=BotKind.HOSTED, strategy="random")[0]
        for i in range(4)
    ]
    schedule = {"first": int(first), "last": int(last)}
    game = game_create(
        creator=host,
        seats=[b.player for b in bots],
        options={"rated": False, "schedule": schedule},
    )
    print(_table_json(game, []))


def _webhooks(url: str, first: str, last: str) -> None:
    from django.contrib.auth import get_user_model

    from bots.models import BotKind
    from bots.services import bot_create
    from games.services import game_create

    ((host, _),) = api_prep.make_players(1)
    owner = get_user_model().objects.get(pk=host.user_id)
    bots = [
        bot_create(owner=owner, name=f"{host.name}w{i}", kind=BotKind.WEBHOOK, webhook_url=url)[0]
        for i in range(4)
    ]
    game = game_create(
        creator=host,
        seats=[b.player for b in bots],
        options={"rated": False, "schedule": {"first": int(first), "last": int(last)}},
    )
    print(_table_json(game, []))


def _rated(count: str) -> None:
    from games.services import game_create

    made = []
    for _ in range(int(count)):
        four = api_prep.make_players(4)
        game = game_create(creator=four[0][0], seats=[p for p, _ in four], options={"rated": True})
        game.refresh_from_db()
        table = api_prep.Table(game.public_id, game.pk, game.seed, [t for _, t in four])
        made.append((game, table))
    api_prep.advance_all([(t, api_prep.game_length(t.seed) - 1) for _, t in made], threads=2)
    for game, table in made:
        print(_table_json(game, table.tokens))


def _rate(copies: str, *game_pks: str) -> None:
    from ladder.tasks import rate_game

    for _ in range(int(copies)):
        for pk in game_pks:
            rate_game.delay(int(pk))
    print(json.dumps({"sent": int(copies) * len(game_pks)}))


def _tournament(count: str, rounds: str, in_s: str) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import Entry
    from tournaments.services import entrant_register, tournament_create

    ((organiser, _),) = api_prep.make_players(1)
    starts_at = timezone.now() + timedelta(seconds=float(in_s))
    t = tournament_create(
        organiser=organiser,
        name=f"Nodes {organiser.name}",
        entry=Entry.INDIVIDUAL,
        rounds=int(rounds),
        starts_at=starts_at,
    )
    for player, _ in api_prep.make_players(int(count)):
        entrant_register(tournament_id=t.pk, player=player, by=player.user)
    print(json.dumps({"tournament": t.pk, "starts_at": starts_at.timestamp()}))


def _start(copies: str, tournament_pk: str) -> None:
    from tournaments.tasks import start_tournament

    for _ in range(int(copies)):
        start_tournament.delay(int(tournament_pk))
    print(json.dumps({"sent": int(copies)}))


def _round(tournament_pk: str, number: str) -> None:
    from accounts.tokens import token_create
    from games.models import Game

    games = list(
        Game.objects.filter(
            tournament_table__round__tournament_id=int(tournament_pk),
            tournament_table__round__number=int(number),
        ).order_by("pk")
    )
    made = []
    for game in games:
        tokens = [
            token_create(user=seat.player.user, name="nodes", scopes=["read", "play"])[1]
            for seat in game.seats.select_related("player__user").order_by("position")
        ]
        made.append(api_prep.Table(game.public_id, game.pk, game.seed, tokens))
    api_prep.advance_all([(t, api_prep.game_length(t.seed) - 1) for t in made], threads=2)
    for game, table in zip(games, made, strict=True):
        print(_table_json(game, table.tokens))


def _finished(copies: str, *game_pks: str) -> None:
    from tournaments.tasks import game_finished

    for _ in range(int(copies)):
        for pk in game_pks:
            game_finished.delay(int(pk))
    print(json.dumps({"sent": int(copies) * len(game_pks)}))


def _standings(tournament_pk: str) -> None:
    from collections import Counter

    from tournaments import scoring, selectors
    from tournaments.models import Result, Tournament

    t = Tournament.objects.get(pk=int(tournament_pk))
    said = {
        line.entrant_id: [line.half_points, line.played]
        for line in selectors.standings(tournament=t).lines
    }
    halves: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for r in Result.objects.filter(round__tournament=t).select_related("table__game"):
        if r.table is None:  # a bye: a win, no game played
            halves[r.entrant_id] += scoring.WIN
            continue
        side = r.seat % 2  # type: ignore[operator]
        halves[r.entrant_id] += scoring.side_half_points(r.table.game.winner, (False, False))[side]
        played[r.entrant_id] += 1
    given = {pk: [halves[pk], played[pk]] for pk in {*halves, *played}}
    print(json.dumps({"standings": said, "games": given}))


COMMANDS: dict[str, Callable[..., None]] = {
    "people": _people,
    "bots": _bots,
    "webhooks": _webhooks,
    "rated": _rated,
    "rate": _rate,
    "tournament": _tournament,
    "start": _start,
    "round": _round,
    "finished": _finished,
    "standings": _standings,
}


def main(argv: list[str]) -> None:
    api_prep.django_setup(migrate=False)
    COMMANDS[argv[0]](*argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
