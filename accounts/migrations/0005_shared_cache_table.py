"""The database cache's table (``CACHES`` falls back to it when no Redis cache is named).

A migration rather than a separate ``createcachetable`` step, so that ``make run``,
docker-compose's ``migrate`` and every test database get it without anyone remembering.
It does nothing when the configured caches keep no table (a Redis cache).
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_player_retired_at")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
