"""The tournaments API, mounted under /api/v1/tournaments/."""

from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("", views.TournamentListCreateView.as_view(), name="tournament-list"),
    path("<int:pk>/", views.TournamentDetailView.as_view(), name="tournament-detail"),
    path("<int:pk>/register/", views.RegisterView.as_view(), name="tournament-register"),
    path("<int:pk>/withdraw/", views.WithdrawView.as_view(), name="tournament-withdraw"),
    path(
        "<int:pk>/entrants/<int:entrant_id>/confirm/",
        views.ConfirmView.as_view(),
        name="tournament-confirm",
    ),
    path("<int:pk>/start/", views.StartView.as_view(), name="tournament-start"),
    path("<int:pk>/cancel/", views.CancelView.as_view(), name="tournament-cancel"),
    path("<int:pk>/rounds/", views.RoundsView.as_view(), name="tournament-rounds"),
    path("<int:pk>/standings/", views.StandingsView.as_view(), name="tournament-standings"),
]
