"""URLs of the push API, mounted under /api/v1/push/."""

from django.urls import path

from push.api import views

app_name = "push-api"

urlpatterns = [
    path("vapid-key/", views.VapidKeyView.as_view(), name="vapid-key"),
    path("subscriptions/", views.SubscriptionListView.as_view(), name="subscriptions"),
    path(
        "subscriptions/<int:subscription_id>/",
        views.SubscriptionDeleteView.as_view(),
        name="subscription",
    ),
]
