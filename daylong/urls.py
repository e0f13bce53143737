"""The daylong pages, mounted under /daylong/."""

from django.urls import path

from daylong import views

app_name = "daylong"
urlpatterns = [
    path("", views.daylong_list_page, name="list"),
    path("<int:pk>/", views.daylong_page, name="detail"),
    path("<int:pk>/tables/", views.tables_page, name="tables"),
    path("<int:pk>/enter/", views.enter, name="enter"),
    path("<int:pk>/play/", views.play, name="play"),
]
