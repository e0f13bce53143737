"""docker-compose.yml and the Dockerfile describe a service that can actually start.

No Docker needed: the files are parsed and every command is checked against the code.
"""

from __future__ import annotations

import importlib
import inspect
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from celery import Celery
from django.conf import settings
from django.test import Client
from django.urls import resolve

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, dict[str, Any]] = COMPOSE["services"]
APP_SERVICES = ["migrate", "web", "worker", "push-worker", "beat"]
# The game's work, and the notices that wait on outside services (push-worker's alone).
GAME_QUEUES = {"celery", "bots", "ratings", "clock", "events"}
NOTIFY_QUEUES = {"notify"}
QUEUES = GAME_QUEUES | NOTIFY_QUEUES


def argv(service: str) -> list[str]:
    command = SERVICES[service]["command"]
    return shlex.split(command) if isinstance(command, str) else [str(c) for c in command]


def option(args: list[str], name: str) -> str | None:
    """The value of ``--name=value`` or ``--name value`` (or its short form) in ``args``."""
    for i, arg in enumerate(args):
        if arg.startswith(f"{name}="):
            return arg.split("=", 1)[1]
        if arg == name and i + 1 < len(args):
            return args[i + 1]
    return None


def test_the_services_are_all_there() -> None:
    assert set(SERVICES) == {"postgres", "redis", *APP_SERVICES, "backup", "balancer"}
    assert SERVICES["postgres"]["image"].startswith("postgres:")
    assert SERVICES["redis"]["image"].startswith("redis:")


def test_application_services_share_one_image_built_from_the_dockerfile() -> None:
    images = {SERVICES[s]["image"] for s in APP_SERVICES}
    assert len(images) == 1
    for name in APP_SERVICES:
        build = SERVICES[name]["build"]
        assert (ROOT / build["context"] / build["dockerfile"]).is_file()


def test_application_services_get_their_database_and_broker_from_the_environment() -> None:
    pg = SERVICES["postgres"]["environment"]
    for name in APP_SERVICES:
        env = SERVICES[name]["environment"]
        db = env["DATABASE_URL"]
        assert db == (
            f"postgres://{pg['POSTGRES_USER']}:{pg['POSTGRES_PASSWORD']}@postgres:5432/"
            f"{pg['POSTGRES_DB']}"
        )
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
        assert env["DJANGO_DEBUG"] == "false"


def test_every_service_has_a_health_check_and_waits_for_healthy_dependencies() -> None:
    for name in ["postgres", "redis", "web", "worker", "push-worker", "beat"]:
        check = SERVICES[name]["healthcheck"]
        assert check["test"][0] in {"CMD", "CMD-SHELL"} and len(check["test"]) > 1, name
        assert check["interval"] and check["retries"] >= 1, name
    for name in APP_SERVICES:
        deps = SERVICES[name]["depends_on"]
        assert deps["postgres"]["condition"] == "service_healthy"
        assert deps["redis"]["condition"] == "service_healthy"
    for name in ["web", "worker", "push-worker", "beat"]:
        assert SERVICES[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        )


def test_migrate_runs_manage_py() -> None:
    args = argv("migrate")
    assert args[:3] == ["python", "manage.py", "migrate"]
    assert (ROOT / "manage.py").is_file()


ASGI_WORKER = "backalley_site.server.Worker"


def _asgi_server(args: list[str]) -> None:
    """gunicorn, with uvicorn workers, serving the project's ASGI application."""
    assert args[0] == "gunicorn"
    module, attr = args[1].split(":")
    assert module == "backalley_site.asgi"
    application = getattr(importlib.import_module(module), attr)
    assert inspect.iscoroutinefunction(application)  # ASGI: the site, the feed routed apart
    worker_class = option(args, "--worker-class") or option(args, "-k")
    assert worker_class == ASGI_WORKER
    worker_module, worker_name = worker_class.rsplit(".", 1)
    assert getattr(importlib.import_module(worker_module), worker_name)


def test_web_runs_gunicorn_with_uvicorn_workers_on_the_asgi_application() -> None:
    args = argv("web")
    _asgi_server(args)
    bind = option(args, "--bind")
    assert bind is not None
    port = bind.rsplit(":", 1)[1]
    assert port in [str(p) for p in SERVICES["web"]["expose"]]  # the balancer publishes it
    # Streams and long polls hold sockets: the web service may open many files.
    assert SERVICES["web"]["ulimits"]["nofile"]["soft"] >= 16384
    # gunicorn's --timeout is a uvicorn worker's heartbeat; the stream cap must still fit
    # the graceful stop (streams close themselves at once on a stop, see games/live/).
    assert int(option(args, "--graceful-timeout") or 30) >= 5


def test_web_pools_database_connections_under_asgi() -> None:
    env = SERVICES["web"]["environment"]
    assert env["DB_POOL"] == "true" and env["DB_CONN_MAX_AGE"] == "0"
    assert env["DATABASE_URL"] == SERVICES["worker"]["environment"]["DATABASE_URL"]


@pytest.mark.django_db
def test_the_web_health_check_probes_a_url_that_answers(client: Client) -> None:
    test = " ".join(SERVICES["web"]["healthcheck"]["test"])
    url = re.search(r"http://127\.0\.0\.1:(\d+)(/[^'\" ]*)", test)
    assert url and url.group(1) == option(argv("web"), "--bind").rsplit(":", 1)[1]
    assert resolve(url.group(2)).url_name == "healthz"
    response = client.get(url.group(2))
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.parametrize("service", ["worker", "push-worker", "beat"])
def test_celery_services_name_the_projects_celery_app(service: str) -> None:
    args = argv(service)
    assert args[0] == "celery"
    app_name = option(args, "--app") or option(args, "-A")
    assert app_name == "backalley_site"
    # `celery --app=backalley_site` finds `backalley_site.celery.app` (or `.app` on the package).
    package = importlib.import_module(app_name)
    app = getattr(package, "celery_app", None) or importlib.import_module(f"{app_name}.celery").app
    assert isinstance(app, Celery)
    assert ("beat" if service == "beat" else "worker") in args


def queues_of(service: str) -> set[str]:
    return set((option(argv(service), "--queues") or option(argv(service), "-Q")).split(","))


def test_the_workers_consume_every_queue_the_project_routes_to() -> None:
    assert queues_of("worker") == GAME_QUEUES
    assert queues_of("push-worker") == NOTIFY_QUEUES  # and nothing of the game's
    queues = queues_of("worker") | queues_of("push-worker")
    routed = {r["queue"] for r in getattr(settings, "CELERY_TASK_ROUTES", {}).values()}
    routed |= {
        e.get("options", {}).get("queue", "celery")
        for e in getattr(settings, "CELERY_BEAT_SCHEDULE", {}).values()
    }
    assert routed <= queues, f"queues nobody consumes: {sorted(routed - queues)}"


def test_pushes_and_mails_go_to_the_push_worker_which_runs_threads() -> None:
    """They wait on outside services: a hanging one holds a thread of push-worker's, never a
    slot of the worker's. Threads, since the push sender shares nothing between calls
    (pywebpush posts with ``requests`` itself, no session) and every try has a timeout of its
    own (the threads pool enforces no task time limit)."""
    from celery import current_app

    from push import sender

    router = current_app.amqp.router
    for name in ("push.tasks.push_turn", "push.tasks.push_notice", "clock.mail.send"):
        assert router.route({}, name)["queue"].name == "notify", name
    beat = {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    for name in ("clock.mail.send_due", "clock.mail.prune"):
        assert name in beat and router.route({}, name)["queue"].name == "notify", name
    args = argv("push-worker")
    assert option(args, "--pool") == "threads" and int(option(args, "--concurrency") or 0) >= 2
    assert sender.TIMEOUT_S > 0 and settings.EMAIL_TIMEOUT > 0
    assert "worker" in SERVICES["push-worker"]["command"]
    assert SERVICES["push-worker"]["image"] == SERVICES["worker"]["image"]


def test_the_dev_runner_consumes_the_same_queues() -> None:
    script = (ROOT / "scripts" / "run-dev.sh").read_text()
    assert set(re.search(r"--queues=([\w,]+)", script).group(1).split(",")) == QUEUES


def test_the_dev_runner_serves_the_site_with_the_same_asgi_server() -> None:
    script = (ROOT / "scripts" / "run-dev.sh").read_text().replace("\\\n", " ")
    line = next(ln for ln in script.splitlines() if ln.startswith('"$BIN/gunicorn"'))
    args = shlex.split(line.replace('"$BIN/gunicorn"', "gunicorn"))
    _asgi_server(args)
    assert "runserver" not in script


def test_the_dockerfile_installs_the_project_and_runs_the_asgi_server() -> None:
    text = (ROOT / "Dockerfile").read_text()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    assert lines[0].startswith("FROM python:3.1")
    for line in lines:
        if line.startswith("COPY ") and not line.startswith("COPY . "):
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source
    assert "pyproject.toml" in text
    assert "manage.py collectstatic" in text
    assert re.search(r"^USER \w+", text, re.M), "the image must not run as root"
    cmd = re.search(r"^CMD (\[.*\])", text, re.M)
    assert cmd
    _asgi_server([str(a) for a in yaml.safe_load(cmd.group(1))])
    # The image installs the runtime dependencies named in pyproject.toml, which must include
    # everything the processes above start.
    deps = " ".join(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"])
    for needed in [
        "gunicorn",
        "uvicorn",
        "uvicorn-worker",
        "celery",
        "psycopg[binary,pool]",
        "redis",
        "whitenoise",
        "django-environ",
    ]:
        assert needed in deps.lower(), needed


def test_the_docker_context_leaves_out_local_state() -> None:
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", ".venv", "var", ".env"} <= ignored


def test_the_server_leaves_the_client_address_to_django() -> None:
    """uvicorn must not rewrite the peer address from X-Forwarded-For: DJANGO_NUM_PROXIES
    alone decides which proxies to believe (throttles and the login lockout read it)."""
    from backalley_site.server import Worker

    assert Worker.CONFIG_KWARGS["proxy_headers"] is False


def test_each_node_counts_its_metrics_in_a_directory_of_its_own() -> None:
    """Prometheus' multiprocess mode: every process of a node writes to the node's own
    directory (a tmpfs), emptied when the node starts; the worker's endpoint is internal."""
    from backalley_site import gunicorn_conf

    for name in ("web", "worker", "push-worker"):
        folder = SERVICES[name]["environment"]["PROMETHEUS_MULTIPROC_DIR"]
        assert folder in SERVICES[name]["tmpfs"], name
    assert option(argv("web"), "--config") == "python:backalley_site.gunicorn_conf"
    assert callable(gunicorn_conf.on_starting) and callable(gunicorn_conf.child_exit)
    for name in ("worker", "push-worker"):  # the push failures are counted in push-worker
        worker = SERVICES[name]
        port = worker["environment"]["METRICS_WORKER_PORT"]
        assert port in [str(p) for p in worker["expose"]] and "ports" not in worker
    assert "METRICS_TOKEN" in SERVICES["web"]["environment"]


def test_the_backup_service_runs_the_backup_command_into_its_volume() -> None:
    backup = SERVICES["backup"]
    assert argv("backup") == ["python", "manage.py", "backup"]
    assert backup["profiles"] == ["ops"]  # run on demand (cron), never by `up`
    folder = backup["environment"]["BACKUP_DIR"]
    assert any(v.endswith(f":{folder}") for v in backup["volumes"])
    assert backup["image"] == SERVICES["web"]["image"]
    text = (ROOT / "Dockerfile").read_text()
    assert "postgresql-client-" in text  # pg_dump and pg_restore in the image
    assert f"postgres:{text.split('ARG PG_MAJOR=')[1].split()[0]}" == SERVICES["postgres"]["image"]


def test_the_balancer_fronts_every_web_replica_and_alone_publishes_the_port() -> None:
    """`--scale web=N --scale worker=M`: the web replicas publish no host port (they would
    clash); HAProxy, with the repository's config, finds each by Docker's DNS and checks it
    with the health URL; beat is never scaled (one schedule)."""
    balancer = SERVICES["balancer"]
    assert balancer["image"].startswith("haproxy:")
    assert "ports" not in SERVICES["web"] and "8000" in [str(p) for p in SERVICES["web"]["expose"]]
    assert [str(p) for p in balancer["ports"]] == ["8000:8000"]
    assert balancer["depends_on"]["web"]["condition"] == "service_healthy"
    source, target = balancer["volumes"][0].split(":")[:2]
    assert target == "/usr/local/etc/haproxy/haproxy.cfg"
    config = (ROOT / source).read_text()
    assert re.search(r"^\s*server-template web \d+ web:8000 check .*resolvers docker", config, re.M)
    assert "option httpchk GET /healthz/" in config
    resolve("/healthz/")
    # No balancer timeout cuts a stream short (docs/live.md: up to an hour).
    assert re.search(r"^\s*timeout server 1h$", config, re.M)
    assert re.search(r"^\s*timeout client 1h$", config, re.M)
    assert "option forwardfor" in config
    assert SERVICES["web"]["environment"]["DJANGO_NUM_PROXIES"] == "${DJANGO_NUM_PROXIES:-1}"
    head = (ROOT / "docker-compose.yml").read_text().split("\n\n")[0]
    assert "--scale web=N --scale worker=M" in head
    assert "deploy" not in SERVICES["beat"]  # no replicas for beat


def test_the_balancer_config_is_valid_haproxy() -> None:
    import shutil
    import subprocess

    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.skip("haproxy is not installed (make haproxy)")
    # Docker's resolver is not reachable here; the check needs only the syntax.
    done = subprocess.run(
        [haproxy, "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workers_dumps_are_in_the_volume_the_web_nodes_serve() -> None:
    folder = SERVICES["web"]["environment"]["GAMES_DUMP_DIR"]
    for name in ("web", "worker"):
        assert SERVICES[name]["environment"]["GAMES_DUMP_DIR"] == folder, name
        assert f"dumps:{folder}" in SERVICES[name]["volumes"], name
    assert "dumps" in COMPOSE["volumes"]
    # The image makes the folder, owned by its user, so the volume starts writable.
    assert f"mkdir -p {folder}" in (ROOT / "Dockerfile").read_text()
