"""A person enters a bot of theirs in a daylong from the event's page, starts its stages
there and watches its table; a bot that is not theirs is refused with nothing written. The
section reads in every language and fits a 390 px phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from bots.house import house_bots_ensure
from daylong.models import Entry, Table, TableStatus
from tests.daylong.helpers import eagerly, event, hosted_bot
from tests.factories import PlayerFactory
from tests.web.english import english_left
from tests.web.layout import PHONE, check_layout

pytestmark = pytest.mark.django_db(transaction=True)

LOCALES = {"lt": "lt-LT", "sv": "sv-SE", "gu": "gu-IN"}


@pytest.fixture
def house() -> None:
    house_bots_ensure()


def test_a_person_enters_their_bot_and_starts_its_stages_from_the_page(house: None) -> None:
    me = PlayerFactory()
    bot = hosted_bot(owner=me.user)
    ev = event(pool_size=1)
    c = Client()
    c.force_login(me.user)
    page = c.get(f"/daylong/{ev.pk}/").content.decode()
    assert 'id="my-bots"' in page and f"Enter {bot.name}" in page

    r = c.post(f"/daylong/{ev.pk}/enter/", {"bot": bot.name}, follow=True)
    assert f"{bot.name} is entered" in r.content.decode()
    assert list(Entry.objects.filter(event=ev).values_list("player_id", flat=True)) == [bot.pk]
    assert "Start stage 1" in r.content.decode()
    assert 'id="enter"' in r.content.decode()  # the person has not entered: their own button

    with eagerly():  # the hosted bot plays its stage by itself, the scoring on commit
        r = c.post(f"/daylong/{ev.pk}/play/", {"bot": bot.name})
    assert r.status_code == 302 and r["Location"].startswith("/games/")
    table = Table.objects.select_related("game").get(entry__player=bot)
    assert r["Location"] == f"/games/{table.game.public_id}/"
    assert table.status == TableStatus.FINISHED and table.board.number == 1
    assert c.get(r["Location"]).status_code == 200  # the owner watches the bot's table
    page = c.get(f"/daylong/{ev.pk}/").content.decode()
    assert "Start stage 2" in page
    assert not Entry.objects.filter(event=ev, player=me).exists()


def test_a_bot_that_is_not_yours_is_refused_with_nothing_written(house: None) -> None:
    me, other = PlayerFactory(), PlayerFactory()
    theirs = hosted_bot(owner=other.user)
    ev = event(pool_size=1)
    c = Client()
    c.force_login(me.user)
    page = c.get(f"/daylong/{ev.pk}/").content.decode()
    assert theirs.name not in page and 'id="my-bots"' not in page  # no bots: no section
    r = c.post(f"/daylong/{ev.pk}/enter/", {"bot": theirs.name}, follow=True)
    assert f"You have no bot called &#x27;{theirs.name}&#x27;" in r.content.decode()
    assert not Entry.objects.filter(event=ev).exists()
    services_entered = hosted_bot(owner=other.user)
    c2 = Client()
    c2.force_login(other.user)
    c2.post(f"/daylong/{ev.pk}/enter/", {"bot": services_entered.name})
    r = c.post(f"/daylong/{ev.pk}/play/", {"bot": services_entered.name}, follow=True)
    assert "You have no bot called" in r.content.decode()
    assert not Table.objects.filter(entry__event=ev).exists()


def _visible_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText + ' ' + document.title"))


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "lt", "sv", "gu"])
def test_the_bots_section_fits_a_phone_in_every_language(
    browser: Any, live_server: Any, house: None, lang: str
) -> None:
    me = PlayerFactory()
    ev = event(title="Phone stages for bots", pool_size=1)
    bots = [hosted_bot(owner=me.user) for _ in range(3)]
    with eagerly():
        c = Client()
        c.force_login(me.user)
        c.post(f"/daylong/{ev.pk}/enter/", {"bot": bots[1].name})
        c.post(f"/daylong/{ev.pk}/enter/", {"bot": bots[2].name})
        c.post(f"/daylong/{ev.pk}/play/", {"bot": bots[2].name})
    options: dict[str, Any] = dict(PHONE)
    if lang != "en":
        options["locale"] = LOCALES[lang]
    ctx = browser.new_context(**options)
    ctx.add_cookies(
        [{"name": "sessionid", "value": c.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = ctx.new_page()
    page.goto(f"{live_server.url}/daylong/{ev.pk}/")
    page.wait_for_selector("#my-bots")
    assert page.locator("#my-bots li").count() == 3
    check_layout(page, f"daylong bots ({lang}, phone)")
    if lang != "en":
        names = [b.name for b in bots] + [me.name, ev.title]
        assert not english_left(_visible_text(page), lang, names)
    ctx.close()
