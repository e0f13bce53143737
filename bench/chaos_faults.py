"""The faults of ``make chaos`` beyond the database and Redis: what the move path leans on
the least, and must never wait for.

* **workers stopped** (the broker's queue backed up): every worker stopped while the players
  go on moving; a game of four hosted bots is created then, its first turn waiting in the
  queue with the rest of the work the commits sent; the workers come back and take it all,
  each turn once.
* **mail disk full**: the file e-mail backend writes on a tmpfs of its own, filled to the
  last byte; invitations (each one an e-mail) are sent through the API meanwhile. The answers
  must not wait or fail; the mails that could not be written are counted.
* **push down**: the push service first refuses connections, then accepts them and never
  answers; short games are played to their end meanwhile (a "game over" push to each of
  their four devices). Moves must not wait; once the service is back, every push arrives,
  retried with backoff.

:class:`Extras` holds what these need beside the cluster (the tmpfs, a fake push service,
the VAPID keys and the settings that point the cluster at them); :func:`faults` gives the
fault functions for ``bench/chaos.py``, each returning a note for the table.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from bench import api_prep
from bench.nodes import QUEUES, ROOT, Cluster, free_port, wait_until

Fault = Callable[[Cluster, float], str]
SHORT_BOTS = ("11", "15")  # deals 11 to 15 (3, 2, 1, 2, 3 cards): 64 moves
ONE_DEAL = {"first": 13, "last": 13}  # one deal of one card: 8 moves


class MailDisk:
    """A tmpfs of ``size_kb`` for the file e-mail backend, filled on demand (root may mount;
    elsewhere :attr:`mounted` is False and the fault is left out, with the reason)."""

    def __init__(self, path: Path, size_kb: int = 256) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.path = path
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0777", "tmpfs", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        self.mounted = done.returncode == 0
        self.why = done.stderr.strip() or f"mount exited {done.returncode}"
        self.filler = path / ".filler"

    def fill(self) -> None:
        """Write until the disk is full (ENOSPC)."""
        with contextlib.suppress(OSError), open(self.filler, "wb", buffering=0) as f:
            while True:
                f.write(b"\0" * 4096)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def written(self) -> int:
        """Mails written whole (the backend's files that are not empty)."""
        return sum(1 for p in self.path.iterdir() if p != self.filler and p.stat().st_size > 0)

    def close(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], capture_output=True, check=False)


class FakePush:
    """A push service on loopback: answers 201 (``ok``), refuses connections (``refuse``: its
    socket closed), or takes a push and never answers (``hang``, until the mode changes)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.mode = "ok"
        self.received: Counter[str] = Counter()  # answered 201, per device path
        self.hung = 0
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None
        self.start()

    def start(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if fake.mode == "hang":
                    with fake.lock:
                        fake.hung += 1
                    while fake.mode == "hang":
                        time.sleep(0.05)
                    self.close_connection = True
                    return  # no answer: the sender's timeout
                with fake.lock:
                    fake.received[self.path] += 1
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def refuse(self) -> None:
        self.mode = "refuse"
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def answer(self, mode: str = "ok") -> None:
        """``ok`` (started again if it was refusing) or ``hang``."""
        self.mode = mode  # before the socket opens: no push is answered in between
        if self.server is None:
            self.start()

    def close(self) -> None:
        self.mode = "ok"
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Extras:
    """What the further faults need beside the cluster, and the settings that use it."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="ba-chaos-"))
        os.chmod(self.root, 0o755)
        self.mail = MailDisk(self.root / "mail")
        self.push = FakePush()
        from push.vapid import generate_pair

        self.vapid = generate_pair()

    def env(self) -> dict[str, str]:
        public, private = self.vapid
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(self.mail.path),
            "PUSH_ENABLED": "true",
            "PUSH_VAPID_PRIVATE_KEY": private,
            "PUSH_VAPID_PUBLIC_KEY": public,
            "PUSH_ALLOW_PRIVATE_ENDPOINTS": "true",
            "PUSH_RETRY_BACKOFF_S": "2",
        }

    def close(self) -> None:
        self.push.close()
        self.mail.close()
        shutil.rmtree(self.root, ignore_errors=True)


# --- made on the cluster's database, in a process of its own ------------------------------
def prepare(cluster: Cluster, what: str, *args: str) -> list[dict[str, Any]]:
    made = subprocess.run(
        [sys.executable, "-m", "bench.chaos_faults", what, *args],
        cwd=ROOT,
        env=cluster.env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if made.returncode != 0:
        raise RuntimeError(f"preparing {what} failed:\n{made.stderr[-3000:]}")
    return [json.loads(line) for line in made.stdout.splitlines() if line.startswith("{")]


def _bots() -> None:
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
    schedule = {"first": int(SHORT_BOTS[0]), "last": int(SHORT_BOTS[1])}
    game = game_create(
        creator=host, seats=[b.player for b in bots], options={"rated": False, "schedule": schedule}
    )
    print(json.dumps({"pk": game.pk}))


def _inviter(count: str) -> None:
    """A person with a token, and ``count`` people with e-mail addresses to invite."""
    (inviter, token), *invitees = api_prep.make_players(1 + int(count))
    for player, _ in invitees:
        player.user.email = f"{player.user.username}@example.org"
        player.user.save(update_fields=["email"])
    print(json.dumps({"token": token, "invitees": [p.name for p, _ in invitees]}))


def _push_games(count: str, push_url: str) -> None:
    """``count`` started games of one deal, each of its four people with a device."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from games.services import game_create
    from push.services import subscription_save
    from push.vapid import b64url

    for _ in range(int(count)):
        four = api_prep.make_players(4)
        for player, _ in four:
            key = ec.generate_private_key(ec.SECP256R1()).public_key()
            p256dh = b64url(
                key.public_bytes(
                    serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
                )
            )
            subscription_save(
                player=player,
                endpoint=f"{push_url}/d/{player.pk}",
                p256dh=p256dh,
                auth=b64url(secrets.token_bytes(16)),
            )
        game = game_create(
            creator=four[0][0],
            seats=[p for p, _ in four],
            options={"rated": False, "schedule": ONE_DEAL},
        )
        game.refresh_from_db()
        print(json.dumps({"id": game.public_id, "seed": game.seed, "tokens": [t for _, t in four]}))


# --- the faults ------------------------------------------------------------------------------
def _query(cluster: Cluster, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(cluster.postgres.url(), connect_timeout=5) as conn:
        return list(conn.execute(sql, args).fetchall())


def queue_depth(cluster: Cluster) -> int:
    """Tasks waiting in the broker's queues (each queue's priority lists included)."""
    import redis

    r = redis.Redis(port=cluster.redis.port, db=0)
    names = QUEUES.split(",")
    return sum(
        int(r.llen(key))
        for key in r.scan_iter(count=1000)
        if any(key.decode(errors="replace").startswith(q) for q in names) and r.type(key) == b"list"
    )


def bot_game_done(cluster: Cluster, pk: int, timeout: float) -> tuple[float, int]:
    """Seconds until the game is finished, and its moves (1..n, each once, else a failure)."""
    started = time.monotonic()
    deadline = started + timeout
    while time.monotonic() < deadline:
        ((status, count),) = _query(
            cluster, "SELECT status, move_count FROM games_game WHERE id = %s", pk
        )
        if status == "finished":
            seqs = [
                s
                for (s,) in _query(
                    cluster, "SELECT seq FROM games_move WHERE game_id = %s ORDER BY seq", pk
                )
            ]
            if seqs != list(range(1, count + 1)):
                raise AssertionError(f"bot game {pk}: its log is not whole: {seqs}")
            return time.monotonic() - started, int(count)
        time.sleep(0.2)
    raise AssertionError(f"bot game {pk} not finished in {timeout:g} s")


def workers_stopped(cluster: Cluster, down: float) -> str:
    for worker in cluster.workers:
        worker.stop()
    (made,) = prepare(cluster, "bots")  # its first turn sent to the queue, which waits
    game = int(made["pk"])
    time.sleep(down)
    depth = queue_depth(cluster)
    ((moved,),) = _query(cluster, "SELECT move_count FROM games_game WHERE id = %s", game)
    for worker in cluster.workers:
        worker.start()
    took, moves = bot_game_done(cluster, game, 120)
    return (
        f"{depth} tasks queued, bot game at move {moved}; workers back: it finished"
        f" {took:.1f} s later, {moves} moves each once"
    )


def mail_full(extras: Extras) -> Fault:
    def fault(cluster: Cluster, down: float) -> str:
        disk = extras.mail
        before = disk.written()
        disk.fill()
        (who,) = prepare(cluster, "inviter", "3")
        answers: Counter[str] = Counter()
        slowest = 0.0
        sent = 0
        end = time.monotonic() + down
        with httpx.Client(headers={"Authorization": f"Bearer {who['token']}"}, timeout=15) as http:
            while time.monotonic() < end and sent < 4:
                started = time.monotonic()
                seats = [{"kind": "me"}] + [{"kind": "player", "name": n} for n in who["invitees"]]
                r = http.post(cluster.url + "/api/v1/games/", json={"seats": seats})
                slowest = max(slowest, time.monotonic() - started)
                answers[str(r.status_code)] += 1
                sent += 3 if r.status_code == 201 else 0
                time.sleep(down / 5)
        during = disk.written() - before
        disk.free()
        return (
            f"{sum(answers.values())} invitations sent ({dict(answers)}, slowest"
            f" {slowest:.2f} s): {sent} mails, {during} written while full (the notices in the"
            " app kept)"
        )

    return fault


def _play_through(url: str, game: dict[str, Any], took: list[float]) -> None:
    from backalley_engine.actions import action_to_json
    from backalley_engine.schedule import Schedule
    from backalley_engine.state import GameState

    state = GameState.new(game["seed"], schedule=Schedule.from_json(ONE_DEAL))
    while not state.is_terminal():
        seat, seq = state.seat_to_act, state.move_count
        assert seat is not None
        action = api_prep.policy(state)
        started = time.monotonic()
        r = httpx.post(
            f"{url}/api/v1/games/{game['id']}/moves/",
            json={"action": action_to_json(action), "expected_seq": seq},
            headers={
                "Authorization": f"Bearer {game['tokens'][seat]}",
                "Idempotency-Key": f"push-{game['id']}-{seq}",
            },
            timeout=15,
        )
        took.append(time.monotonic() - started)
        if r.status_code != 201:
            raise AssertionError(f"{game['id']}: move {seq} answered {r.status_code}: {r.text}")
        state.apply(action)


def push_down(extras: Extras) -> Fault:
    def fault(cluster: Cluster, down: float) -> str:
        push = extras.push
        games = prepare(cluster, "pushes", "2", push.url)
        time.sleep(1.0)  # the first turns' pushes (nobody's page open) delivered before
        before = sum(push.received.values())
        took: list[float] = []
        push.refuse()
        _play_through(cluster.url, games[0], took)
        time.sleep(down / 2)
        push.answer("hang")
        _play_through(cluster.url, games[1], took)
        time.sleep(down / 2)
        hung = push.hung
        during = sum(push.received.values()) - before
        push.answer("ok")
        came = time.monotonic()
        want = before + 4 * len(games)
        try:
            wait_until(lambda: sum(push.received.values()) >= want, 90, "the pushes retried")
            late = f"all {4 * len(games)} arrived {time.monotonic() - came:.1f} s after"
        except RuntimeError:
            late = f"only {sum(push.received.values()) - before} of {4 * len(games)} arrived"
        return (
            f"{len(took)} moves of {len(games)} games played to their end (slowest"
            f" {max(took):.2f} s); pushes delivered meanwhile {during}, held by the hang {hung};"
            f" back: {late}"
        )

    return fault


def faults(extras: Extras) -> dict[str, Fault]:
    out: dict[str, Fault] = {"workers stopped": workers_stopped, "push down": push_down(extras)}
    if extras.mail.mounted:
        out["mail disk full"] = mail_full(extras)
    return out


COMMANDS: dict[str, Callable[..., None]] = {
    "bots": _bots,
    "inviter": _inviter,
    "pushes": _push_games,
}

if __name__ == "__main__":
    api_prep.django_setup(migrate=False)
    COMMANDS[sys.argv[1]](*sys.argv[2:])
