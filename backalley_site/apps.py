from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site itself, as an app: only for its management commands (``backup``,
    ``restore``); it has no models."""

    name = "backalley_site"
    label = "site"
    verbose_name = "Site"
