"""The engine's command line: selfplay, validate and deal."""

import io
import json
import subprocess
import sys
from pathlib import Path

from backalley_engine.cli import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_selfplay_writes_reproducible_valid_json_lines(tmp_path: Path) -> None:
    code, text = run("selfplay", "--games", "2", "--seed", "42")
    assert code == 0
    lines = text.splitlines()
    assert len(lines) == 2
    records = [json.loads(line) for line in lines]
    assert all(r["result"] is not None and r["seed"] for r in records)
    assert records[0]["seed"] != records[1]["seed"]
    assert run("selfplay", "--games", "2", "--seed", "42")[1] == text
    path = tmp_path / "games.jsonl"
    path.write_text(text)
    code, report = run("validate", str(path))
    assert code == 0 and "2 of 2 records valid" in report


def test_validate_prints_the_first_error_of_each_bad_record(tmp_path: Path) -> None:
    _, text = run("selfplay", "--games", "2", "--seed", "x")
    good, bad = (json.loads(line) for line in text.splitlines())
    deal = next(d for d in bad["deals"] if d["tricks"])
    deal["tricks"][0]["winner"] = (deal["tricks"][0]["winner"] + 1) % 4
    path = tmp_path / "games.json"
    path.write_text(json.dumps([good, bad]))  # a JSON list works as well as JSON Lines
    code, report = run("validate", str(path))
    assert code == 1
    assert (
        f"deal {deal['number']}" in report and "trick 0" in report and "wins this trick" in report
    )
    assert "1 of 2 records valid" in report


def test_validate_missing_file_fails() -> None:
    code, report = run("validate", "/nonexistent/records.jsonl")
    assert code == 2 and "cannot read" in report


def test_deal_lists_the_seeded_deals() -> None:
    code, text = run("deal", "00" * 32)
    assert code == 0
    assert "first dealer: seat 3" in text
    assert "deal 1 attempt 0: 13 cards, dealer seat 3, upcard 5C, trump C" in text
    assert "deal 25 attempt 0" in text
    code, text = run("deal", "nothex")
    assert code == 2


def test_module_entry_point_runs(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "backalley_engine", "deal", "ff" * 32],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and "deal 13 attempt 0: 1 cards" in out.stdout
