"""The daylongs API, mounted under /api/v1/daylong/."""

from django.urls import path

from daylong.api import views

urlpatterns = [
    path("", views.EventListView.as_view(), name="daylong-list"),
    path("<int:pk>/", views.EventDetailView.as_view(), name="daylong-detail"),
    path("<int:pk>/enter/", views.EnterView.as_view(), name="daylong-enter"),
    path("<int:pk>/play/", views.PlayView.as_view(), name="daylong-play"),
    path("<int:pk>/standings/", views.StandingsView.as_view(), name="daylong-standings"),
    path("<int:pk>/breakdown/", views.BreakdownView.as_view(), name="daylong-breakdown"),
    path("<int:pk>/tables/", views.TablesView.as_view(), name="daylong-tables"),
]
