"""Cleaning text that came from outside (a webhook's answer, an exception's message).

PostgreSQL refuses NUL in text columns, psycopg refuses lone surrogates, and control
characters in a log line or a message can forge lines or hide what follows. Text that did
not come from our own code passes through :func:`clean_text` before it is stored or shown.

>>> clean_text("AS\\x00\\x1b[2J\\ud800!", max_length=20)
'AS\\ufffd\\ufffd[2J\\ufffd!'
>>> clean_text("x" * 10, max_length=4)
'xxx…'
"""

from __future__ import annotations

import unicodedata

REPLACEMENT = "\ufffd"
# The control characters no header value or query may hold (HTTP allows tab in header
# values), as the body of a regex character class: the request checks use it on text and,
# encoded, on raw bytes, so both refuse the same characters.
CONTROL_IN_HEADER_CLASS = r"\x00-\x08\x0a-\x1f\x7f"
# Control characters (Cc), lone surrogates (Cs) and unassigned or private code points are
# replaced; format characters (Cf) such as bidirectional overrides can reorder what a person
# reads, so they go too.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Cf", "Co", "Cn"})


def clean_text(value: object, *, max_length: int, keep_newlines: bool = False) -> str:
    """``value`` as text safe to store and show: no control characters, at most ``max_length``."""
    text = value if isinstance(value, str) else _safe_str(value)
    # Never look at more than we could keep (a huge string costs nothing to refuse).
    text = text[: max_length * 2]
    kept = []
    for char in text:
        if keep_newlines and char == "\n":
            kept.append(char)
        elif unicodedata.category(char) in _REFUSED_CATEGORIES:
            kept.append(REPLACEMENT)
        else:
            kept.append(char)
    cleaned = "".join(kept)
    if len(cleaned) > max_length:
        cleaned = cleaned[: max_length - 1] + "…"
    return cleaned


def _safe_str(value: object) -> str:
    try:
        return str(value)
    except Exception:  # a broken __str__ must not break the caller that reports it
        return f"<{type(value).__name__}>"
