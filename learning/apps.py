from django.apps import AppConfig


class LearningConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "learning"

    def ready(self) -> None:
        # Imports only point down: games announces, learning listens (games/signals.py).
        from games.hooks import register_result_panel
        from games.panels import table_panel_register
        from games.signals import seat_observed
        from learning import receivers

        seat_observed.connect(receivers.seat_observations_record, dispatch_uid="learning.seat")
        table_panel_register(receivers.table_prompts_panel)
        register_result_panel(receivers.daily_result_panel)
