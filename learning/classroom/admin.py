"""The admin deletes accounts the way the product does (issue 24; docs/security.md §11).

The user admin of `kanagame.accounts` (usernames checked in every spelling) cannot call the
apps above it; this one, registered after it (INSTALLED_APPS order), routes the admin's
deletions, one user or a selection, through `account_erase`: seats at unfinished tables are
handed over first (a CPU plays on, a ranked game is forfeited), then the user's sessions and
failed log-ins go with the account.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model

from kanagame.accounts.admin import CanonicalUserAdmin
from learning.classroom.services.classroom import account_erase

User = get_user_model()


class ErasingUserAdmin(CanonicalUserAdmin):
    def delete_model(self, request, obj) -> None:
        account_erase(user=obj)

    def delete_queryset(self, request, queryset) -> None:
        for user in queryset:
            account_erase(user=user)


admin.site.unregister(User)
admin.site.register(User, ErasingUserAdmin)
