from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "learning.classroom"
    label = "classroom"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Classroom"

    def ready(self) -> None:
        """Plug the classroom into the layers below it (learning/classroom/hooks.py)."""
        from games import hooks as games_hooks
        from games.signals import game_finished, table_replayed
        from kanagame.accounts.links import signin_link_register
        from learning.classroom import hooks
        from learning.dashboard import dashboard_panel_register
        from learning.picker import assignments_source_register
        from learning.services.syllabus import syllabus_source_register

        games_hooks.register_lobby_panel(hooks.assignments_panel)
        games_hooks.register_result_panel(hooks.assignments_result_panel)
        assignments_source_register(hooks.picker_assignments)
        syllabus_source_register(hooks.class_syllabus)
        dashboard_panel_register(hooks.my_data_panel)
        for link in hooks.SIGNIN_LINKS:
            signin_link_register(link)
        game_finished.connect(hooks.refresh_after_game, dispatch_uid="classroom-summaries")
        table_replayed.connect(hooks.replay_linked, dispatch_uid="classroom-replay-link")
