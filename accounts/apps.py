from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        # Registers the Bearer scheme with drf-spectacular.
        from accounts import (
            privacy,
            schema,  # noqa: F401
        )
        from accounts.credentials import connect

        connect()
        privacy.install()  # the account's own part of a person's data (last to be erased)
