"""Serializers of the tournaments API: input checks for create/register, output shapes."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from tournaments.models import Entry, Format, Scoring, Tournament
from tournaments.selectors import Standings


class TournamentCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    format = serializers.ChoiceField(choices=Format.choices, default=Format.SWISS)
    entry = serializers.ChoiceField(choices=Entry.choices, default=Entry.PAIRS)
    scoring = serializers.ChoiceField(choices=Scoring.choices, default=Scoring.GAME)
    rounds = serializers.IntegerField(default=3)
    rated = serializers.BooleanField(default=False)
    # Every form a game takes (the clock checks it, games.extensions): hours and minutes with
    # a bank as well as whole days, so an event can be played at correspondence pace.
    time_control = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text=(
            '{"preset": "fast"} (GET /api/v1/time-controls/), {"hours_per_move": 12, '
            '"bank_seconds": 259200}, {"minutes_per_move": 2}, {"days_per_move": 1..14, '
            '"reserve_days": 0..30}, or null (docs/clock.md): every table of the event gets it.'
        ),
    )
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    registration_closes_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None
    )
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    min_rating = serializers.IntegerField(required=False, allow_null=True, default=None)
    max_rating = serializers.IntegerField(required=False, allow_null=True, default=None)
    min_rated_games = serializers.IntegerField(required=False, min_value=0, default=0)
    max_entrants = serializers.IntegerField(required=False, allow_null=True, default=None)
    bots_allowed = serializers.BooleanField(default=False)


class RegisterSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(
        required=False, help_text="Your player (default) or one of your bots, by name."
    )
    partner = serializers.CharField(
        required=False, help_text="Pairs events: the partner's name (a person confirms)."
    )


class ActAsSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(required=False, help_text="You (default) or your bot.")


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    organiser = serializers.CharField(source="organiser.name", read_only=True)
    entrants = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "description",
            "organiser",
            "format",
            "entry",
            "scoring",
            "rounds",
            "rated",
            "time_control",
            "registration_opens_at",
            "registration_closes_at",
            "starts_at",
            "min_rating",
            "max_rating",
            "min_rated_games",
            "max_entrants",
            "bots_allowed",
            "status",
            "current_round",
            "entrants",
            "created_at",
            "started_at",
            "finished_at",
            "url",
        ]

    def get_entrants(self, obj: Tournament) -> int:
        n = getattr(obj, "n_entrants", None)
        return int(n) if n is not None else obj.entrants.filter(status="active").count()

    def get_url(self, obj: Tournament) -> str:
        return reverse("tournaments:detail", args=[obj.pk])


class EntrantSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField()


def entrant_data(e: Any) -> dict[str, Any]:
    players = [e.player_a.name] + ([e.player_b.name] if e.player_b_id else [])
    return {"id": e.pk, "name": e.name, "players": players, "status": e.status}


class SeatResultSerializer(serializers.Serializer[Any]):
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    points = serializers.DecimalField(max_digits=4, decimal_places=1, allow_null=True)
    total = serializers.IntegerField(allow_null=True)
    forfeit = serializers.BooleanField()
    matchpoints = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)
    matchpoints_top = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)


class TableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    game = serializers.CharField(help_text="The game's public id.")
    game_url = serializers.CharField(help_text="The game in the API.")
    status = serializers.CharField()
    seats = SeatResultSerializer(many=True)


class RoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Duplicate: revealed once played.")
    tables = TableSerializer(many=True)
    byes = SeatResultSerializer(many=True)


class StandingLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    points = serializers.DecimalField(max_digits=6, decimal_places=1)
    buchholz = serializers.DecimalField(max_digits=7, decimal_places=1)
    sonneborn_berger = serializers.DecimalField(max_digits=8, decimal_places=2)
    total = serializers.IntegerField()
    matchpoint_percent = serializers.DecimalField(max_digits=6, decimal_places=2)
    played = serializers.IntegerField()
    byes = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer[Any]):
    after_round = serializers.IntegerField()
    final = serializers.BooleanField()
    lines = StandingLineSerializer(many=True)


def standings_data(table: Standings) -> dict[str, Any]:
    """The standings as the serializer above would render them, built directly: a
    1,000-line event through DRF's field machinery costs several times the query."""
    t = table.tournament
    names, statuses = table.names, table.statuses
    return {
        "after_round": table.after_round,
        "final": t.status == "finished" and table.after_round >= t.current_round,
        "lines": [
            {
                "rank": line.rank,
                "entrant": line.entrant_id,
                "name": names[line.entrant_id],
                "status": statuses[line.entrant_id],
                "points": f"{line.half_points / 2:.1f}",
                "buchholz": f"{line.buchholz / 2:.1f}",
                "sonneborn_berger": f"{line.sonneborn_berger / 4:.2f}",
                "total": line.total,
                "matchpoint_percent": f"{line.percent:.2f}",
                "played": line.played,
                "byes": line.byes,
            }
            for line in table.lines
        ],
    }


def result_data(r: Any, scored_visible: bool) -> dict[str, Any]:
    return {
        "entrant": r.entrant_id,
        "name": r.entrant.name,
        "seat": r.seat,
        "points": (r.half_points / 2) if r.scored else None,
        "total": r.total if r.scored and not r.bye else None,
        "forfeit": r.forfeit,
        "matchpoints": r.matchpoints if scored_visible else None,
        "matchpoints_top": r.matchpoints_top if scored_visible else None,
    }


def rounds_data(rounds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for item in rounds:
        rnd = item["round"]
        done = rnd.status == "finished"
        out.append(
            {
                "number": rnd.number,
                "status": rnd.status,
                # Secret while any game of the round's seed is unfinished (one rule, games').
                "seed": item.get("seed"),
                "tables": [
                    {
                        "number": tb["table"].number,
                        "game": tb["game"].public_id,
                        "game_url": f"/api/v1/games/{tb['game'].public_id}/",
                        "status": tb["game"].status,
                        "seats": [result_data(r, done) for r in tb["results"]],
                    }
                    for tb in item["tables"]
                ],
                "byes": [result_data(r, done) for r in item["byes"]],
            }
        )
    return out
