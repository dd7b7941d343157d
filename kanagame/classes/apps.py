from django.apps import AppConfig


class ClassesConfig(AppConfig):
    name = "kanagame.classes"
    label = "classes"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Classes"
