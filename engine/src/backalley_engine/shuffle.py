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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from backalley_engine.cards import BB, LB
from backalley_engine.errors import BadSeed

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


def uniform(next_u32: Callable[[], int], k: int) -> int:
    """uniform(k) of docs/rules.md §9 on a source of u32s: draws at or above the limit
    2**32 - (2**32 mod k) are rejected, so there is no modulo bias.

    >>> uniform(iter([2**32 - 1, 2**32 - 2]).__next__, 3) == (2**32 - 2) % 3
    True
    """
    limit = (1 << 32) - ((1 << 32) % k)
    while True:
        u = next_u32()
        if u < limit:
            return u % k


class _Stream:
    """HMAC-SHA256(seed, label ‖ counter) blocks read as big-endian u32s."""

    __slots__ = ("_mac", "_label", "_counter", "_buf", "_pos")

    def __init__(self, key: bytes | HmacKey, label: bytes) -> None:
        self._mac = key if isinstance(key, HmacKey) else HmacKey(key)
        self._label = label
        self._counter = 0
        self._buf: tuple[int, ...] = ()
        self._pos = 8

    def next_u32(self) -> int:
        if self._pos == 8:
            block = self._mac.block(self._label + self._counter.to_bytes(4, "big"))
            self._counter += 1
            self._buf = _U32X8.unpack(block)
            self._pos = 0
        u = self._buf[self._pos]
        self._pos += 1
        return u

    def uniform(self, k: int) -> int:
        return uniform(self.next_u32, k)


def first_dealer(seed_hex: str) -> int:
    """The first dealer: uniform(4) on the stream labelled ``first-dealer``."""
    return _Stream(check_seed(seed_hex), b"first-dealer").uniform(4)


# No draw u < _SAFE is ever rejected: every limit 2**32 - (2**32 mod k), k = 2..54, is above.
_SAFE: Final = min((1 << 32) - ((1 << 32) % k) for k in range(2, 55))
_BLOCKS: Final = 7  # 56 u32s: 53 draws almost never need an eighth block
_U32X56: Final = struct.Struct(">56I")


def _deck(key: bytes | HmacKey, deal_number: int, attempt: int, fast: bool = True) -> list[int]:
    """The Fisher-Yates pass of docs/rules.md §9 on the stream ``deal:d:a``.

    The hot part of a deal: the first seven blocks are read in one batch, and when none of
    their draws can be rejected (nearly always) u mod k is taken directly. Otherwise (or
    with ``fast=False``) the stream is read draw by draw through :func:`uniform`; both
    paths give the same deck.
    """
    mac = key if isinstance(key, HmacKey) else HmacKey(key)
    label = f"deal:{deal_number}:{attempt}".encode("ascii")
    deck = list(range(54))
    if fast:
        vals: tuple[int, ...] = _U32X56.unpack(mac.stream(label, _BLOCKS))
        if max(vals[:53]) < _SAFE:
            for i in range(53, 0, -1):
                j = vals[53 - i] % (i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            return deck
    stream = _Stream(mac, label)
    for i in range(53, 0, -1):
        j = stream.uniform(i + 1)
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


def deal_hands(
    deck: list[int], dealer: int, hand_size: int
) -> tuple[tuple[int, int, int, int], int, JokerSwap | None]:
    """The hands (bitmasks, after any joker swap), the upcard and the swap of a deal: cards
    go one at a time clockwise from the dealer's left, deck[4n] is the upcard, and in a
    no-trump deal the holder of the other joker swaps it for deck[4n + 1] (rules §2, §3)."""
    n4 = 4 * hand_size
    bits = _BITS.__getitem__
    k = 3 - dealer  # seat (dealer + 1 + i) % 4 receives deck[i]: seat 0 gets every 4th from k % 4
    hands = [
        sum(map(bits, deck[k % 4 : n4 : 4])),
        sum(map(bits, deck[(k + 1) % 4 : n4 : 4])),
        sum(map(bits, deck[(k + 2) % 4 : n4 : 4])),
        sum(map(bits, deck[(k + 3) % 4 : n4 : 4])),
    ]
    upcard = deck[n4]
    swap: JokerSwap | None = None
    if upcard >= LB:
        other = LB + BB - upcard
        for seat in range(4):
            if hands[seat] >> other & 1:
                drawn = deck[n4 + 1]
                hands[seat] ^= (1 << other) | (1 << drawn)
                swap = JokerSwap(seat, other, drawn)
    return (hands[0], hands[1], hands[2], hands[3]), upcard, swap


def deal_tuple(
    deck: list[int], dealer: int, hand_size: int
) -> tuple[
    tuple[int, int, int, int], int, int | None, JokerSwap | None, tuple[tuple[int, ...], ...]
]:
    """:func:`deal_from_deck` as a plain tuple (hands, upcard, trump, swap, order)."""
    hands, upcard, swap = deal_hands(deck, dealer, hand_size)
    n4 = 4 * hand_size
    k = 3 - dealer
    order = [deck[(k + s) % 4 : n4 : 4] for s in range(4)]
    if swap is not None:
        held = order[swap.seat]
        held[held.index(swap.discarded)] = swap.drawn
    trump = None if upcard >= LB else upcard // 13
    return hands, upcard, trump, swap, (*map(tuple, order),)


def deal_cards(seed_hex: str, deal_number: int, attempt: int, dealer: int) -> DealtCards:
    """Deal ``deal_number`` attempt ``attempt`` of a seeded game, dealt by ``dealer``."""
    return deal_from_deck(
        _deck(check_seed(seed_hex), deal_number, attempt), dealer, hand_size_of(deal_number)
    )


def hand_size_of(deal_number: int) -> int:
    """13, 12, ..., 2, 1, 2, ..., 13 for deals 1..25."""
    return abs(13 - deal_number) + 1
