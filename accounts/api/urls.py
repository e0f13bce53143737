from django.urls import path

from accounts.api import views

urlpatterns = [
    path("me/", views.MeView.as_view(), name="api-me"),
    path("me/export/", views.ExportView.as_view(), name="api-me-export"),
    path("me/delete/", views.AccountDeleteView.as_view(), name="api-me-delete"),
    path("tokens/", views.TokenListCreateView.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>/", views.TokenRevokeView.as_view(), name="api-token-revoke"),
    path("auth/signup/", views.SignupView.as_view(), name="api-signup"),
]
