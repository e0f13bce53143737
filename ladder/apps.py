from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Rate each rated game once it has finished (the hook runs after commit).
        from ladder import hooks

        hooks.install()
