from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "learning.classroom"
    label = "classroom"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Classroom"

    def ready(self) -> None:
        """Plug the classroom into the layers below it (learning/classroom/hooks.py)."""
        from django.db.models.signals import post_delete

        from games import hooks as games_hooks
        from games.signals import game_finished
        from kanagame.accounts.links import signin_link_register
        from learning.classroom import hooks
        from learning.classroom.models import Assignment, Classroom
        from learning.dashboard import dashboard_panel_register
        from learning.picker import assignments_source_register
        from learning.services.syllabus import syllabus_source_register

        games_hooks.register_class_scope(hooks.ClassroomScope())
        games_hooks.register_lobby_panel(hooks.assignments_panel)
        games_hooks.register_result_panel(hooks.assignments_result_panel)
        assignments_source_register(hooks.picker_assignments)
        syllabus_source_register(hooks.class_syllabus)
        dashboard_panel_register(hooks.my_data_panel)
        for link in hooks.SIGNIN_LINKS:
            signin_link_register(link)
        game_finished.connect(hooks.refresh_after_game, dispatch_uid="classroom-summaries")
        post_delete.connect(hooks.tables_unlink_class, sender=Classroom, dispatch_uid="cls-tables")
        post_delete.connect(
            hooks.tables_unlink_assignment, sender=Assignment, dispatch_uid="assignment-tables"
        )
