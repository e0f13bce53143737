"""The rules page in each language: chosen by the page's language, and the same rules.

Each language's page (templates/rules/<code>.html) is written in that language from the
sources' content, not translated line by line; what must not differ is the rules. So for
every section the test compares, with the English page (itself checked against
docs/rules.md), every number and every card written with its suit symbol: a rule left
out, or one whose count, limit or example changed, shows as a difference.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

LANGS = ("lt", "sv", "gu")
# Words that must appear in each page (docs/glossary.md): trump, trick, board, Bloopers.
TERMS = {
    "lt": ("koziri", "kirt", "lenta", "Didysis Blooperis", "Mažasis Blooperis"),
    "sv": ("trumf", "stick", "bräde", "Stora Bloopern", "Lilla Bloopern"),
    "gu": ("હુકમ", "હાથ", "બોર્ડ", "મોટો બ્લૂપર", "નાનો બ્લૂપર"),
}


def page(client: Client, lang: str) -> str:
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def sections(html: str) -> dict[str, str]:
    body = html.split('<article class="rules prose">', 1)[1].split("</article>", 1)[0]
    parts = re.split(r'<h2 id="([\w-]+)">', body)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def facts(text: str) -> Counter[str]:
    """The numbers and the cards (♠K, ♦3) of a section, markup left out."""
    plain = re.sub(r"<[^>]+>", " ", text)
    plain = re.sub(r"\{%.*?%\}", " ", plain)
    cards = re.findall(r"[♠♥♦♣](?:10|[2-9AKQJ])", plain)
    numbers = re.findall(r"\d+", re.sub(r"[♠♥♦♣](?:10|[2-9AKQJ])", " ", plain))
    return Counter(cards) + Counter(numbers)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_page_is_written_in_the_pages_language(client: Client, lang: str) -> None:
    html = page(client, lang)
    assert f'<html lang="{lang}">' in html
    english = page(client, "en")
    assert sections(html).keys() == sections(english).keys()
    for term in TERMS[lang]:
        assert term in html, term


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_keeps_its_numbers_and_cards(client: Client, lang: str) -> None:
    english = sections(page(client, "en"))
    ours = sections(page(client, lang))
    for section, text in english.items():
        assert facts(ours[section]) == facts(text), section


@pytest.mark.parametrize("lang", LANGS)
def test_house_rules_are_marked_as_in_english(client: Client, lang: str) -> None:
    count = 'class="house"'
    assert page(client, lang).count(count) == page(client, "en").count(count)
