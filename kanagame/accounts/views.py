"""Account pages: sign-up (self-learner or teacher) and a rate-limited login."""

import math

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME, get_user_model, login, password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from kanagame.accounts.models import Role
from kanagame.accounts.names import username_taken
from kanagame.accounts.services import (
    login_failure_record,
    login_failures_clear,
    login_lockout_remaining,
    session_start,
    user_create,
    user_role,
)

User = get_user_model()


def client_ip(request: HttpRequest) -> str:
    """The caller's address: REMOTE_ADDR, or the proxies' X-Forwarded-For entry we trust.

    With KANAGAME_TRUSTED_PROXIES=n (n load balancers in front), the n-th address from the
    right of X-Forwarded-For is the one the first trusted proxy saw; anything further left
    could be forged by the client.
    """
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted > 0:
        header = request.META.get("HTTP_X_FORWARDED_FOR", "")
        forwarded = [part.strip() for part in header.split(",") if part.strip()]
        if len(forwarded) >= trusted:
            return forwarded[-trusted][:45]
    return request.META.get("REMOTE_ADDR", "")[:45]


def _lockout_message(wait_seconds: float) -> str:
    minutes = max(1, math.ceil(wait_seconds / 60))
    return ngettext(
        "Too many failed attempts for this username from your network. "
        "Please wait %(minutes)d minute and try again.",
        "Too many failed attempts for this username from your network. "
        "Please wait %(minutes)d minutes and try again.",
        minutes,
    ) % {"minutes": minutes}


class LoginForm(AuthenticationForm):
    own_device = forms.BooleanField(
        label=_("This is my own device: keep me signed in"),
        required=False,
        help_text=_(
            "Leave it unticked on a shared or school computer: you are signed out when the "
            "browser closes."
        ),
    )


class RateLimitedLoginView(LoginView):
    """Django's LoginView, refusing (HTTP 429) a (username, address) that failed too often."""

    template_name = "registration/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True
    lockout_as_form_error = False

    def get_default_redirect_url(self) -> str:
        """No ?next=: the role's landing page (settings.LOGIN_LANDING), else the home page."""
        landing = settings.LOGIN_LANDING.get(user_role(user=self.request.user) or "")
        return resolve_url(landing) if landing else super().get_default_redirect_url()

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        username = request.POST.get("username", "")
        wait = login_lockout_remaining(username=username, ip_address=client_ip(request))
        if wait is not None:
            return self._locked_out(username, wait.total_seconds())
        return super().post(request, *args, **kwargs)

    def form_valid(self, form) -> HttpResponse:
        login_failures_clear(
            username=form.get_user().get_username(), ip_address=client_ip(self.request)
        )
        response = super().form_valid(form)
        session_start(
            request=self.request,
            role=user_role(user=form.get_user()),
            own_device=bool(form.cleaned_data.get("own_device")),
        )
        return response

    def form_invalid(self, form) -> HttpResponse:
        username = self.request.POST.get("username", "")
        if username.strip():
            ip_address = client_ip(self.request)
            login_failure_record(username=username, ip_address=ip_address)
            wait = login_lockout_remaining(username=username, ip_address=ip_address)
            if wait is not None:
                return self._locked_out(username, wait.total_seconds())
        return super().form_invalid(form)

    def _locked_out(self, username: str, wait_seconds: float) -> HttpResponse:
        # An unbound form: binding it would run authenticate() again.
        form = self.get_form_class()(self.request, initial={"username": username[:150]})
        if self.lockout_as_form_error:  # templates that show only the form's errors (admin)
            form.cleaned_data = {}
            form.add_error(None, _lockout_message(wait_seconds))
        context = self.get_context_data(form=form, lockout_message=_lockout_message(wait_seconds))
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(math.ceil(wait_seconds))
        return response


class RateLimitedAdminLoginView(RateLimitedLoginView):
    """/admin/login/ behind the same limiter (same failures table, same key, same address)."""

    template_name = "admin/login.html"
    authentication_form = AdminAuthenticationForm
    redirect_authenticated_user = False  # a logged-in non-staff user may log in as staff
    lockout_as_form_error = True


def admin_login(request: HttpRequest) -> HttpResponse:
    """AdminSite.login with the rate-limited view: the admin's own context, our limiter."""
    if request.method == "GET" and admin.site.has_permission(request):
        return redirect("admin:index")
    context = {
        **admin.site.each_context(request),
        "title": _("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }
    if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
        context[REDIRECT_FIELD_NAME] = reverse("admin:index")
    request.current_app = admin.site.name
    return RateLimitedAdminLoginView.as_view(extra_context=context)(request)


USERNAME_TAKEN = _("This username is taken. Please choose another one.")


class SignupForm(forms.Form):
    role = forms.ChoiceField(
        label=_("I am"),
        choices=[
            (Role.SELF_LEARNER.value, _("a self-learner: I learn kana on my own")),
            (Role.TEACHER.value, _("a teacher: I run classes")),
        ],
        widget=forms.RadioSelect,
        initial=Role.SELF_LEARNER.value,
    )
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        validators=[User.username_validator],
        help_text=_("Letters, digits and @/./+/-/_ only. You log in with it."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("Optional: the name other players see."),
    )
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional. Kanagame sends no email unless you ask for it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        # Stored as Django stores it (NFKC); taken in any spelling (NFKC + case fold).
        username = User.normalize_username(self.cleaned_data["username"].strip())
        if username_taken(username):
            raise ValidationError(USERNAME_TAKEN)
        return username

    def clean(self) -> dict:
        cleaned = super().clean()
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", _("The two passwords are different."))
        elif password1:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password1, user=candidate)
            except ValidationError as error:
                self.add_error("password1", error)
        return cleaned


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create a self-learner or teacher account, log it in, go home."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = user_create(
                username=data["username"],
                password=data["password1"],
                role=data["role"],
                display_name=data["display_name"],
                email=data["email"],
            )
        except IntegrityError:  # the same name in another spelling, signed up meanwhile
            form.add_error("username", USERNAME_TAKEN)
            return render(request, "accounts/signup.html", {"form": form}, status=400)
        login(request, user, backend="kanagame.accounts.backends.UserRowBackend")
        session_start(request=request, role=data["role"], own_device=False)
        messages.success(request, _("Welcome to Kanagame! Your account is ready."))
        return redirect(settings.SIGNUP_LANDING.get(data["role"], "home"))
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)
