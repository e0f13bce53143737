from django.apps import AppConfig


class DaylongConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "daylong"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        # Learn of finished games (through the outbox) and show a table's event with the game.
        from daylong import hooks, personal_data

        hooks.install()
        personal_data.install()  # their entries, in the archive
