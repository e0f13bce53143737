"""The translation catalogs (locale/): complete, current and compiled.

Every string the sources mark is in every catalog (``make messages`` would change
nothing), every message is translated and none is fuzzy, and each language has its own
plural rule (Lithuanian three forms, Swedish and Gujarati two).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("lt", "sv", "gu")
DOMAINS = ("django", "djangojs")
PLURALS = {"lt": 3, "sv": 2, "gu": 2}
# Build output and tools, never a source of messages.
SKIP = shutil.ignore_patterns(
    ".git", ".venv", "var", "test-output", "node_modules", "__pycache__", ".mypy_cache",
    ".ruff_cache", ".pytest_cache", ".hypothesis", "*.egg-info", "*.mo", "*.so",
)  # fmt: skip


def catalog(lang: str, domain: str, root: Path = ROOT) -> Path:
    return root / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


_LINE = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+"(.*)"$')


def entries(path: Path) -> list[dict[str, str]]:
    """The entries of a .po file as {keyword: text} (continued strings joined, flags kept)."""
    out: list[dict[str, str]] = []
    current: dict[str, str] = {}
    key = ""
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if current:
                out.append(current)
            current, key = {}, ""
            continue
        if line.startswith("#,"):
            current["flags"] = current.get("flags", "") + line[2:]
            continue
        if line.startswith("#"):
            continue
        match = _LINE.match(line)
        if match:
            key = match.group(1)
            current[key] = match.group(2)
        elif line.startswith('"') and key:
            current[key] += line[1:-1]
    return out


def message_keys(path: Path) -> set[tuple[str, str, str]]:
    return {
        (e.get("msgctxt", ""), e["msgid"], e.get("msgid_plural", ""))
        for e in entries(path)
        if e.get("msgid")
    }


def test_every_language_has_both_catalogs() -> None:
    for lang in LANGS:
        for domain in DOMAINS:
            assert catalog(lang, domain).is_file(), f"{catalog(lang, domain)} is missing"


def test_makemessages_leaves_no_new_or_changed_message(tmp_path: Path) -> None:
    """The catalogs hold exactly the strings the sources mark: run ``make messages``'s script
    on a copy of the tree and compare (run `make messages` and translate what it adds)."""
    require_service(
        shutil.which("xgettext") is not None and shutil.which("msgmerge") is not None,
        "GNU gettext (make gettext installs it)",
    )
    copy = tmp_path / "tree"
    shutil.copytree(ROOT, copy, ignore=SKIP)
    done = subprocess.run(
        ["bash", "scripts/messages.sh"],
        cwd=copy,
        env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for lang in LANGS:
        for domain in DOMAINS:
            ours, fresh = (
                message_keys(catalog(lang, domain)),
                message_keys(catalog(lang, domain, copy)),
            )
            new = sorted(fresh - ours)
            gone = sorted(ours - fresh)
            assert not new and not gone, (
                f"{lang}/{domain}.po is out of date (run `make messages` and translate): "
                f"new {new[:10]}, no longer used {gone[:10]}"
            )


def test_every_message_is_translated_and_none_is_fuzzy() -> None:
    for lang in LANGS:
        for domain in DOMAINS:
            path = catalog(lang, domain)
            for e in entries(path):
                if not e.get("msgid"):
                    assert "fuzzy" not in e.get("flags", ""), f"{path}: the header is fuzzy"
                    continue
                where = f"{path}: {e.get('msgctxt', '')!r} {e['msgid']!r}"
                assert "fuzzy" not in e.get("flags", ""), f"fuzzy: {where}"
                if e.get("msgid_plural"):
                    forms = [v for k, v in e.items() if k.startswith("msgstr[")]
                    assert len(forms) == PLURALS[lang], f"{len(forms)} plural forms: {where}"
                    assert all(forms), f"a plural form is untranslated: {where}"
                else:
                    assert e.get("msgstr"), f"untranslated: {where}"


def test_each_catalog_has_its_languages_plural_rule() -> None:
    for lang in LANGS:
        for domain in DOMAINS:
            header = next(e for e in entries(catalog(lang, domain)) if not e.get("msgid"))
            text = header.get("msgstr", "")
            assert f"Language: {lang}\\n" in text
            assert f"nplurals={PLURALS[lang]};" in text


def test_catalogs_compile_with_their_formats_checked() -> None:
    require_service(shutil.which("msgfmt") is not None, "GNU gettext (make gettext installs it)")
    for lang in LANGS:
        for domain in DOMAINS:
            done = subprocess.run(
                ["msgfmt", "--check", "-o", "/dev/null", str(catalog(lang, domain))],
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_named_placeholders_are_kept_in_every_translation(lang: str) -> None:
    """A translation uses exactly its message's %(name)s placeholders (a lost or misspelt
    one would raise, or drop a number, when the page is drawn)."""
    names = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")
    for domain in DOMAINS:
        for e in entries(catalog(lang, domain)):
            if not e.get("msgid"):
                continue
            wanted = {m for pair in names.findall(e["msgid"]) for m in pair if m}
            if e.get("msgid_plural"):
                wanted |= {m for pair in names.findall(e["msgid_plural"]) for m in pair if m}
                forms = [v for k, v in e.items() if k.startswith("msgstr[")]
            else:
                forms = [e.get("msgstr", "")]
            for form in forms:
                got = {m for pair in names.findall(form) for m in pair if m}
                # A plural form may leave out the count (Lithuanian "vienas" for 1, 21, …).
                assert got <= wanted and wanted - got <= {"count", "n"}, (
                    f"{lang}/{domain}: {e['msgid']!r} -> {form!r}"
                )
