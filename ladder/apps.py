from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Rate each rated game once it has finished (the hook runs after commit).
        from games import extensions
        from ladder import hooks
        from ladder.parts import ratings_part

        hooks.install()
        extensions.register_game_part("ratings", ratings_part)
