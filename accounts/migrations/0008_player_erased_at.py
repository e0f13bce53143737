from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_player_autoplay"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="erased_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
