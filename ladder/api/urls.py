"""The ladder API, mounted under /api/v1/ladder/."""

from django.urls import path

from ladder.api import views

urlpatterns = [
    path("standings/", views.StandingsView.as_view(), name="ladder-standings"),
    path("pairs/", views.PairStandingsView.as_view(), name="ladder-pairs"),
    path("players/<str:name>/", views.PlayerRatingView.as_view(), name="ladder-player"),
    path("players/<str:name>/history/", views.PlayerHistoryView.as_view(), name="ladder-history"),
    path("players/<str:name>/games/", views.PlayerGamesView.as_view(), name="ladder-games"),
]
