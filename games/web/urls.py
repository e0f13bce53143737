"""URLs of the play pages, mounted under /games/ (names unprefixed: the site layout links "my-games")."""

from django.urls import path

from games.web import views

urlpatterns = [
    path("", views.my_games, name="my-games"),
    path("open/", views.open_games, name="open-games"),
    path("new/", views.new_game, name="new-game"),
    path(
        "invitations/<int:invitation_id>/",
        views.answer_invitation,
        name="invitation-answer",
    ),
    path("<str:public_id>/", views.table, name="game-table"),
    path("<str:public_id>/board/", views.board, name="game-board"),
    path("<str:public_id>/record/", views.record, name="game-record"),
    path("<str:public_id>/join/", views.join, name="game-join"),
    path("<str:public_id>/leave/", views.leave, name="game-leave"),
    path("<str:public_id>/invite/", views.invite, name="game-invite"),
    path("<str:public_id>/call-off/", views.call_off, name="game-call-off"),
    path("<str:public_id>/rematch/", views.rematch, name="game-rematch"),
    path("<str:public_id>/fork/", views.fork, name="game-fork"),
]
