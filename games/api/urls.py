"""URLs of the play API, mounted under /api/v1/."""

from django.urls import path

from games.api import dumps, events, exports, invitations, views

app_name = "games-api"

urlpatterns = [
    path("invitations/", invitations.InvitationListView.as_view(), name="invitations"),
    path(
        "invitations/<int:invitation_id>/accept/",
        invitations.InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        invitations.InvitationDeclineView.as_view(),
        name="invitation-decline",
    ),
    path(
        "players/<str:name>/games/export/",
        exports.PlayerGamesExportView.as_view(),
        name="player-games-export",
    ),
    path("dumps/", dumps.DumpListView.as_view(), name="dumps"),
    path("dumps/<str:name>", dumps.DumpFileView.as_view(), name="dump"),
    path("games/", views.GameListCreateView.as_view(), name="games"),
    path("games/open/", views.OpenGamesView.as_view(), name="games-open"),
    path("games/mine/", views.MyGamesView.as_view(), name="games-mine"),
    path("games/<str:public_id>/", views.GameDetailView.as_view(), name="game"),
    path("games/<str:public_id>/seats/", views.SeatsView.as_view(), name="game-seats"),
    path(
        "games/<str:public_id>/invitations/",
        views.GameInvitationsView.as_view(),
        name="game-invitations",
    ),
    path(
        "games/<str:public_id>/seats/<int:position>/",
        views.SeatDetailView.as_view(),
        name="game-seat",
    ),
    path("games/<str:public_id>/abort/", views.AbortView.as_view(), name="game-abort"),
    path("games/<str:public_id>/legal/", views.LegalActionsView.as_view(), name="game-legal"),
    path("games/<str:public_id>/moves/", views.MovesView.as_view(), name="game-moves"),
    path("games/<str:public_id>/claim/", views.ClaimView.as_view(), name="game-claim"),
    path(
        "games/<str:public_id>/claim/accept/",
        views.ClaimAnswerView.as_view(),
        name="game-claim-accept",
    ),
    path(
        "games/<str:public_id>/claim/refuse/",
        views.ClaimRefuseView.as_view(),
        name="game-claim-refuse",
    ),
    path("games/<str:public_id>/premove/", views.PremoveView.as_view(), name="game-premove"),
    path("games/<str:public_id>/fork/", views.ForkView.as_view(), name="game-fork"),
    path("games/<str:public_id>/record/", views.RecordView.as_view(), name="game-record"),
    path("games/<str:public_id>/presence/", views.PresenceView.as_view(), name="game-presence"),
    path("games/<str:public_id>/events/", events.events, name="game-events"),
    path(
        "games/<str:public_id>/events/stream/",
        events.event_stream,
        name="game-events-stream",
    ),
]
