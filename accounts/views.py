"""Site pages for accounts: sign-up, the account page (API tokens, auto-play), your data."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts.forms import AccountDeleteForm, SignUpForm, TokenForm
from accounts.languages import player_set_language, supported
from accounts.permissions import signed_in_user
from accounts.privacy import WrongPassword, account_delete, account_export, archive_filename
from accounts.services import player_for_user, player_set_autoplay
from accounts.throttles import (
    DeleteThrottle,
    ExportThrottle,
    LoginThrottle,
    SignupThrottle,
    allowed,
)
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
    """The throttled page; ``what`` is its whole sentence, already translated."""
    return render(request, "registration/throttled.html", {"what": what}, status=429)


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST" and not allowed(SignupThrottle(), request):
        return _too_many(request, _("Too many sign-ups from your address. Try again later."))
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if user is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            # The language the person signed up in is the account's own from now on.
            player_set_language(player=user.player, language=translation.get_language())
            messages.success(
                request, _("Welcome to the club, %(name)s!") % {"name": user.player.name}
            )
            request.session["greeted"] = True  # the home page then says no second hello
            return redirect(_next_url(request) or "home")
    return render(request, "registration/signup.html", {"form": form, "next": _next_url(request)})


@login_required
@require_POST
def autoplay_save(request: HttpRequest) -> HttpResponse:
    """The account page's switch: whether the service plays your forced actions for you
    (the API's PATCH /api/v1/me/ {"autoplay": ...}; docs/rules.md §10). A checkbox left
    out of the form is off."""
    on = request.POST.get("autoplay") == "on"
    player_set_autoplay(player=player_for_user(request.user), autoplay=on)
    if on:
        messages.success(request, _("Your forced cards and bids are now played for you."))
    else:
        messages.success(request, _("You now play your forced cards and bids yourself."))
    return redirect("account-tokens")


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
                _token, secret = token_create(
                    user=signed_in_user(request),
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
        "tokens": token_list(user=signed_in_user(request)),
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
        token = token_revoke(user=signed_in_user(request), token_id=token_id)
        messages.success(request, _("Token “%(name)s” revoked.") % {"name": token.name})
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("account-tokens")


class LoginView(auth_views.LoginView):
    """Django's login page, with attempts per address limited (django-axes locks users)."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not allowed(LoginThrottle(), request):
            return _too_many(
                request, _("Too many login attempts from your address. Try again later.")
            )
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        """Signed in: the site speaks the account's language from here on (in this browser,
        after a sign-out too); an account that never chose one keeps the one in use now."""
        response = super().form_valid(form)
        player = player_for_user(form.get_user())
        if supported(player.language) is None:
            player_set_language(player=player, language=translation.get_language())
        code = supported(player.language)
        if code is not None:
            translation.activate(code)
            _set_language_cookie(response, code)
        return response


def _set_language_cookie(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
    )


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The top bar's switcher: Django's ``set_language`` (the cookie, then back to the page
    the form came from), and for a signed-in person the account's language too."""
    response = i18n.set_language(request)
    code = supported(request.POST.get("language"))
    if code is not None and request.user.is_authenticated:
        player_set_language(player=player_for_user(request.user), language=code)
    return response


@login_required
def data_settings(request: HttpRequest) -> HttpResponse:
    """Your data: download all of it, or delete the account (docs/privacy.md)."""
    return render(
        request,
        "registration/data.html",
        {"player": player_for_user(request.user), "form": AccountDeleteForm()},
    )


@login_required
def data_export(request: HttpRequest) -> HttpResponse:
    """The archive of everything of yours, as a download (the API's GET /api/v1/me/export/)."""
    if not allowed(ExportThrottle(), request):
        return _too_many(request, _("Too many downloads of your data. Try again later."))
    archive = account_export(user=signed_in_user(request))
    response = JsonResponse(archive, json_dumps_params={"indent": 1, "ensure_ascii": False})
    name = archive["account"]["player"]["name"]
    response["Content-Disposition"] = f'attachment; filename="{archive_filename(name)}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def data_delete(request: HttpRequest) -> HttpResponse:
    """Delete the account once its password confirms it; then signed out, on the home page."""
    if not allowed(DeleteThrottle(), request):
        return _too_many(request, _("Too many attempts to delete your account. Try again later."))
    form = AccountDeleteForm(request.POST)
    if form.is_valid():
        try:
            account_delete(user=signed_in_user(request), password=form.cleaned_data["password"])
        except WrongPassword as exc:
            form.add_error("password", exc.message)
        else:
            logout(request)
            messages.success(
                request,
                _("Your account has been deleted. Your finished games stay, under a new name."),
            )
            return redirect("home")
    context = {"player": player_for_user(request.user), "form": form}
    return render(request, "registration/data.html", context, status=400)
