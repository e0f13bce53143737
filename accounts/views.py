"""Site pages for accounts: sign-up, and the API tokens page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.forms import SignUpForm, TokenForm
from accounts.services import player_for_user
from accounts.throttles import LoginThrottle, SignupThrottle, allowed
from accounts.tokens import token_create, token_list, token_revoke
from backalley_site.errors import DomainError


def _next_url(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def _too_many(request: HttpRequest, what: str) -> HttpResponse:
    return render(request, "registration/throttled.html", {"what": what}, status=429)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST" and not allowed(SignupThrottle(), request):
        return _too_many(request, "sign-ups")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to the club, {user.player.name}!")
            request.session["greeted"] = True  # the home page then says no second hello
            return redirect(_next_url(request) or "home")
    return render(request, "registration/signup.html", {"form": form, "next": _next_url(request)})


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """List, make and revoke API tokens. A new token's secret is shown on this response only."""
    player = player_for_user(request.user)
    form = TokenForm(request.POST or None)
    secret = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                _, secret = token_create(
                    user=request.user,
                    name=form.cleaned_data["name"],
                    scopes=form.cleaned_data["scopes"],
                )
                form = TokenForm()
            except DomainError as exc:
                form.add_error(None, exc.message)
                status = 400
        else:
            status = 400
    context = {
        "player": player,
        "form": form,
        "secret": secret,
        "tokens": token_list(user=request.user),
    }
    response = render(request, "registration/tokens.html", context, status=status)
    if secret:
        # The one page that holds a secret must never be cached.
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = token_revoke(user=request.user, token_id=token_id)
        messages.success(request, f"Token “{token.name}” revoked.")
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("account-tokens")


class LoginView(auth_views.LoginView):
    """Django's login page, with attempts per address limited (django-axes locks users)."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not allowed(LoginThrottle(), request):
            return _too_many(request, "login attempts")
        return super().post(request, *args, **kwargs)
