from django.apps import AppConfig


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "push"
    verbose_name = "Web Push"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        from push import hooks, personal_data

        personal_data.install()  # the devices, in the archive (no keys); dropped on deletion
        hooks.install()  # "your move" and the game's end, from the games' outbox
