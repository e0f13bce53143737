"""Cards as small ints and hands as bitmasks (docs/rules.md §1).

A card is an int 0..53: ``suit * 13 + rank`` with suits S=0, H=1, D=2, C=3 and ranks
2=0 .. A=12; ``LB`` = 52 and ``BB`` = 53. A hand is an int whose bit ``c`` is set when card
``c`` is held. Within a trump suit the two jokers sit above the ace, so for any trump mask
"higher bit = higher card" holds — the engine relies on that for Blooper leads and for
trick winners.

>>> card_str(parse_card("10d"))
'TD'
>>> mask_to_cards(card_mask([parse_card("BB"), 0]))
[0, 53]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from backalley_engine.errors import CardParseError

SUITS: Final = "SHDC"
RANKS: Final = "23456789TJQKA"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
LB: Final = 52
BB: Final = 53
NUM_CARDS: Final = 54

SUIT_MASKS: Final[tuple[int, int, int, int]] = (
    0x1FFF,
    0x1FFF << 13,
    0x1FFF << 26,
    0x1FFF << 39,
)
JOKERS_MASK: Final = (1 << LB) | (1 << BB)
FULL_DECK_MASK: Final = (1 << NUM_CARDS) - 1
# The trump suit of a trump deal: the upcard's suit plus both jokers.
TRUMP_MASKS: Final[tuple[int, int, int, int]] = tuple(m | JOKERS_MASK for m in SUIT_MASKS)  # type: ignore[assignment]

_NAMES: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS) + ("LB", "BB")
_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(_NAMES)}

# mask -> card list, one 13-bit suit at a time (legal-move lists are built from these).
SUIT_LISTS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(s * 13 + r for r in range(13) if m >> r & 1) for m in range(1 << 13))
    for s in range(4)
)
JOKER_LISTS: Final[tuple[tuple[int, ...], ...]] = ((), (LB,), (BB,), (LB, BB))


def card_str(card: int) -> str:
    """Canonical text of a card: rank then suit (``"TD"``), or ``"LB"``/``"BB"``."""
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < NUM_CARDS:
        raise CardParseError(f"Not a card index: {card!r}.", {"card": repr(card)})
    return _NAMES[card]


def parse_card(text: str) -> int:
    """Parse a card; accepts ``10D`` and lower case, returns the card index.

    >>> parse_card("AS"), parse_card("10h"), parse_card("bb")
    (12, 21, 53)
    """
    if not isinstance(text, str):
        raise CardParseError("A card must be written as text, e.g. 'TD' or 'BB'.", {})
    key = text.strip().upper()
    if key.startswith("10") and len(key) == 3:
        key = "T" + key[2]
    card = _BY_NAME.get(key)
    if card is None:
        shown = text if len(text) <= 12 else text[:12] + "…"
        raise CardParseError(
            f"'{shown}' is not a card: write rank then suit (2-9, T, J, Q, K, A and "
            "S, H, D, C), e.g. 'TD', or 'BB'/'LB' for the Bloopers.",
            {"text": shown},
        )
    return card


def rank_of(card: int) -> int:
    """Rank 0 (two) .. 12 (ace); 13 for LB and 14 for BB."""
    return card % 13 if card < LB else 13 + card - LB


def is_joker(card: int) -> bool:
    return card >= LB


def card_mask(cards: Iterable[int]) -> int:
    """Bitmask of the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_to_cards(mask: int) -> list[int]:
    """Cards of a mask in ascending index order."""
    return [
        *SUIT_LISTS[0][mask & 0x1FFF],
        *SUIT_LISTS[1][mask >> 13 & 0x1FFF],
        *SUIT_LISTS[2][mask >> 26 & 0x1FFF],
        *SUIT_LISTS[3][mask >> 39 & 0x1FFF],
        *JOKER_LISTS[mask >> 52 & 3],
    ]


def cards_str(cards: Iterable[int]) -> list[str]:
    return [_NAMES[c] for c in cards]


def effective_suit(card: int, trump: int | None) -> int | None:
    """The suit a card counts as: jokers belong to the trump suit (None in a no-trump deal)."""
    if card >= LB:
        return trump
    return card // 13


def suit_name(suit: int | None) -> str:
    return ("spades", "hearts", "diamonds", "clubs")[suit] if suit is not None else "none"
