"""The verifiable seeded shuffle of RULES.md §9.

Every deal is a pure function of the seed: ``deal_deck(seed, d, a)`` is the deck of deal
number d, attempt a; ``deal_cards`` deals it (§2), turns the upcard and makes the joker swap
of a no-trump deal (§3). The engine never makes seeds.

>>> commitment("00" * 32)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> first_dealer("00" * 32)
3
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from dataclasses import dataclass

from games.engine.cards import BB, LB
from games.engine.errors import BadSeed

_HEX = frozenset("0123456789abcdef")
_U32X8 = struct.Struct(">8I")


def check_seed(seed_hex: str) -> bytes:
    """The seed's 32 bytes; raises ``BadSeed`` unless it is 64 lowercase hex digits."""
    if not isinstance(seed_hex, str) or len(seed_hex) != 64 or not _HEX.issuperset(seed_hex):
        raise BadSeed("A seed is 64 lowercase hexadecimal digits.", {})
    return bytes.fromhex(seed_hex)


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed bytes, hex: published while the seed stays secret."""
    return hashlib.sha256(check_seed(seed_hex)).hexdigest()


class _Stream:
    """HMAC-SHA256(seed, label ‖ counter) blocks read as big-endian u32s."""

    __slots__ = ("_mac", "_label", "_counter", "_buf", "_pos")

    def __init__(self, key: bytes, label: str) -> None:
        self._mac = hmac.new(key, digestmod=hashlib.sha256)
        self._label = label.encode("ascii")
        self._counter = 0
        self._buf: tuple[int, ...] = ()
        self._pos = 8

    def _next_u32(self) -> int:
        if self._pos == 8:
            mac = self._mac.copy()
            mac.update(self._label + self._counter.to_bytes(4, "big"))
            self._counter += 1
            self._buf = _U32X8.unpack(mac.digest())
            self._pos = 0
        u = self._buf[self._pos]
        self._pos += 1
        return u

    def uniform(self, k: int) -> int:
        limit = (1 << 32) - ((1 << 32) % k)
        while True:
            u = self._next_u32()
            if u < limit:
                return u % k


def first_dealer(seed_hex: str) -> int:
    """The first dealer: uniform(4) on the stream labelled ``first-dealer``."""
    return _Stream(check_seed(seed_hex), "first-dealer").uniform(4)


def _deck(key: bytes, deal_number: int, attempt: int) -> list[int]:
    stream = _Stream(key, f"deal:{deal_number}:{attempt}")
    deck = list(range(54))
    uniform = stream.uniform
    for i in range(53, 0, -1):
        j = uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_deck(seed_hex: str, deal_number: int, attempt: int) -> list[int]:
    """The shuffled deck of deal ``deal_number`` (1..25), attempt ``attempt`` (0, 1, ...)."""
    return _deck(check_seed(seed_hex), deal_number, attempt)


@dataclass(frozen=True, slots=True)
class JokerSwap:
    """In a no-trump deal the holder of the other joker discards it and draws a card."""

    seat: int
    discarded: int
    drawn: int


@dataclass(frozen=True, slots=True)
class DealtCards:
    """What a deal gives: hands as held when bidding begins (after any joker swap)."""

    hands: tuple[int, int, int, int]  # bitmasks
    upcard: int
    trump: int | None
    swap: JokerSwap | None
    order: tuple[tuple[int, ...], ...]  # each hand in the order dealt (a drawn card replaces)


def deal_from_deck(deck: list[int], dealer: int, hand_size: int) -> DealtCards:
    """Deal one card at a time clockwise from the dealer's left; turn deck[4n]; swap a joker."""
    n = hand_size
    order: list[list[int]] = [[], [], [], []]
    for i in range(4 * n):
        order[(dealer + 1 + i) % 4].append(deck[i])
    upcard = deck[4 * n]
    swap: JokerSwap | None = None
    trump: int | None = upcard // 13
    if upcard >= LB:
        trump = None
        other = LB + BB - upcard
        for seat in range(4):
            if other in order[seat]:
                drawn = deck[4 * n + 1]
                order[seat][order[seat].index(other)] = drawn
                swap = JokerSwap(seat, other, drawn)
    masks = [0, 0, 0, 0]
    for seat in range(4):
        for c in order[seat]:
            masks[seat] |= 1 << c
    return DealtCards(
        (masks[0], masks[1], masks[2], masks[3]),
        upcard,
        trump,
        swap,
        tuple(tuple(h) for h in order),
    )


def deal_cards(seed_hex: str, deal_number: int, attempt: int, dealer: int) -> DealtCards:
    """Deal ``deal_number`` attempt ``attempt`` of a seeded game, dealt by ``dealer``."""
    return deal_from_deck(
        _deck(check_seed(seed_hex), deal_number, attempt), dealer, hand_size_of(deal_number)
    )


def hand_size_of(deal_number: int) -> int:
    """13, 12, ..., 2, 1, 2, ..., 13 for deals 1..25."""
    return abs(13 - deal_number) + 1
