"""The ladder's pages, mounted under /ladder/."""

from django.urls import path

from ladder import views

app_name = "ladder"

urlpatterns = [
    path("", views.ladder_page, name="ladder"),
    path("pairs/", views.pairs_page, name="pairs"),
    path("how-ratings-work/", views.how_ratings_work, name="how-ratings-work"),
    path("players/<str:name>/", views.player_page, name="player"),
    path("games/<str:public_id>/", views.game_page, name="game"),
]
