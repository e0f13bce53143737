"""The site shell: home, sign-up, log in, log out, the API tokens page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, Player
from accounts.tokens import token_find
from tests.factories import PASSWORD, ApiTokenFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_home_page_for_a_visitor(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("home") == "/"
    assert "<title>Home · Back Alley Club</title>" in html
    for label in ["Home", "Ladder", "API docs", "Log in", "Sign up"]:
        assert f">{label}<" in html, label
    assert "My games" not in html and "Log out" not in html
    assert 'href="/static/css/site.css"' in html
    assert 'name="viewport"' in html


def test_home_page_for_a_member_shows_their_name_and_log_out(client: Client) -> None:
    player = PlayerFactory(name="Ace_of_Spades")
    client.force_login(player.user)
    html = client.get("/").content.decode()
    assert "Ace_of_Spades" in html
    assert "My games" in html and "Log out" in html and ">Log in<" not in html


def test_the_stylesheet_exists_and_is_small() -> None:
    from django.contrib.staticfiles import finders

    path = finders.find("css/site.css")
    assert path, "static/css/site.css is missing"
    text = Path(path).read_text(encoding="utf-8")
    assert "@media" in text and len(text) < 20_000


def test_sign_up_creates_user_and_player_and_logs_in(client: Client) -> None:
    assert client.get(reverse("signup")).status_code == 200
    response = client.post(
        reverse("signup"),
        {"username": "erin", "password1": PASSWORD, "password2": PASSWORD, "name": "Erin-9"},
    )
    assert response.status_code == 302 and response["Location"] == "/"
    user = get_user_model().objects.get(username="erin")
    assert user.player.name == "Erin-9" and not user.player.is_bot
    home = client.get("/").content.decode()
    assert "Erin-9" in home and "Welcome to the club" in home


def test_sign_up_follows_a_safe_next_only(client: Client) -> None:
    data = {"username": "fay", "password1": PASSWORD, "password2": PASSWORD, "name": "Fay"}
    response = client.post(reverse("signup") + "?next=/ladder/", data)
    assert response["Location"] == "/ladder/"
    client.logout()
    data = {"username": "gus", "password1": PASSWORD, "password2": PASSWORD, "name": "Gus"}
    response = client.post(reverse("signup") + "?next=https://evil.example/", data)
    assert response["Location"] == "/"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"username": "hal", "password1": PASSWORD, "password2": PASSWORD, "name": "a b"}, "name"),
        (
            {"username": "hal", "password1": PASSWORD, "password2": PASSWORD, "name": "TAKEN"},
            "name",
        ),
        (
            {"username": "HOLDER", "password1": PASSWORD, "password2": PASSWORD, "name": "Hal"},
            "username",
        ),
        (
            {"username": "hal", "password1": PASSWORD, "password2": "other", "name": "Hal"},
            "password2",
        ),
        ({"username": "hal", "password1": "123", "password2": "123", "name": "Hal"}, "password2"),
        ({"username": "hal", "password1": PASSWORD, "password2": PASSWORD}, "name"),
    ],
)
def test_sign_up_errors_show_on_the_form_and_write_nothing(
    client: Client, data: dict[str, str], field: str
) -> None:
    PlayerFactory(name="taken", user=UserFactory(username="holder"))
    users, players = get_user_model().objects.count(), Player.objects.count()
    response = client.post(reverse("signup"), data)
    assert response.status_code == 200
    assert response.context["form"].errors.get(field), response.context["form"].errors
    assert 'class="errorlist"' in response.content.decode()
    assert (get_user_model().objects.count(), Player.objects.count()) == (users, players)
    assert "_auth_user_id" not in client.session


def test_a_member_visiting_sign_up_goes_home(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get(reverse("signup"))["Location"] == "/"


def test_log_in_and_log_out(client: Client) -> None:
    player = PlayerFactory(name="Lou")
    page = client.get(reverse("login"))
    assert page.status_code == 200 and b'name="password"' in page.content
    bad = client.post(reverse("login"), {"username": player.user.username, "password": "nope"})
    assert bad.status_code == 200 and b"errorlist" in bad.content
    response = client.post(
        reverse("login"), {"username": player.user.username, "password": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Lou" in client.get("/").content.decode()
    assert client.get(reverse("logout")).status_code == 405  # log out is a POST (CSRF-safe)
    assert client.post(reverse("logout")).status_code == 302
    assert ">Log in<" in client.get("/").content.decode()


def test_login_keeps_next(client: Client) -> None:
    player = PlayerFactory()
    response = client.post(
        reverse("login"),
        {"username": player.user.username, "password": PASSWORD, "next": "/ladder/"},
    )
    assert response["Location"] == "/ladder/"


def test_the_log_out_button_is_a_form_with_a_csrf_token(client: Client) -> None:
    client.force_login(PlayerFactory().user)
    html = client.get("/").content.decode()
    form = re.search(r'<form method="post" action="/accounts/logout/".*?</form>', html, re.S)
    assert form and "csrfmiddlewaretoken" in form.group(0)


def test_tokens_page_needs_a_login(client: Client) -> None:
    response = client.get(reverse("account-tokens"))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_make_a_token_on_the_site_shows_it_once(client: Client) -> None:
    player = PlayerFactory()
    client.force_login(player.user)
    response = client.post(reverse("account-tokens"), {"name": "laptop", "scopes": ["read"]})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    secret = re.search(r'id="new-token">(bac_[^<]+)<', response.content.decode()).group(1)
    token = token_find(secret)
    assert token is not None and token.user == player.user and token.scopes == ["read"]
    again = client.get(reverse("account-tokens")).content.decode()
    assert secret not in again and token.prefix in again


def test_bad_token_form_is_400_and_writes_nothing(client: Client) -> None:
    client.force_login(PlayerFactory().user)
    response = client.post(reverse("account-tokens"), {"name": "", "scopes": ["admin"]})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_revoke_a_token_on_the_site(client: Client) -> None:
    token = ApiTokenFactory(user=PlayerFactory().user)
    client.force_login(token.user)
    response = client.post(reverse("account-token-revoke", args=[token.pk]))
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert "revoked" in client.get(reverse("account-tokens")).content.decode()


def test_revoking_someone_elses_token_on_the_site_changes_nothing(client: Client) -> None:
    other = ApiTokenFactory()
    client.force_login(PlayerFactory().user)
    client.post(reverse("account-token-revoke", args=[other.pk]))
    other.refresh_from_db()
    assert other.revoked_at is None


def test_an_unknown_page_is_a_html_404_in_the_site_layout(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "Page not found" in html and ">Ladder<" in html


def test_the_account_page_turns_auto_play_off_and_on(client: Client) -> None:
    player = PlayerFactory()
    assert player.autoplay is True  # on by default
    client.force_login(player.user)
    page = client.get(reverse("account-tokens")).content.decode()
    assert re.search(r'<input type="checkbox" name="autoplay" id="id_autoplay" checked>', page)
    off = client.post(reverse("account-autoplay"), {})  # an unticked box is left out
    assert off.status_code == 302 and off["Location"] == reverse("account-tokens")
    player.refresh_from_db()
    assert player.autoplay is False
    page = client.get(reverse("account-tokens")).content.decode()
    assert 'id="id_autoplay">' in page and "play your forced cards and bids yourself" in page
    client.post(reverse("account-autoplay"), {"autoplay": "on"})
    player.refresh_from_db()
    assert player.autoplay is True
    assert client.get(reverse("account-autoplay")).status_code == 405


def test_auto_play_switch_needs_a_login(client: Client) -> None:
    response = client.post(reverse("account-autoplay"), {"autoplay": "on"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
