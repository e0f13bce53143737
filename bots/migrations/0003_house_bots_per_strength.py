"""Three house bots of each strength (random, heuristic, strong), so one person can fill a
rated table with bots of the strength they choose."""

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

HOUSE_USER = "house"
MORE_HOUSE_BOTS = [
    ("house-random-2", "random", "A second random bot, for full tables of house bots."),
    ("house-random-3", "random", "A third random bot, for full tables of house bots."),
    ("house-heuristic-3", "heuristic", "A third heuristic bot, for full tables of house bots."),
    ("house-strong-2", "strong", "A second strong bot, for full tables of house bots."),
    ("house-strong-3", "strong", "A third strong bot, for full tables of house bots."),
]


def create_more_house_bots(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    User = apps.get_model(app_label, model_name)
    Player = apps.get_model("accounts", "Player")
    Bot = apps.get_model("bots", "Bot")
    owner, _ = User.objects.get_or_create(
        username=HOUSE_USER, defaults={"password": make_password(None), "is_active": False}
    )
    for name, strategy, description in MORE_HOUSE_BOTS:
        player = Player.objects.filter(name__iexact=name).first()
        if player is None:
            player = Player.objects.create(name=name, is_bot=True, owner=owner, is_house=True)
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


def remove_more_house_bots(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("accounts", "Player")
    Player.objects.filter(
        name__in=[name for name, _, _ in MORE_HOUSE_BOTS],
        owner__username=HOUSE_USER,
        seats__isnull=True,
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0002_house_bots"),
        ("accounts", "0003_player_is_house"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create_more_house_bots, remove_more_house_bots)]
