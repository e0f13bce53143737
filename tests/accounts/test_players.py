"""Players: names, people and bots, and player_for_user."""

import pytest
from django.db import IntegrityError, transaction

from accounts.models import Player
from accounts.selectors import player_get_by_name
from accounts.services import bot_player_create, player_create, player_for_user
from backalley_site.errors import DomainError
from tests.factories import BotPlayerFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_player_for_user_creates_once_and_returns_the_same_player() -> None:
    user = UserFactory(username="alice")
    first = player_for_user(user)
    second = player_for_user(user)
    assert first.pk == second.pk
    assert first.name == "alice"
    assert not first.is_bot and first.user == user and first.owner is None
    assert Player.objects.filter(name__iexact="alice").count() == 1


def test_player_for_user_avoids_a_taken_name_ignoring_case() -> None:
    PlayerFactory(name="Alice")
    player = player_for_user(UserFactory(username="alice"))
    assert player.name == "alice-2"


def test_player_for_user_makes_a_valid_name_from_an_odd_username() -> None:
    player = player_for_user(UserFactory(username="a@b"))
    assert player.name == "abplayer"


def test_player_for_user_refuses_anonymous() -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(DomainError) as err:
        player_for_user(AnonymousUser())
    assert err.value.code == "not_authenticated"


def test_player_names_are_unique_ignoring_case() -> None:
    PlayerFactory(name="Dealer")
    user = UserFactory()
    with pytest.raises(DomainError) as err:
        player_create(user=user, name="dEALER")
    assert err.value.code == "name_taken" and err.value.http_status == 409
    assert not Player.objects.filter(user=user).exists()


def test_the_database_enforces_case_insensitive_uniqueness() -> None:
    PlayerFactory(name="Dealer")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="DEALER", user=UserFactory())


@pytest.mark.parametrize("name", ["ab", "x" * 31, "has space", "émile", "semi;colon", ""])
def test_malformed_names_are_refused(name: str) -> None:
    before = Player.objects.count()
    with pytest.raises(DomainError) as err:
        player_create(user=UserFactory(), name=name)
    assert err.value.code == "invalid_name"
    assert Player.objects.count() == before


@pytest.mark.parametrize("name", ["abc", "x" * 30, "A_b-9"])
def test_well_formed_names_are_accepted(name: str) -> None:
    assert player_create(user=UserFactory(), name=name).name == name


def test_a_user_has_at_most_one_person_player() -> None:
    user = UserFactory()
    player_create(user=user, name="first")
    with pytest.raises(DomainError) as err:
        player_create(user=user, name="second")
    assert err.value.code == "player_exists"


def test_bots_have_an_owner_and_no_user() -> None:
    owner = UserFactory()
    bot = bot_player_create(owner=owner, name="Robo")
    assert bot.is_bot and bot.user is None and bot.owner == owner
    assert str(bot) == "Robo (bot)"
    assert list(owner.bot_players.all()) == [bot]


def test_the_database_refuses_a_bot_without_owner_or_a_person_without_user() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="orphan", is_bot=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="nobody", is_bot=False)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="both", is_bot=True, user=UserFactory(), owner=UserFactory())


def test_player_get_by_name_ignores_case_and_raises_not_found() -> None:
    bot = BotPlayerFactory(name="Clever")
    assert player_get_by_name("clever") == bot
    with pytest.raises(DomainError) as err:
        player_get_by_name("nobody")
    assert err.value.code == "not_found" and err.value.http_status == 404


def test_player_admin_pages_load(admin_client) -> None:  # type: ignore[no-untyped-def]
    PlayerFactory(name="Listed")
    assert admin_client.get("/admin/accounts/player/").status_code == 200
    assert b"Listed" in admin_client.get("/admin/accounts/player/").content
    assert admin_client.get("/admin/accounts/player/add/").status_code == 200


def test_token_admin_hides_the_hash_and_revokes(admin_client) -> None:  # type: ignore[no-untyped-def]
    from tests.factories import ApiTokenFactory

    token = ApiTokenFactory(name="listed-token")
    listing = admin_client.get("/admin/accounts/apitoken/")
    assert listing.status_code == 200 and b"listed-token" in listing.content
    change = admin_client.get(f"/admin/accounts/apitoken/{token.pk}/change/")
    assert change.status_code == 200
    assert token.key_hash.encode() not in change.content
    assert admin_client.get("/admin/accounts/apitoken/add/").status_code == 403
    response = admin_client.post(
        "/admin/accounts/apitoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
