"""URLs of the clock's API, mounted under /api/v1/."""

from django.urls import path

from clock.api import views

app_name = "clock-api"

urlpatterns = [
    path("time-controls/", views.TimeControlPresetsView.as_view(), name="time-controls"),
    path("notifications/", views.NotificationListView.as_view(), name="notifications"),
    path("notifications/read/", views.MarkReadView.as_view(), name="notifications-read"),
    path("notifications/preferences/", views.PreferencesView.as_view(), name="notification-prefs"),
    path("vacation/", views.VacationView.as_view(), name="vacation"),
    path("vacation/start/", views.VacationStartView.as_view(), name="vacation-start"),
    path("vacation/stop/", views.VacationStopView.as_view(), name="vacation-stop"),
]
