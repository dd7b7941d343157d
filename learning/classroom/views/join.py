"""/join/: students join a class with its code (new account, or a logged-in learner)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from kanagame.accounts.services import rate_refund, rate_take, session_start
from kanagame.accounts.views import client_ip
from learning.classroom.services.classroom import UnknownClassCode, membership_join, student_join

FAILED_CODES_LIMIT = 20  # wrong codes per client per window: guessing codes stays slow
FAILED_CODES_WINDOW = 600


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Class code"),
        max_length=20,
        help_text=gettext_lazy("The code your teacher gave you, for example KMN-7RT."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


class JoinForm(CodeForm):
    display_name = forms.CharField(
        label=gettext_lazy("Your name in the class"),
        max_length=60,
        help_text=gettext_lazy(
            "A first name or a nickname; your teacher sees it. No email needed."
        ),
    )
    username = forms.CharField(
        label=gettext_lazy("Username (optional)"),
        max_length=30,
        required=False,
        help_text=gettext_lazy("Leave empty and we make one for you from your name."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label=gettext_lazy("Choose a password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=gettext_lazy("At least 8 characters."),
    )
    password_again = forms.CharField(
        label=gettext_lazy("Type the password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords are different."))
        return data


def _client_key(request: HttpRequest) -> str:
    # The real client behind the trusted proxies, as the login limit sees it: a school
    # behind the load balancer is not one address.
    return f"join-code:{client_ip(request)}"


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    user = request.user
    profile = getattr(user, "profile", None) if user.is_authenticated else None
    if profile is not None and profile.is_teacher:
        return render(request, "join/teacher.html", status=403)
    form_class = CodeForm if user.is_authenticated else JoinForm
    if request.method == "GET":
        form = form_class(initial={"code": request.GET.get("code", "")})
        return render(request, "join/join.html", {"form": form})

    key = _client_key(request)
    # One attempt reserved before the code is checked (refunded unless the code was wrong),
    # counted in the database: every web process sees the same count.
    if not rate_take(key=key, limit=FAILED_CODES_LIMIT, window_seconds=FAILED_CODES_WINDOW):
        rate_refund(key=key)
        form = form_class(request.POST)
        form.is_valid()
        form.add_error(None, _("Too many wrong codes. Wait a few minutes and try again."))
        return render(request, "join/join.html", {"form": form}, status=429)
    form = form_class(request.POST)
    if not form.is_valid():
        rate_refund(key=key)
        return render(request, "join/join.html", {"form": form}, status=400)
    data = form.cleaned_data
    try:
        if user.is_authenticated:
            membership = membership_join(student=user, code=data["code"])
        else:
            new_user = student_join(
                code=data["code"],
                display_name=data["display_name"],
                password=data["password"],
                username=data["username"],
            )
    except ValidationError as exc:
        if not isinstance(exc, UnknownClassCode):
            rate_refund(key=key)
        for message in exc.messages:
            form.add_error(None, message)
        return render(request, "join/join.html", {"form": form}, status=400)
    rate_refund(key=key)

    if user.is_authenticated:
        messages.success(request, _("You joined %(name)s.") % {"name": membership.classroom.name})
        return redirect("home")
    login(request, new_user, backend="kanagame.accounts.backends.UserRowBackend")
    session_start(request=request, role="student", own_device=False)
    return render(request, "join/welcome.html", {"new_user": new_user})
