"""The game's own words, as the pages show them in the active language (docs/glossary.md).

Card faces keep their symbols; their names (for screen readers, titles and the news line)
are whole phrases per card, since the languages build them differently (Lithuanian puts
the suit first in the genitive, Gujarati agrees it with the rank's gender).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

# fmt: off
CARD_NAMES: dict[str, Promise] = {
    "AS": pgettext_lazy("card", "ace of spades"),
    "KS": pgettext_lazy("card", "king of spades"),
    "QS": pgettext_lazy("card", "queen of spades"),
    "JS": pgettext_lazy("card", "jack of spades"),
    "TS": pgettext_lazy("card", "ten of spades"),
    "9S": pgettext_lazy("card", "nine of spades"),
    "8S": pgettext_lazy("card", "eight of spades"),
    "7S": pgettext_lazy("card", "seven of spades"),
    "6S": pgettext_lazy("card", "six of spades"),
    "5S": pgettext_lazy("card", "five of spades"),
    "4S": pgettext_lazy("card", "four of spades"),
    "3S": pgettext_lazy("card", "three of spades"),
    "2S": pgettext_lazy("card", "two of spades"),
    "AH": pgettext_lazy("card", "ace of hearts"),
    "KH": pgettext_lazy("card", "king of hearts"),
    "QH": pgettext_lazy("card", "queen of hearts"),
    "JH": pgettext_lazy("card", "jack of hearts"),
    "TH": pgettext_lazy("card", "ten of hearts"),
    "9H": pgettext_lazy("card", "nine of hearts"),
    "8H": pgettext_lazy("card", "eight of hearts"),
    "7H": pgettext_lazy("card", "seven of hearts"),
    "6H": pgettext_lazy("card", "six of hearts"),
    "5H": pgettext_lazy("card", "five of hearts"),
    "4H": pgettext_lazy("card", "four of hearts"),
    "3H": pgettext_lazy("card", "three of hearts"),
    "2H": pgettext_lazy("card", "two of hearts"),
    "AD": pgettext_lazy("card", "ace of diamonds"),
    "KD": pgettext_lazy("card", "king of diamonds"),
    "QD": pgettext_lazy("card", "queen of diamonds"),
    "JD": pgettext_lazy("card", "jack of diamonds"),
    "TD": pgettext_lazy("card", "ten of diamonds"),
    "9D": pgettext_lazy("card", "nine of diamonds"),
    "8D": pgettext_lazy("card", "eight of diamonds"),
    "7D": pgettext_lazy("card", "seven of diamonds"),
    "6D": pgettext_lazy("card", "six of diamonds"),
    "5D": pgettext_lazy("card", "five of diamonds"),
    "4D": pgettext_lazy("card", "four of diamonds"),
    "3D": pgettext_lazy("card", "three of diamonds"),
    "2D": pgettext_lazy("card", "two of diamonds"),
    "AC": pgettext_lazy("card", "ace of clubs"),
    "KC": pgettext_lazy("card", "king of clubs"),
    "QC": pgettext_lazy("card", "queen of clubs"),
    "JC": pgettext_lazy("card", "jack of clubs"),
    "TC": pgettext_lazy("card", "ten of clubs"),
    "9C": pgettext_lazy("card", "nine of clubs"),
    "8C": pgettext_lazy("card", "eight of clubs"),
    "7C": pgettext_lazy("card", "seven of clubs"),
    "6C": pgettext_lazy("card", "six of clubs"),
    "5C": pgettext_lazy("card", "five of clubs"),
    "4C": pgettext_lazy("card", "four of clubs"),
    "3C": pgettext_lazy("card", "three of clubs"),
    "2C": pgettext_lazy("card", "two of clubs"),
    "BB": pgettext_lazy("card", "Big Blooper"),
    "LB": pgettext_lazy("card", "Little Blooper"),
}
# fmt: on


def card_name(code: str) -> str:
    """The card's name in the active language: "ten of diamonds", "Big Blooper"."""
    return str(CARD_NAMES[code])


def card_names() -> dict[str, str]:
    """Every card's name in the active language (the table's script names cards by it)."""
    return {code: str(name) for code, name in CARD_NAMES.items()}


def suit_name(suit: str) -> str:
    """A suit's name on its own ("hearts"), as in "Trump: hearts"."""
    return {
        "S": pgettext("suit", "spades"),
        "H": pgettext("suit", "hearts"),
        "D": pgettext("suit", "diamonds"),
        "C": pgettext("suit", "clubs"),
    }[suit]


def board_words(level: int) -> str:
    """A board bid by its level: single, double, triple, quadruple board."""
    names = {
        1: _("single board"),
        2: _("double board"),
        3: _("triple board"),
        4: _("quadruple board"),
    }
    return names.get(level) or _("board ×%(level)s") % {"level": level}
