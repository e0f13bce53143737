"""What of a page is still English: the catalog's English strings found in its visible text.

For a language, every message whose translation differs from its English (so the English
would be a leftover, not a word both languages share) is cut at its placeholders and markup
into fixed pieces of English; a page's visible text (names taken out) must contain none of
them as whole words.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from tests.backalley_site.test_catalogs import DOMAINS, catalog, entries

# English words that are also words of the language, spelt the same (Swedish "en bots
# namn", a bot's name): not leftovers.
SHARED_WORDS = {"sv": {"bots"}, "lt": set[str](), "gu": set[str]()}
# Keys named as printed on the keyboard, in every language ("keys: ← → and Enter"): the
# same word as a message of its own ("Enter" an event) is translated, the key is not.
KEY_NAMES = {"Enter"}

_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|%%|<[^>]+>|&[a-z]+;")


def _pieces(text: str) -> list[str]:
    out = []
    for piece in _PLACEHOLDER.split(text):
        piece = piece.strip(" .,:;()–—-·«»?!\"'“”„")
        if len(re.findall(r"[A-Za-z]", piece)) >= 4:
            out.append(piece)
    return out


@cache
def english_pieces(lang: str) -> tuple[str, ...]:
    found: set[str] = set()
    for domain in DOMAINS:
        for e in entries(Path(catalog(lang, domain))):
            msgid = e.get("msgid", "")
            if not msgid:
                continue
            translated = [v for k, v in e.items() if k.startswith("msgstr")]
            ids = [msgid, e.get("msgid_plural", "")]
            for english in filter(None, ids):
                if english in translated:
                    continue  # the same in both languages ("API", "Arena")
                # A piece the translation keeps as it is (a file name, a header, a scope
                # name) is not a leftover.
                found.update(
                    piece
                    for piece in _pieces(english.replace('\\"', '"'))
                    if not any(piece in t for t in translated)
                )
    found -= SHARED_WORDS.get(lang, set()) | KEY_NAMES
    return tuple(sorted(found, key=len, reverse=True))


def english_left(text: str, lang: str, names: list[str]) -> list[str]:
    """The English pieces of the catalog found in ``text`` (after taking ``names`` out)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return [
        piece
        for piece in english_pieces(lang)
        if re.search(r"(?<![\w])" + re.escape(piece) + r"(?![\w])", text)
    ]
