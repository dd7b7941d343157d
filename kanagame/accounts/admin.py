"""The admin's user pages check the username in every spelling, as sign-up does (names.py):
Django's own forms compare with ``iexact`` (SQLite folds ASCII only), and the database would
then refuse the canonical twin with an error page instead of a form error."""

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from kanagame.accounts.names import username_taken

User = get_user_model()
TAKEN = _("This username is taken. Please choose another one.")


class _CanonicalUsernameMixin(forms.ModelForm):
    def clean_username(self) -> str:
        username = self.cleaned_data.get("username")
        if username and username_taken(username, except_user_id=self.instance.pk):
            raise ValidationError(TAKEN)
        return username


class CanonicalUserCreationForm(_CanonicalUsernameMixin, AdminUserCreationForm):
    pass


class CanonicalUserChangeForm(_CanonicalUsernameMixin, UserChangeForm):
    pass


class CanonicalUserAdmin(UserAdmin):
    form = CanonicalUserChangeForm
    add_form = CanonicalUserCreationForm


admin.site.unregister(User)
admin.site.register(User, CanonicalUserAdmin)
