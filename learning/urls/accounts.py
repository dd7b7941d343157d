"""URLs of the learning app's account pages (login, logout, sign-up)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from learning.views import accounts, privacy

urlpatterns = [
    path("login/", accounts.RateLimitedLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
    path("account/data.json", privacy.account_data, name="account_data"),
    path("account/delete/", privacy.account_delete, name="account_delete"),
]
