from django.apps import AppConfig


class BotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = "Bots"

    def ready(self) -> None:
        # Connect the games app's post-commit move hook to the bot scheduler.
        from bots import hooks
        from bots.arena import hooks as arena_hooks
        from bots.arena import tasks as arena_tasks  # noqa: F401 - registers the arena's tasks

        hooks.install()
        arena_hooks.install()
