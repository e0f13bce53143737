"""Choosing the site's language: the browser's first, the switcher, the account's own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import Player
from tests.factories import PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "no <html lang>"
    return found.group(1)


def test_a_first_visit_speaks_the_browsers_language(client: Client) -> None:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="sv-SE,sv;q=0.9,en;q=0.5").content.decode()
    assert html_lang(html) == "sv"
    assert ">Regler<" in html and ">Rules<" not in html


def test_a_browser_in_no_language_of_ours_gets_english(client: Client) -> None:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()
    assert html_lang(html) == "en" and ">Rules<" in html


def test_every_page_lists_its_alternates_in_each_language(client: Client) -> None:
    html = client.get("/ladder/?page=2", HTTP_ACCEPT_LANGUAGE="lt").content.decode()
    for code, _ in settings.LANGUAGES:
        assert f'hreflang="{code}" href="http://testserver/ladder/?page=2&amp;lang={code}"' in html
    assert 'hreflang="x-default" href="http://testserver/ladder/?page=2"' in html


def test_a_lang_link_shows_that_language_without_changing_the_choice(client: Client) -> None:
    html = client.get("/?lang=gu", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert html_lang(html) == "gu" and "નિયમો" in html
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()) == "sv"


def test_the_switcher_sets_the_language_and_returns_to_the_page(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "lt", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "lt"
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert html_lang(html) == "lt" and ">Taisyklės<" in html


def test_the_switcher_is_a_form_that_works_without_scripts(client: Client) -> None:
    html = client.get("/rules/?x=1").content.decode()
    form = re.search(r'<form method="post" action="/i18n/setlang/".*?</form>', html, re.S)
    assert form, "no switcher form in the top bar"
    text = form.group(0)
    assert 'name="csrfmiddlewaretoken"' in text and 'type="submit"' in text
    assert 'name="next" value="/rules/?x=1"' in text
    for code, name in settings.LANGUAGES:
        assert f'<option value="{code}" lang="{code}"' in text and name in text


def test_the_switcher_remembers_the_choice_on_the_account(client: Client) -> None:
    player = PlayerFactory(name="Sofia")
    client.force_login(player.user)
    client.post(reverse("set_language"), {"language": "gu", "next": "/"})
    player.refresh_from_db()
    assert player.language == "gu"


def test_an_unknown_language_changes_nothing(client: Client) -> None:
    player = PlayerFactory(name="Olle", language="sv")
    client.force_login(player.user)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    player.refresh_from_db()
    assert player.language == "sv"


def test_logging_in_brings_back_the_accounts_language(client: Client) -> None:
    player = PlayerFactory(name="Rasa", language="lt")
    response = client.post(
        reverse("login"),
        {"username": player.user.username, "password": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "lt"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()) == "lt"
    # Signed out, the browser keeps speaking it.
    client.post(reverse("logout"))
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()) == "lt"


def test_an_account_without_a_language_keeps_the_one_it_logs_in_with(client: Client) -> None:
    player = PlayerFactory(name="Kiran")
    assert player.language == ""
    client.post(
        reverse("login"),
        {"username": player.user.username, "password": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="gu",
    )
    player.refresh_from_db()
    assert player.language == "gu"


def test_signing_up_stores_the_language_of_the_page(client: Client) -> None:
    client.post(
        reverse("signup"),
        {"username": "greta", "password1": PASSWORD, "password2": PASSWORD, "name": "Greta"},
        HTTP_ACCEPT_LANGUAGE="sv",
    )
    assert Player.objects.get(name="Greta").language == "sv"
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "Välkommen till klubben, Greta!" in html


def test_the_gujarati_font_is_served_by_the_site_with_its_licence(client: Client) -> None:
    from django.contrib.staticfiles import finders

    css = Path(str(finders.find("css/site.css"))).read_text(encoding="utf-8")
    fonts = re.findall(r'url\("\.\./fonts/([^"]+)"\)', css)
    assert fonts and all(finders.find(f"fonts/{name}") for name in fonts)
    assert "U+0A80-0AFF" in css
    licence = Path(str(finders.find("fonts/OFL.txt"))).read_text(encoding="utf-8")
    assert "SIL Open Font License" in licence
