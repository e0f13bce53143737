from django.apps import AppConfig


class ClockConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clock"
    verbose_name = "Correspondence clock"

    def ready(self) -> None:
        # Follow every game's turns through the games app's after-commit hooks.
        from clock import hooks

        hooks.install()
