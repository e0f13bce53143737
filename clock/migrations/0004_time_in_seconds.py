"""Time controls in seconds (one minute to 14 days a move, a bank of up to 30 days)."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import migrations, models
from django.db.models import F


def days_to_seconds(apps, schema_editor):  # type: ignore[no-untyped-def]
    GameClock = apps.get_model("clock", "GameClock")
    GameClock.objects.update(
        seconds_per_move=F("days_per_move") * 86400, bank_seconds=F("reserve_days") * 86400
    )


def seconds_to_days(apps, schema_editor):  # type: ignore[no-untyped-def]
    GameClock = apps.get_model("clock", "GameClock")
    for clock in GameClock.objects.all():
        clock.days_per_move = min(14, max(1, round(clock.seconds_per_move / 86400)))
        clock.reserve_days = min(30, clock.bank_seconds // 86400)
        clock.save(update_fields=["days_per_move", "reserve_days"])


class Migration(migrations.Migration):
    dependencies = [("clock", "0003_claim_notices")]

    operations = [
        migrations.AddField(
            model_name="gameclock",
            name="seconds_per_move",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="gameclock",
            name="bank_seconds",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The bank each seat starts the game with.",
                validators=[MaxValueValidator(2592000)],
            ),
        ),
        migrations.RunPython(days_to_seconds, seconds_to_days),
        migrations.RemoveConstraint(model_name="gameclock", name="clock_days_per_move_range"),
        migrations.RemoveField(model_name="gameclock", name="days_per_move"),
        migrations.RemoveField(model_name="gameclock", name="reserve_days"),
        migrations.AlterField(
            model_name="gameclock",
            name="seconds_per_move",
            field=models.PositiveIntegerField(
                validators=[MinValueValidator(60), MaxValueValidator(1209600)]
            ),
        ),
        migrations.AddConstraint(
            model_name="gameclock",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("seconds_per_move__gte", 60), ("seconds_per_move__lte", 1209600)
                ),
                name="clock_seconds_per_move_range",
            ),
        ),
    ]
