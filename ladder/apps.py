from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        # Rate each rated game once it has finished (a consumer of the games app's events);
        # show a finished game's rating changes with it, and on its record page (games never
        # imports us).
        from games import extensions
        from ladder import hooks, personal_data, selectors
        from ladder.parts import ratings_part

        hooks.install()
        personal_data.install()  # the rating, in the archive (kept on deletion)
        extensions.register_game_part("ratings", ratings_part)
        extensions.register_page_part("ratings", selectors.game_changes)
