from django.apps import AppConfig


class BotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = "Bots"

    def ready(self) -> None:
        # Connect the games app's post-commit move hook to the bot scheduler.
        from bots import hooks

        hooks.install()
