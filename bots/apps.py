from django.apps import AppConfig


class BotsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = "Bots"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        # Connect the games app's post-commit move hook to the bot scheduler.
        from bots import hooks, personal_data
        from bots.arena import hooks as arena_hooks
        from bots.arena import tasks as arena_tasks  # noqa: F401 - registers the arena's tasks

        hooks.install()
        arena_hooks.install()
        personal_data.install()  # the bots, in the archive; removed on deletion
        _declare_metrics()


def _declare_metrics() -> None:
    """The bots' series, exported at 0 before the first (backalley_site.metrics)."""
    # Called from ready() (see there).
    from backalley_site import metrics
    from bots.models import BotKind, FaultKind

    for kind in FaultKind.values:
        metrics.WEBHOOK_FAILURES.labels(kind=kind)
    for kind in (BotKind.HOSTED, BotKind.WEBHOOK):
        metrics.BOT_TURN_LATENCY.labels(kind=kind)
