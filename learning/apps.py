from django.apps import AppConfig


class LearningConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "learning"

    def ready(self) -> None:
        # Imports only point down: games announces, learning listens (games/signals.py).
        from games.panels import table_panel_register
        from games.signals import game_finished, seat_observed
        from learning import receivers
        from learning.picker import assignments_source_register

        seat_observed.connect(receivers.seat_observation_record, dispatch_uid="learning.seat")
        game_finished.connect(receivers.game_summaries_refresh, dispatch_uid="learning.summaries")
        table_panel_register(receivers.table_prompts_panel)
        assignments_source_register(receivers.picker_assignments)
