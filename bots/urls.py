from django.urls import path

from bots.api import views
from bots.arena.api import ArenaSettingsView

urlpatterns = [
    path("", views.BotListCreateView.as_view(), name="api-bots"),
    path("strategies/", views.StrategyListView.as_view(), name="api-bot-strategies"),
    path("<str:name>/", views.BotDetailView.as_view(), name="api-bot"),
    path("<str:name>/rotate-secret/", views.BotRotateSecretView.as_view(), name="api-bot-rotate"),
    path("<str:name>/faults/", views.BotFaultListView.as_view(), name="api-bot-faults"),
    path("<str:name>/arena/", ArenaSettingsView.as_view(), name="api-bot-arena"),
]
