"""The strong house bots search for 10 ms of CPU time per decision
(bots.brain.HOUSE_STRONG_PARAMS), the budget measured over whole games by bench/bots_house.py."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

PARAMS = {"samples": 1000, "time_budget": 0.01}
DESCRIPTION = "Determinized search, 10 ms of CPU time per decision."


def set_budget(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Bot = apps.get_model("bots", "Bot")
    Bot.objects.filter(player__is_house=True, strategy="strong").update(params=PARAMS)
    Bot.objects.filter(player__name="house-strong", player__is_house=True).update(
        description=DESCRIPTION
    )


def unset_budget(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Bot = apps.get_model("bots", "Bot")
    Bot.objects.filter(player__is_house=True, strategy="strong").update(params={})
    Bot.objects.filter(player__name="house-strong", player__is_house=True).update(
        description="Determinized search within a time budget per move."
    )


class Migration(migrations.Migration):
    dependencies = [("bots", "0004_arena")]

    operations = [migrations.RunPython(set_budget, unset_budget)]
