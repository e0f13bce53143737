"""The house bots: hosted bots of each built-in strategy, owned by a system user, so a
newcomer can start a game against three bots by name."""

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

HOUSE_USER = "house"
HOUSE_BOTS = [
    ("house-random", "random", "Plays a random legal card or bid."),
    ("house-heuristic", "heuristic", "Bids from an estimate of its tricks and plays sensibly."),
    ("house-heuristic-2", "heuristic", "A second heuristic bot, for full tables of house bots."),
    ("house-strong", "strong", "Determinized search within a time budget per move."),
]


def create_house_bots(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    User = apps.get_model(app_label, model_name)
    Player = apps.get_model("accounts", "Player")
    Bot = apps.get_model("bots", "Bot")
    owner, _ = User.objects.get_or_create(
        username=HOUSE_USER, defaults={"password": make_password(None), "is_active": False}
    )
    for name, strategy, description in HOUSE_BOTS:
        player = Player.objects.filter(name__iexact=name).first()
        if player is None:
            player = Player.objects.create(name=name, is_bot=True, owner=owner)
        elif not player.is_bot or player.owner_id != owner.pk:
            continue  # the name belongs to someone else; never take it over
        Bot.objects.get_or_create(
            player=player,
            defaults={
                "kind": "hosted",
                "strategy": strategy,
                "params": {},
                "description": description,
            },
        )


def remove_house_bots(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("accounts", "Player")
    Player.objects.filter(
        name__in=[name for name, _, _ in HOUSE_BOTS], owner__username=HOUSE_USER, seats__isnull=True
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0001_initial"),
        ("accounts", "0001_player"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create_house_bots, remove_house_bots)]
