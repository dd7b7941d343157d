from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "kanagame.accounts"
    label = "accounts"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Accounts"
