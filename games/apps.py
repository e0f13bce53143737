from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        from accounts.credentials import credentials_changed
        from backalley_site import metrics
        from games import hooks, outbox
        from games.live.publish import on_credentials_changed, on_game_event

        # Wake the clients waiting on a game's event feed after each start, move and end.
        hooks.on_game_started(on_game_event)
        hooks.on_move_committed(on_game_event)
        hooks.on_game_finished(on_game_event)
        hooks.on_game_called_off(on_game_event)
        # Forget the long polls' admissions when a token, a bot or an account changes.
        credentials_changed.connect(on_credentials_changed, dispatch_uid="live-admissions")
        # The outbox's backlog and lag, read at each scrape of /metrics.
        metrics.register_scrape("outbox", outbox.scrape_metrics)
        # A person's games in their archive; on deletion, their waiting games left.
        from games import personal_data

        personal_data.install()
