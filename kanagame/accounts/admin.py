"""The admin's user pages check the username in every spelling, as sign-up does (names.py):
Django's own forms compare with ``iexact`` (SQLite folds ASCII only), and the database would
then refuse the canonical twin with an error page instead of a form error.

Their multiple-choice fields (groups, permissions) take only ids of 1 to 18 ASCII digits, as
every id the site reads (docs/security.md §12): Django's field sends any integer to the
database, and a 30-digit one overflowed SQLite's integers (a 500 on /admin/auth/group/add/).
"""

import re

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import Group
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


ID = re.compile(r"[0-9]{1,18}")


class BoundedIdsMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A model multiple choice whose values must look like ids before any query."""

    def _check_values(self, value):
        for pk in value:
            if not isinstance(pk, str) or not ID.fullmatch(pk):
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)


class BoundedIdsAdminMixin:
    def formfield_for_manytomany(self, db_field, request, **kwargs):
        kwargs.setdefault("form_class", BoundedIdsMultipleChoiceField)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class CanonicalUserAdmin(BoundedIdsAdminMixin, UserAdmin):
    form = CanonicalUserChangeForm
    add_form = CanonicalUserCreationForm


class BoundedGroupAdmin(BoundedIdsAdminMixin, GroupAdmin):
    pass


admin.site.unregister(User)
admin.site.register(User, CanonicalUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, BoundedGroupAdmin)
