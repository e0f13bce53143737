"""When a seed is public: the one rule every reader of a seed goes through (docs/rules.md §8).

A game's seed, and what follows from it that no seat saw at the table (the other hands, the
card drawn for a Blooper), is public once the game is finished and, when the game belongs to
a deal set (games sharing one seed: duplicate play), once the set is closed and none of its
games is waiting or being played. A game called off (aborted) never shows its seed, but does
not hold back the others'. Readers pass the answer to the engine (``reveal=``), so a view, a
record, an event or an export never decides this for itself.

Lists read it for many games at once: :func:`with_seed_public` annotates a queryset, and
:func:`seed_is_public` uses the annotation when it is there.
"""

from __future__ import annotations

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet

from games.models import DealSet, Game, GameStatus

UNSETTLED = (GameStatus.WAITING, GameStatus.ACTIVE)
ANNOTATION = "seed_public"


def deal_set_settled(*, deal_set_id: int) -> bool:
    """Whether the set is closed and none of its games is waiting or being played."""
    if DealSet.objects.filter(pk=deal_set_id, closed_at__isnull=True).exists():
        return False
    return not Game.objects.filter(deal_set_id=deal_set_id, status__in=UNSETTLED).exists()


def cards_in_play_elsewhere(game: Game) -> bool:
    """Whether another table may still be dealt, or is playing, ``game``'s cards: its set is
    open, or another game of it is waiting or being played. What ``game``'s table shows
    anyone (the cards played) would tell that table its hands."""
    if game.deal_set_id is None:
        return False
    if DealSet.objects.filter(pk=game.deal_set_id, closed_at__isnull=True).exists():
        return True
    return (
        Game.objects.filter(deal_set_id=game.deal_set_id, status__in=UNSETTLED)
        .exclude(pk=game.pk)
        .exists()
    )


def seed_is_public(game: Game) -> bool:
    """Whether ``game``'s seed (and every hand of its record) may be shown to anyone."""
    if game.status != GameStatus.FINISHED:
        return False
    annotated = getattr(game, ANNOTATION, None)
    if annotated is not None:
        return bool(annotated)
    if game.deal_set_id is None:
        return True
    return deal_set_settled(deal_set_id=game.deal_set_id)


def with_seed_public(qs: QuerySet[Game]) -> QuerySet[Game]:
    """``qs`` with each game's :func:`seed_is_public` answered in the same query."""
    open_set = DealSet.objects.filter(pk=OuterRef("deal_set_id"), closed_at__isnull=True)
    unsettled = Game.objects.filter(
        deal_set_id=OuterRef("deal_set_id"), status__in=UNSETTLED
    ).exclude(deal_set_id__isnull=True)
    public = Q(status=GameStatus.FINISHED) & (
        Q(deal_set__isnull=True) | (~Exists(open_set) & ~Exists(unsettled))
    )
    return qs.annotate(**{ANNOTATION: ExpressionWrapper(public, output_field=BooleanField())})
