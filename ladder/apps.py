from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Rate each rated game once it has finished (a consumer of the games app's events),
        # and show a game's rating changes on its record page (games never imports us).
        from games import extensions
        from ladder import hooks, selectors

        hooks.install()
        extensions.register_page_part("ratings", selectors.game_changes)
