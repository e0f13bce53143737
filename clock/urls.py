"""The site's clock pages, mounted at /notifications/."""

from django.urls import path

from clock import views

app_name = "clock"

urlpatterns = [
    path("", views.notifications_page, name="notifications"),
    path("read/", views.notifications_mark_read, name="notifications-read"),
    path("preferences/", views.preferences_save, name="preferences"),
    path("vacation/", views.vacation_switch, name="vacation"),
]
