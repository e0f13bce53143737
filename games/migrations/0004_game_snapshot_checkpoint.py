# The snapshot becomes the engine's plain-data checkpoint (JSON) instead of a pickle.
# bytea cannot be cast to jsonb, and the column is only a cache (a missing snapshot means a
# replay of the move log), so the old column is dropped and a new one added.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_game_snapshot_seq"),
    ]

    operations = [
        migrations.RemoveField(model_name="game", name="snapshot"),
        migrations.AddField(
            model_name="game",
            name="snapshot",
            field=models.JSONField(
                blank=True,
                editable=False,
                help_text="The engine's plain-data checkpoint as of move snapshot_seq (a cache; "
                "see games.statecache).",
                null=True,
            ),
        ),
        migrations.RunSQL(
            "UPDATE games_game SET snapshot_seq = NULL", reverse_sql=migrations.RunSQL.noop
        ),
    ]
