"""The tournament pages, mounted under /tournaments/."""

from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list_page, name="list"),
    path("<int:pk>/", views.tournament_page, name="detail"),
    path("<int:pk>/standings/", views.standings_page, name="standings"),
    path("<int:pk>/register/", views.register, name="register"),
    path("<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:pk>/confirm/", views.confirm, name="confirm"),
    path("<int:pk>/start/", views.start, name="start"),
]
