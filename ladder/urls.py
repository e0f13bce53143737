"""The ladder's pages, mounted under /ladder/."""

from django.urls import path

from games.web import views as game_views
from ladder import views

app_name = "ladder"

urlpatterns = [
    path("", views.ladder_page, name="ladder"),
    path("pairs/", views.pairs_page, name="pairs"),
    path("how-ratings-work/", views.how_ratings_work, name="how-ratings-work"),
    path("players/<str:name>/", views.player_page, name="player"),
    # The game's record page belongs to games (/games/<id>/record/); this old address stays.
    path("games/<str:public_id>/", game_views.record, name="game"),
]
