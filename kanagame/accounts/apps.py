from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save, pre_save


class AccountsConfig(AppConfig):
    name = "kanagame.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # One account per canonical name, whatever path writes the user (names.py).
        from kanagame.accounts import names  # noqa: PLC0415

        user_model = settings.AUTH_USER_MODEL
        pre_save.connect(names.user_pre_save, sender=user_model, dispatch_uid="username_pre")
        post_save.connect(names.user_post_save, sender=user_model, dispatch_uid="username_post")
