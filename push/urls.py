"""The push settings page, mounted at /notifications/push/."""

from django.urls import path

from push import views

app_name = "push"

urlpatterns = [
    path("", views.push_settings, name="settings"),
    path("choices/", views.choices_save, name="choices"),
    path("devices/", views.device_add, name="device-add"),
    path("devices/forget/", views.device_forget, name="device-forget"),
    path("devices/<int:subscription_id>/remove/", views.device_remove, name="device-remove"),
]
