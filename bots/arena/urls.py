"""The arena: its API under /api/v1/arena/ and its pages under /arena/."""

from django.urls import path

from bots.arena import api, views

api_urlpatterns = [
    path("", api.LeaderboardView.as_view(), name="api-arena"),
    path("bots/<str:name>/", api.BotCardView.as_view(), name="api-arena-bot"),
]

app_name = "arena"

urlpatterns = [
    path("", views.leaderboard_page, name="leaderboard"),
    path("bots/<str:name>/", views.bot_page, name="bot"),
    path("bots/<str:name>/settings/", views.settings_page, name="settings"),
]
