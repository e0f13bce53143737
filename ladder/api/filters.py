"""Query filters of the standings endpoints (django-filter)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet

from ladder import selectors
from ladder.models import PairRating, PlayerRating


class StandingsFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(
        choices=[(k, k) for k in selectors.KINDS],
        method="noop",
        help_text="people, bots or all (default all).",
    )
    min_games = django_filters.NumberFilter(
        min_value=0, method="noop", help_text="Only players with at least this many rated games."
    )
    provisional = django_filters.BooleanFilter(
        method="noop",
        help_text="Include provisional players (fewer than 20 rated games); default false.",
    )

    class Meta:
        model = PlayerRating
        fields = ["kind", "min_games", "provisional"]

    def noop(self, queryset: QuerySet[Any], name: str, value: Any) -> QuerySet[Any]:
        return queryset  # the selector below applies all three together

    def filter_queryset(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        data = self.form.cleaned_data
        return selectors.standings(
            kind=data.get("kind") or "all",
            min_games=int(data.get("min_games") or 0),
            include_provisional=bool(data.get("provisional")),
        )


class PairStandingsFilter(django_filters.FilterSet):
    min_games = django_filters.NumberFilter(min_value=0, method="noop")
    provisional = django_filters.BooleanFilter(method="noop")

    class Meta:
        model = PairRating
        fields = ["min_games", "provisional"]

    def noop(self, queryset: QuerySet[Any], name: str, value: Any) -> QuerySet[Any]:
        return queryset

    def filter_queryset(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        data = self.form.cleaned_data
        return selectors.pair_standings(
            min_games=int(data.get("min_games") or 0),
            include_provisional=bool(data.get("provisional")),
        )
