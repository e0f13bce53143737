"""The documents say what the code does: the README's engine commands run as written, and
every setting, environment variable, ``make`` target, ``manage.py`` command and path of the
site that the README and docs/ name exists.

What counts as a name (the patterns below, so a new document is checked as it is written):

- a setting or environment variable: an all-capitals name with an underscore in backticks,
  `` `GAMES_PAGE_POLL_WAIT` `` or `` `DJANGO_DEBUG=true` ``, a family `` `LIVE_*` ``, or
  ``NAME=value`` at the start of a line of a code block. It must be set or read in
  ``backalley_site/settings.py`` (``NAME = …``, ``NAME[…] = …``, ``env("NAME")``,
  ``os.environ["NAME"]``); one that is not a setting must be a constant of the code (an
  assigned name or an all-capitals string in a Python module), or one of :data:`OTHERS`;
- a ``make`` target: `` `make <target>` `` in backticks, or ``make <target>`` starting a line;
- a management command: ``manage.py <command>``;
- a path of the site: `` `/api/v1/games/{id}/claim/` `` (a method before it allowed) under
  one of the site's first segments; it must resolve.
"""

from __future__ import annotations

import ast
import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "engine" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SETTINGS = ROOT / "backalley_site" / "settings.py"

# Names the docs cite that belong to other programs.
OTHERS = {
    "FORWARDED_ALLOW_IPS": "uvicorn's own setting (docs/security.md)",
    "TYPE_CHECKING": "typing.TYPE_CHECKING (docs/layers.md)",
    "CAP_NET_ADMIN": "the Linux capability network namespaces need (docs/deployment.md)",
}

_CAPS = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
NAME_IN_BACKTICKS = re.compile(rf"`({_CAPS})(_\*)?(?:=[^`]*)?`")
NAME_IN_CODE = re.compile(rf"^\s*(?:export\s+)?({_CAPS})=", re.M)
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
MAKE = re.compile(r"(?:`|^\s*)make ([a-z][a-z0-9-]*)", re.M)  # in backticks, or a command line
MANAGE = re.compile(r"\bmanage\.py ([a-z][a-z0-9_]*)")


def _text(doc: Path) -> str:
    return doc.read_text(encoding="utf-8")


def named(pattern: re.Pattern[str]) -> dict[str, list[str]]:
    """What ``pattern`` captures in the docs -> the documents naming it."""
    found: dict[str, list[str]] = {}
    for doc in DOCS:
        for name in sorted(set(pattern.findall(_text(doc)))):
            found.setdefault(name, []).append(doc.name)
    return found


@cache
def settings_names() -> frozenset[str]:
    """What settings.py sets (at any indent) and every environment variable it reads."""
    src = SETTINGS.read_text(encoding="utf-8")
    names = set(re.findall(rf"^\s*({_CAPS}|[A-Z][A-Z0-9]+)\s*(?::[^=\n]*)?=(?!=)", src, re.M))
    names |= set(re.findall(r"^\s*([A-Z][A-Z0-9_]*)\[", src, re.M))
    names |= set(re.findall(r'env(?:\.[a-z_]+)?\(\s*"([A-Z][A-Z0-9_]*)"', src))
    names |= set(re.findall(r'os\.environ(?:\.get)?[(\[]\s*"([A-Z][A-Z0-9_]*)"', src))
    return frozenset(names)


@cache
def code_constants() -> frozenset[str]:
    """Every name assigned, and every all-capitals string, in the project's Python modules."""
    found: set[str] = set()
    for path in ROOT.rglob("*.py"):
        if {".venv", "var", "node_modules"} & set(path.relative_to(ROOT).parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        found.add(target.id)
                    elif isinstance(target, ast.Attribute):
                        found.add(target.attr)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(_CAPS, node.value)
            ):
                found.add(node.value)
    return frozenset(found)


def named_settings() -> dict[str, list[str]]:
    """name (a family ends in "_*") -> the documents naming it."""
    names: dict[str, list[str]] = {}
    for doc in DOCS:
        text = _text(doc)
        found = {m.group(1) + (m.group(2) or "") for m in NAME_IN_BACKTICKS.finditer(text)}
        for block in FENCE.findall(text):
            found |= set(NAME_IN_CODE.findall(block))
        for name in found:
            names.setdefault(name, []).append(doc.name)
    return names


def test_the_docs_name_settings_at_all() -> None:
    names = named_settings()
    assert {"GAMES_PAGE_POLL_WAIT", "DATABASE_URL", "CELERY_BROKER_URL"} <= set(names)
    assert any(name.startswith("LIVE_") for name in names)


def test_every_setting_or_variable_the_docs_name_exists() -> None:
    settings, constants = settings_names(), code_constants()
    missing = []
    for name, docs in sorted(named_settings().items()):
        if name.endswith("_*"):
            if not any(s.startswith(name[:-1]) for s in settings):
                missing.append(f"{name} (no setting of that family) in {docs}")
        elif name not in settings and name not in constants and name not in OTHERS:
            missing.append(f"{name} in {docs}")
    assert missing == [], "named in the docs, set or read nowhere: " + "; ".join(missing)


def test_every_variable_of_env_example_is_read_by_the_settings() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    variables = re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", example, re.M)
    assert "DATABASE_URL" in variables
    assert sorted(set(variables) - settings_names()) == []


@cache
def make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return frozenset(re.findall(r"^([a-z][a-z0-9-]*):", text, re.M))


def test_every_make_target_the_docs_name_exists() -> None:
    targets = named(MAKE)
    assert {"run", "test", "test-fast"} <= set(targets)
    assert {t: d for t, d in targets.items() if t not in make_targets()} == {}


@pytest.mark.django_db
def test_every_management_command_the_docs_name_exists() -> None:
    from django.core.management import get_commands

    commands = named(MANAGE)
    assert "verify_games" in commands
    known = get_commands()
    assert {c: d for c, d in commands.items() if c not in known} == {}


def readme_engine_commands(readme: Path) -> list[str]:
    """A README's engine command lines, as written (``… -m backalley_engine …``)."""
    return [
        line.strip()
        for block in FENCE.findall(_text(readme))
        for line in block.splitlines()
        if "-m backalley_engine" in line
    ]


@pytest.mark.parametrize("readme", ["README.md", "engine/README.md"])
def test_the_readmes_engine_commands_run_as_written(readme: str, tmp_path: Path) -> None:
    lines = readme_engine_commands(ROOT / readme)
    assert [shlex.split(line, comments=True)[3] for line in lines] == [
        "selfplay",
        "validate",
        "deal",
    ]
    seed = "ab" * 32
    out = []
    for line in lines:
        # The one placeholder the README leaves to the reader; the python of this checkout.
        command = line.replace("<64-hex seed>", seed)
        command = re.sub(r"^(\.venv/bin/python|python)\b", lambda _: sys.executable, command)
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail; {command}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, (line, done.stderr)
        out.append(done.stdout)
    records = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(records) == 100  # selfplay --games 100
    assert "100 of 100 records valid" in out[1]
    assert out[2].startswith(f"seed {seed}") and "deal 1 attempt 0" in out[2]


PATH_IN_BACKTICKS = re.compile(
    r"`(?:(?:GET|POST|PUT|PATCH|DELETE)(?: ?/ ?(?:GET|POST|PUT|PATCH|DELETE))* )?(/[^`\s]*)`"
)


@pytest.mark.django_db
def test_every_path_of_the_site_the_docs_name_is_served() -> None:
    """A path in backticks under one of the site's own first segments (``/api/…``,
    ``/games/…``) resolves, its placeholders (``{id}``, ``<name>``) filled in; a path
    elided with "…" and one relative to another (``/faults/``) are left alone."""
    from django.urls import Resolver404, get_resolver, resolve

    def walk(patterns: list[Any], prefix: str = "") -> list[str]:
        out = []
        for p in patterns:
            here = prefix + str(p.pattern)
            out += walk(p.url_patterns, here) if hasattr(p, "url_patterns") else [here]
        return out

    served = walk(get_resolver().url_patterns)
    first = {s.split("/")[0] for s in served} - {""}
    wrong = []
    checked = 0
    for doc in DOCS:
        for path in PATH_IN_BACKTICKS.findall(_text(doc)):
            if "…" in path or "..." in path or path.strip("/").split("/")[0] not in first:
                continue
            concrete = re.sub(r"\{[^}]*\}|<[^>]*>", "1", re.split(r"[?#]", path)[0])
            checked += 1
            try:
                resolve(concrete)
            except Resolver404:
                # A prefix of served paths ("/api/v1/") names them all.
                if not (path.endswith("/") and any(s.startswith(path[1:]) for s in served)):
                    wrong.append(f"{path} in {doc.name}")
    assert checked > 20
    assert wrong == []


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_every_link_between_documents_leads_to_a_file_of_the_repository() -> None:
    broken = []
    for doc in DOCS:
        for target in LINK.findall(_text(doc)):
            if re.match(r"[a-z]+:|#", target):
                continue  # a web address, or a place in the same document
            path = (doc.parent / target.split("#")[0]).resolve()
            if not path.exists() or ROOT not in path.parents:
                broken.append(f"{target} in {doc.name}")
    assert broken == []
