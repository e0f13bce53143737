from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        # Learn of finished games (after commit) and show a game's event with the game.
        from tournaments import hooks, personal_data

        hooks.install()
        personal_data.install()  # their entries and events, in the archive and on deletion
