from django.apps import AppConfig


class ClockConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clock"
    verbose_name = "Correspondence clock"

    def ready(self) -> None:
        # Imported here: an app's models (and the modules that use them) load only once the
        # app registry is ready, which it is when ready() runs.
        # Follow every game's turns through the games app's durable events, show the running
        # deadline with each game, and own the time-control option (games never imports us).
        from clock import hooks, personal_data, presets, selectors, timecontrol, together
        from games import extensions

        hooks.install()
        together.install()  # "everyone is at your table", heard from the table pages' pings
        personal_data.install()  # notices, vacations; running seats to the house on deletion
        extensions.register_game_part("clock", selectors.clock_info)
        extensions.register_option("time_control", timecontrol.time_control_clean)
        extensions.register_option_choices("time_control", presets.form_choices)
        extensions.register_option_text("time_control", timecontrol.time_control_text)
