"""Site pages for accounts, mounted under /accounts/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tokens/", views.tokens, name="account-tokens"),
    path("autoplay/", views.autoplay_save, name="account-autoplay"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke_view, name="account-token-revoke"),
    path("data/", views.data_settings, name="account-data"),
    path("data/export/", views.data_export, name="account-data-export"),
    path("data/delete/", views.data_delete, name="account-data-delete"),
]
