"""The verifiable seeded shuffle of docs/rules.md §9.

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
import struct
from dataclasses import dataclass
from operator import mod
from typing import Final

from games.engine.cards import BB, LB
from games.engine.errors import BadSeed

_BITS: Final = tuple(1 << c for c in range(54))
_HEX: Final = frozenset("0123456789abcdef")
_U32X8: Final = struct.Struct(">8I")


def check_seed(seed_hex: str) -> bytes:
    """The seed's 32 bytes; raises ``BadSeed`` unless it is 64 lowercase hex digits."""
    if not isinstance(seed_hex, str) or len(seed_hex) != 64 or not _HEX.issuperset(seed_hex):
        raise BadSeed("A seed is 64 lowercase hexadecimal digits.", {})
    return bytes.fromhex(seed_hex)


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed bytes, hex: published while the seed stays secret."""
    return hashlib.sha256(check_seed(seed_hex)).hexdigest()


class HmacKey:
    """HMAC-SHA256 with the key's pads hashed once: a game hashes seven blocks per deal."""

    __slots__ = ("inner", "outer")

    def __init__(self, key: bytes) -> None:
        padded = key.ljust(64, b"\0")
        self.inner = hashlib.sha256(bytes(b ^ 0x36 for b in padded))
        self.outer = hashlib.sha256(bytes(b ^ 0x5C for b in padded))

    def block(self, msg: bytes) -> bytes:
        i = self.inner.copy()
        i.update(msg)
        o = self.outer.copy()
        o.update(i.digest())
        return o.digest()

    def stream(self, label: bytes, blocks: int) -> bytes:
        """The first ``blocks`` blocks of the stream for ``label`` (docs/rules.md §9), joined."""
        base = self.inner.copy()
        base.update(label)
        outer = self.outer
        out = []
        for c in range(blocks):
            i = base.copy()
            i.update(c.to_bytes(4, "big"))
            o = outer.copy()
            o.update(i.digest())
            out.append(o.digest())
        return b"".join(out)


class _Stream:
    """HMAC-SHA256(seed, label ‖ counter) blocks read as big-endian u32s."""

    __slots__ = ("_mac", "_label", "_counter", "_buf", "_pos")

    def __init__(self, key: bytes, label: str) -> None:
        self._mac = HmacKey(key)
        self._label = label.encode("ascii")
        self._counter = 0
        self._buf: tuple[int, ...] = ()
        self._pos = 8

    def _next_u32(self) -> int:
        if self._pos == 8:
            block = self._mac.block(self._label + self._counter.to_bytes(4, "big"))
            self._counter += 1
            self._buf = _U32X8.unpack(block)
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


# uniform(k) rejects u >= limit(k); precomputed for the deck's k = 2..54.
_LIMITS: Final = tuple((1 << 32) - ((1 << 32) % k) if k else 0 for k in range(55))
_SAFE: Final = min(_LIMITS[2:])
_DOWN: Final = tuple(range(53, 0, -1))  # i = 53 .. 1
_DOWN_K: Final = tuple(i + 1 for i in _DOWN)  # uniform(i + 1)
_BLOCKS: Final = 7  # 56 u32s: 53 draws almost never need an eighth block
_U32X56: Final = struct.Struct(">56I")


def _deck(key: bytes | HmacKey, deal_number: int, attempt: int) -> list[int]:
    # The Fisher-Yates pass of §9, with the stream read in one batch (the hot part of a deal).
    mac = key if isinstance(key, HmacKey) else HmacKey(key)
    label = f"deal:{deal_number}:{attempt}".encode("ascii")
    block = mac.block
    vals: tuple[int, ...] = _U32X56.unpack(mac.stream(label, _BLOCKS))
    deck = list(range(54))
    if max(vals[:53]) < _SAFE:
        # No draw can be rejected (every limit is above _SAFE): take u mod k directly.
        for i, j in zip(_DOWN, map(mod, vals, _DOWN_K), strict=True):
            deck[i], deck[j] = deck[j], deck[i]
        return deck
    counter = _BLOCKS
    pos = 0
    limits = _LIMITS
    for i in range(53, 0, -1):
        k = i + 1
        while True:
            if pos == len(vals):
                vals = _U32X8.unpack(block(label + counter.to_bytes(4, "big")))
                counter += 1
                pos = 0
            u = vals[pos]
            pos += 1
            if u < limits[k]:
                break
        j = u % k
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
    return DealtCards(*deal_tuple(deck, dealer, hand_size))


def deal_tuple(
    deck: list[int], dealer: int, hand_size: int
) -> tuple[
    tuple[int, int, int, int], int, int | None, JokerSwap | None, tuple[tuple[int, ...], ...]
]:
    """:func:`deal_from_deck` as a plain tuple (hands, upcard, trump, swap, order)."""
    n4 = 4 * hand_size
    dealt = deck[:n4]
    # Seat (dealer + 1 + i) % 4 receives deck[i]: every 4th card from its first.
    k = 3 - dealer  # the offset of seat 0 in the dealing order, mod 4
    order = [
        dealt[k % 4 :: 4],
        dealt[(k + 1) % 4 :: 4],
        dealt[(k + 2) % 4 :: 4],
        dealt[(k + 3) % 4 :: 4],
    ]
    upcard = deck[n4]
    swap: JokerSwap | None = None
    trump: int | None = upcard // 13
    if upcard >= LB:
        trump = None
        other = LB + BB - upcard
        for seat in range(4):
            if other in order[seat]:
                drawn = deck[n4 + 1]
                order[seat][order[seat].index(other)] = drawn
                swap = JokerSwap(seat, other, drawn)
    bits = _BITS.__getitem__
    hands = (
        sum(map(bits, order[0])),
        sum(map(bits, order[1])),
        sum(map(bits, order[2])),
        sum(map(bits, order[3])),
    )
    return hands, upcard, trump, swap, (*map(tuple, order),)


def deal_cards(seed_hex: str, deal_number: int, attempt: int, dealer: int) -> DealtCards:
    """Deal ``deal_number`` attempt ``attempt`` of a seeded game, dealt by ``dealer``."""
    return deal_from_deck(
        _deck(check_seed(seed_hex), deal_number, attempt), dealer, hand_size_of(deal_number)
    )


def hand_size_of(deal_number: int) -> int:
    """13, 12, ..., 2, 1, 2, ..., 13 for deals 1..25."""
    return abs(13 - deal_number) + 1
