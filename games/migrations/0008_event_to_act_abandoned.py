from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0007_premoves_auto_moves")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="to_act_abandoned",
            field=models.BooleanField(default=False),
        ),
    ]
