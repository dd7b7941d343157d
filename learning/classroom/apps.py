from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "learning.classroom"
    label = "classroom"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Classroom"
