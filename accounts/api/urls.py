from django.urls import path

from accounts.api import views

urlpatterns = [
    path("me/", views.MeView.as_view(), name="api-me"),
    path("tokens/", views.TokenListCreateView.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>/", views.TokenRevokeView.as_view(), name="api-token-revoke"),
    path("auth/signup/", views.SignupView.as_view(), name="api-signup"),
]
