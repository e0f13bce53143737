"""The service as several processes on one machine, on a PostgreSQL and a Redis of its own.

A :class:`Cluster` starts, in a temporary directory:

* its **own PostgreSQL** (``initdb`` of the installed server, under ``/usr/lib/postgresql``,
  on a free port) and its **own Redis** (``redis-server`` on a free port), so that a fault
  (a restart, a stop) is made to them and never to a database or a Redis anybody else uses;
* the schema (``manage.py migrate``);
* web nodes: ``uvicorn`` serving the project's ASGI application, one process each, on the
  addresses given (``127.0.0.2``, ``127.0.0.3``: distinct loopback addresses);
* Celery workers (the first one runs the beat, whose relay delivers what the outbox holds);
* optionally HAProxy in front of the web nodes (Debian's ``haproxy``; ``balancers=N``
  processes on one port, to hold more connections than one open-files limit allows).

Used by ``bench/chaos.py`` (``make chaos``) and by the tests marked ``server`` under
``tests/ops``. Each process is a process group of its own: :meth:`Node.kill` is a SIGKILL of
that group only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
QUEUES = "bots,celery,ratings,clock,events,notify"


class ToolMissing(RuntimeError):
    """A program the cluster needs (initdb, redis-server, haproxy) is not installed."""


def postgres_bindir() -> Path | None:
    """The newest installed PostgreSQL server's ``bin`` directory (holding ``initdb``)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return found[-1].parent if found else None


def missing_tools(*, balancer: bool = False) -> list[str]:
    """The programs a cluster would need that this machine lacks (empty: none)."""
    missing = [] if postgres_bindir() is not None else ["initdb (PostgreSQL server)"]
    if shutil.which("redis-server") is None:
        missing.append("redis-server")
    if balancer and shutil.which("haproxy") is None:
        missing.append("haproxy")
    return missing


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


class NetSpace:
    """A network namespace of its own for one web node (``ip netns``), joined to the host by
    a veth pair: the host's end at ``host_ip``, the node's at ``ip`` (a /30 of 10.x).
    :meth:`make` is False, and nothing is left behind, where the machine does not permit it
    (no root, no ``ip``, a container without the right): the cluster then falls back to
    loopback addresses."""

    def __init__(self, index: int) -> None:
        tag = f"{os.getpid() % 10000}{index}"
        self.name = f"ba-nodes-{tag}"
        self.veth = f"bav{tag}"  # an interface's name is at most 15 characters
        net = 200 + os.getpid() % 50
        self.host_ip, self.ip = f"10.{net}.{index}.1", f"10.{net}.{index}.2"
        self.why = ""

    def _ip(self, *args: str) -> bool:
        try:
            done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired) as exc:
            self.why = repr(exc)
            return False
        if done.returncode != 0:
            self.why = f"ip {' '.join(args)}: {done.stderr.strip()}"
        return done.returncode == 0

    def make(self) -> bool:
        steps = [
            ("netns", "add", self.name),
            ("link", "add", self.veth, "type", "veth", "peer", "name", "eth0", "netns", self.name),
            ("addr", "add", f"{self.host_ip}/30", "dev", self.veth),
            ("link", "set", self.veth, "up"),
            ("-n", self.name, "addr", "add", f"{self.ip}/30", "dev", "eth0"),
            ("-n", self.name, "link", "set", "eth0", "up"),
            ("-n", self.name, "link", "set", "lo", "up"),
        ]
        if all(self._ip(*step) for step in steps):
            return True
        self.remove()
        return False

    def wrap(self, cmd: list[str]) -> list[str]:
        """``cmd`` run inside the namespace (``ip netns exec`` execs it: the same process)."""
        return ["ip", "netns", "exec", self.name, *cmd]

    def remove(self) -> None:
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True, check=False)
        subprocess.run(["ip", "link", "del", self.veth], capture_output=True, check=False)


def balancer_maxconn() -> int:
    """The connections HAProxy may hold: it needs two descriptors for each (the client's and
    the server's) and refuses to start if the open-files hard limit cannot give them."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return max(100, (hard - 200) // 2) if hard != resource.RLIM_INFINITY else 20000


def wait_until(check: Callable[[], bool], timeout: float, what: str, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # not up yet
            pass
        time.sleep(step)
    raise RuntimeError(f"{what} did not come up in {timeout:g} s")


def _http_ok(url: str) -> bool:
    import httpx

    return httpx.get(url, timeout=1.0).status_code == 200


class Node:
    """One process group: started, stopped (SIGTERM, then SIGKILL), or killed."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.cmd, self.env, self.log_path = name, cmd, env, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Node:
        log = open(self.log_path, "ab")  # noqa: SIM115 - the child holds it
        self.proc = subprocess.Popen(
            self.cmd,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        return self

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def stop(self, timeout: float = 15) -> None:
        if self.proc is None:
            return
        self._signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        if self.proc is None:
            return
        self._signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def log(self, tail: int | None = 3000) -> str:
        """The end of the process's log (``tail`` characters; all of it with ``None``)."""
        try:
            text = self.log_path.read_text(errors="replace")
            return text if tail is None else text[-tail:]
        except OSError:
            return ""


class Postgres:
    """A PostgreSQL cluster of its own (initdb in ``root``), on 127.0.0.1:``port``."""

    def __init__(self, root: Path, port: int | None = None) -> None:
        self.listen = ["127.0.0.1"]  # and the host's end of each node's namespace
        bindir = postgres_bindir()
        if bindir is None:
            raise ToolMissing("initdb: install PostgreSQL's server package")
        self.bindir, self.root = bindir, root
        self.port = port or free_port()
        self.data = root / "pgdata"
        self.log_path = root / "postgres.log"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:  # the server refuses to run as root
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, timeout=120)

    def init(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '{','.join(self.listen)}'\n"
                f"unix_socket_directories = '{self.root}'\n"
                # A scratch cluster: durability traded for speed (nothing here outlives it).
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                "max_connections = 200\n"
            )
        with open(self.data / "pg_hba.conf", "a") as hba:
            for addr in self.listen[1:]:  # a namespace's node comes from the next address
                hba.write(f"host all all {addr.rsplit('.', 1)[0]}.0/24 trust\n")

    def start(self) -> None:
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log_path), "-w", "-t", "60", "start"
        )

    def stop(self, mode: str = "fast") -> None:
        """``fast``: every session is ended (as a restart does); ``immediate``: a crash."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", check=False)

    def createdb(self, name: str) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)

    def url(self, db: str = "backalley", host: str = "127.0.0.1") -> str:
        return f"postgres://postgres@{host}:{self.port}/{db}"


class Redis:
    """A Redis of its own, in memory only, on 127.0.0.1:``port``."""

    def __init__(self, root: Path, port: int | None = None) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            raise ToolMissing("redis-server: install Redis")
        self.port = port or free_port()
        self.exe, self.root = exe, root
        self.bind(["127.0.0.1"])

    def bind(self, addrs: list[str]) -> None:
        """Listen on these addresses (before :meth:`start`)."""
        cmd = [self.exe, "--port", str(self.port), "--bind", *addrs, "--save", ""]
        cmd += ["--appendonly", "no", "--dir", str(self.root), "--protected-mode", "no"]
        self.node = Node("redis", cmd, dict(os.environ), self.root / "redis.log")

    def start(self) -> None:
        import redis

        self.node.start()
        wait_until(lambda: bool(redis.Redis(port=self.port).ping()), 20, "redis")

    def stop(self) -> None:
        self.node.stop()

    def url(self, db: int = 0, host: str = "127.0.0.1") -> str:
        return f"redis://{host}:{self.port}/{db}"


class Cluster:
    """Own PostgreSQL and Redis, the schema, web nodes, workers and (optionally) HAProxy.

    A context manager: everything it started is stopped on exit, and its directory removed.
    ``env`` adds to every process's environment (the settings' names).
    """

    def __init__(
        self,
        *,
        web: tuple[str, ...] = ("127.0.0.1",),
        workers: int = 1,
        balancer: bool = False,
        balancers: int = 1,
        netns: bool = False,
        env: dict[str, str] | None = None,
        root: Path | None = None,
        worker_log_level: str = "WARNING",
    ) -> None:
        missing = missing_tools(balancer=balancer)
        if missing:
            raise ToolMissing(", ".join(missing))
        self._own_root = root is None
        self.root = Path(tempfile.mkdtemp(prefix="ba-nodes-")) if root is None else root
        os.chmod(self.root, 0o755)
        self.postgres = Postgres(self.root / "pg")
        self.redis = Redis(self.root)
        self.web_addrs, self.worker_count, self.with_balancer = web, workers, balancer
        self.extra_env = env or {}
        self.worker_log_level = worker_log_level
        self.webs: list[Node] = []
        self.workers: list[Node] = []
        self.balancer: Node | None = None
        # More than one HAProxy process binds the same port (SO_REUSEPORT, HAProxy's default
        # on Linux; the kernel spreads the connections): each needs two descriptors per
        # connection, so N of them hold N times what one open-files limit allows.
        self.balancer_count = balancers
        # With ``netns``, each web node in a network namespace of its own where permitted
        # (else on its loopback address from ``web``: :attr:`netns_why` says why).
        self.want_netns = netns
        self.spaces: list[NetSpace] = []
        self.netns_why = ""
        self.balancers: list[Node] = []
        self.balancer_port = 0

    # --- the environment every process shares -----------------------------------------
    def env(self, host: str = "127.0.0.1") -> dict[str, str]:
        """Every process's environment; ``host`` is where it reaches PostgreSQL and Redis."""
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "backalley_site.settings",
            "DATABASE_URL": self.postgres.url(host=host),
            "CELERY_BROKER_URL": self.redis.url(0, host),
            "LIVE_REDIS_URL": self.redis.url(0, host),
            "LIVE_CHANNEL_PREFIX": "ba_nodes:live:",
            "CACHE_URL": self.redis.url(1, host),
            "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": "*",
            "BOTS_ALLOW_PRIVATE_WEBHOOKS": "true",
            "GAMES_AUTOPLAY": "0",
            # The outbox's retries and relay at a pace a short run can see.
            "GAMES_EVENTS_RETRY_S": "1",
            "GAMES_EVENTS_RELAY_EVERY_S": "1",
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p
            ),
            **self.extra_env,
        }

    # --- starting ----------------------------------------------------------------------
    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _make_spaces(self) -> None:
        for i in range(len(self.web_addrs)):
            space = NetSpace(i)
            if not space.make():
                self.netns_why = space.why or "not permitted"
                for made in self.spaces:
                    made.remove()
                self.spaces = []
                return
            self.spaces.append(space)
        self.postgres.listen += [s.host_ip for s in self.spaces]
        self.redis.bind(["127.0.0.1", *(s.host_ip for s in self.spaces)])

    @property
    def in_namespaces(self) -> bool:
        return bool(self.spaces)

    def start(self) -> None:
        if self.want_netns:
            self._make_spaces()
        self.postgres.init()
        self.postgres.start()
        self.postgres.createdb("backalley")
        self.redis.start()
        self.manage("migrate", "--noinput")
        for i, addr in enumerate(self.web_addrs):
            self.webs.append(self._web(i, addr))
        for i in range(self.worker_count):
            self.workers.append(self._worker(i))
        for web in self.webs:
            url = web.env["BA_NODE_URL"]
            wait_until(lambda u=url: _http_ok(u + "/healthz/"), 60, web.name)  # type: ignore[misc]
        if self.with_balancer:
            self._start_balancer()

    def manage(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``manage.py`` on the cluster's database (its output captured)."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def _web(self, i: int, addr: str) -> Node:
        space = self.spaces[i] if self.spaces else None
        if space is not None:  # a namespace of its own: every port free, the host's end
            addr, port = space.ip, 8000
        else:
            port = free_port(addr)
        env = {
            **self.env(space.host_ip if space else "127.0.0.1"),
            "DB_POOL": "true",
            "DB_POOL_MAX": "8",
            "DB_CONN_MAX_AGE": "0",
            "BA_NODE_URL": f"http://{addr}:{port}",
        }
        cmd = [sys.executable, "-m", "uvicorn", "backalley_site.asgi:application"]
        cmd += ["--host", addr, "--port", str(port), "--no-access-log", "--lifespan", "off"]
        cmd += ["--no-proxy-headers", "--log-level", "warning"]
        # As compose's --keep-alive=75: longer than the balancer keeps an idle connection to
        # a node, so it never sends a request down one the node is closing (uvicorn's 5 s
        # default raced it: the client saw its connection closed without an answer).
        cmd += ["--timeout-keep-alive", "75"]
        if space is not None:
            cmd = space.wrap(cmd)
        return Node(f"web{i}", cmd, env, self.root / f"web{i}.log").start()

    def _worker(self, i: int) -> Node:
        cmd = [sys.executable, "-m", "celery", "-A", "backalley_site", "worker", "-Q", QUEUES]
        cmd += ["-c", "2", "--pool=threads", "-n", f"nodes-w{i}@%h"]
        cmd += [f"--loglevel={self.worker_log_level}"]
        cmd += ["--without-gossip", "--without-mingle"]
        if i == 0:  # one beat for the whole cluster (its relay, the sweeps)
            cmd += ["-B", "-s", str(self.root / "beat-schedule")]
        env = {**self.env(), "DB_CONN_MAX_AGE": "60"}
        return Node(f"worker{i}", cmd, env, self.root / f"worker{i}.log").start()

    def _start_balancer(self) -> None:
        self.balancer_port = free_port()
        servers = "\n".join(
            f"    server {w.name} {w.env['BA_NODE_URL'].removeprefix('http://')} check inter 500ms"
            " fall 2 rise 1"
            for w in self.webs
        )
        conf = self.root / "haproxy.cfg"
        conf.write_text(
            f"global\n    maxconn {balancer_maxconn()}\n"
            f"defaults\n    mode http\n    maxconn {balancer_maxconn()}\n"
            # Each event of a stream leaves at once (no MSG_MORE: the kernel held the
            # stream's small writes up to 200 ms), as deploy/haproxy.cfg says.
            "    option http-no-delay\n"
            # A loaded node's check may take long; a dead one refuses at once.
            "    timeout check 3s\n"
            "    timeout connect 2s\n    timeout client 1h\n"
            "    timeout server 1h\n    timeout http-request 10s\n"
            # As deploy/haproxy.cfg: an idle client connection is kept 75 s (without it,
            # http-request's 10 s: a mover's connection idle longer was closed under it).
            "    timeout http-keep-alive 75s\n    option redispatch\n"
            "    retries 2\n"
            f"frontend site\n    bind 127.0.0.1:{self.balancer_port}\n    default_backend web\n"
            "backend web\n    balance roundrobin\n    option httpchk GET /healthz/\n"
            # Which node answered (the tests tell the streams held on a killed node apart).
            "    http-response set-header X-Served-By %[srv_name]\n"
            f"{servers}\n"
        )
        exe = shutil.which("haproxy")
        if exe is None:
            raise ToolMissing("haproxy")
        cmd = [exe, "-f", str(conf), "-db"]
        for i in range(self.balancer_count):
            name = "haproxy" if i == 0 else f"haproxy{i}"
            log = self.root / f"{name}.log"
            self.balancers.append(Node(name, cmd, dict(os.environ), log).start())
        self.balancer = self.balancers[0]
        wait_until(lambda: _http_ok(self.url + "/healthz/"), 30, "haproxy")

    def revive(self, timeout: float = 60) -> None:
        """Start again every web node and worker that is not running (after a kill), on the
        same address and port, and wait until the balancer sends to every web node again."""
        for node in [*self.webs, *self.workers]:
            if not node.running:
                node.start()
        for web in self.webs:
            url = web.env["BA_NODE_URL"]
            wait_until(lambda u=url: _http_ok(u + "/healthz/"), timeout, web.name)  # type: ignore[misc]
        if self.balancer is not None:
            # HAProxy's check (every 500 ms, one success to rise) has seen them up.
            time.sleep(1.5)

    @property
    def url(self) -> str:
        """Where clients go: the balancer, else the first web node."""
        if self.balancer is not None:
            return f"http://127.0.0.1:{self.balancer_port}"
        return self.webs[0].env["BA_NODE_URL"]

    def web_url(self, i: int) -> str:
        return self.webs[i].env["BA_NODE_URL"]

    # --- stopping ----------------------------------------------------------------------
    def close(self) -> None:
        for node in [*self.balancers, *self.webs, *self.workers]:
            node.stop(timeout=10)
        self.redis.stop()
        self.postgres.stop("immediate")
        for space in self.spaces:
            space.remove()
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def logs(self) -> str:
        """The tails of every process's log (for a failure's report)."""
        nodes: list[Any] = [*self.webs, *self.workers, self.redis.node]
        parts = [f"--- {n.name}\n{n.log(1500)}" for n in nodes]
        with contextlib.suppress(OSError):
            parts.append(
                "--- postgres\n" + self.postgres.log_path.read_text(errors="replace")[-1500:]
            )
        return "\n".join(parts)
