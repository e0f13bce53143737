"""House bots are system players: ``Player.is_house``, set on the club's own bots (the
players of the system user "house" that bots/migrations/0002_house_bots created)."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

HOUSE_USER = "house"
HOUSE_NAMES = ["house-random", "house-heuristic", "house-heuristic-2", "house-strong"]


def mark_house_bots(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Player = apps.get_model("accounts", "Player")
    Player.objects.filter(is_bot=True, owner__username=HOUSE_USER, name__in=HOUSE_NAMES).update(
        is_house=True
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_apitoken"),
        ("bots", "0002_house_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="is_house",
            field=models.BooleanField(
                default=False, help_text="One of the club's own bots (a system player)."
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(("is_house", False), ("is_bot", True), _connector="OR"),
                name="player_house_is_bot",
            ),
        ),
        migrations.RunPython(mark_house_bots, migrations.RunPython.noop),
    ]
