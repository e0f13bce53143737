"""Notices about claims (docs/rules.md §10): the games app logs a claim, an answer or a
lapse as a move; this app tells the people it concerns, in the app, in their language.

- a claim the engine did not prove waits for the opponents: each opponent's person is told
  that the claim waits for their answer;
- both opponents accepted, one refused, or the answer did not come in time (the lapse): the
  claimant's person is told.

Bots are told nothing (they answer by the rule of docs/bots.md, or through the API from
the view's ``claim``). Each notice is delivered once (keyed by the game and the move, like
reminders), whichever process or retry of the event delivers it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.languages import in_language_of
from accounts.models import Player
from backalley_engine import claims as rules
from backalley_engine.actions import ACCEPT_BASE, CLAIM_BASE, REFUSE_BASE, claim_parts
from clock.models import NotificationKind
from clock.reminders import deliver
from games import statecache
from games.hooks import GameEvent
from games.models import Game, Move, Seat


def _action(event: GameEvent) -> int | None:
    """The move's action code: from this process's state cache when it is there (no query
    for the many moves that are not claims), else from the log."""
    code = statecache.action_at(event.game_id, event.seq)
    if code is None:
        code = (
            Move.objects.filter(game_id=event.game_id, seq=event.seq)
            .values_list("action_code", flat=True)
            .first()
        )
    return code


def _players(game: Game) -> dict[int, Player]:
    rows = Seat.objects.filter(game=game).select_related("player", "player__user")
    return {s.position: s.player for s in rows}


def _person(player: Player | None) -> Player | None:
    """The player if a person answers for it (a bot's seat is told nothing)."""
    if player is None or player.is_bot or not player.user_id:
        return None
    return player


def _tell(player: Player, game: Game, key: str, words: dict[str, object], what: str) -> bool:
    with in_language_of(player):
        title, body = _words(what, words)
    return deliver(
        player, NotificationKind.CLAIM, key, title, body, game=game, inapp=True, email=False
    )


def _words(what: str, words: dict[str, object]) -> tuple[str, str]:
    """The notice's title and body in the active language, each one whole sentence."""
    count = int(str(words["count"]))
    if what == "asked":
        return (
            ngettext(
                "%(name)s claims %(count)s of the remaining %(left)s trick in game %(game)s",
                "%(name)s claims %(count)s of the remaining %(left)s tricks in game %(game)s",
                int(str(words["left"])),
            )
            % words,
            _(
                "The claim waits for your answer, and play waits with it. %(name)s's hand is "
                "shown at the table: accept or refuse there, or through the API "
                "(POST /api/v1/games/%(game)s/claim/accept/ or .../refuse/)."
            )
            % words,
        )
    if what == "accepted":
        return (
            _("Your claim in game %(game)s was accepted") % words,
            ngettext(
                "Both opponents accepted: your side takes the %(count)s trick you claimed.",
                "Both opponents accepted: your side takes the %(count)s tricks you claimed.",
                count,
            )
            % words,
        )
    if what == "refused":
        return (
            _("%(name)s refused your claim in game %(game)s") % words,
            _("Play goes on. Your side may claim again once another trick has been played."),
        )
    return (
        _("Your claim in game %(game)s lapsed") % words,
        _("The answer did not come within the turn's time: play goes on."),
    )


def _claim_before(game: Game, seq: int) -> tuple[int, int] | None:
    """(seat, tricks) of the last claim logged before move ``seq``."""
    code = (
        Move.objects.filter(
            game=game, seq__lt=seq, action_code__gte=CLAIM_BASE, action_code__lt=ACCEPT_BASE
        )
        .order_by("-seq")
        .values_list("action_code", flat=True)
        .first()
    )
    if code is None:
        return None
    _kind, seat, tricks = claim_parts(code)
    return seat, tricks


def claim_notify(event: GameEvent) -> int:
    """Tell the people a claim move concerns; returns how many notices were delivered
    (0 for any other move, and for a notice already delivered)."""
    if event.kind != "move_committed":
        return 0
    code = _action(event)
    if code is None or code < CLAIM_BASE:
        return 0
    game = Game.objects.filter(pk=event.game_id, public_id=event.public_id).first()
    if game is None:
        return 0
    kind, seat, tricks = claim_parts(code)
    key = f"claim:{game.pk}:{event.seq}"
    players = _players(game)
    if kind == "claim":
        state = statecache.replay(game, upto=event.seq)
        pending = rules.pending(state)
        if pending is None:
            return 0  # proven (or conceded): the deal ended at once, nobody is asked
        claimant = players.get(seat)
        words = {
            "name": claimant.name if claimant else "",
            "count": tricks,
            "left": rules.remaining(state),
            "game": game.public_id,
        }
        sent = 0
        for s in rules.waiting_for(state):
            person = _person(players.get(s))
            if person is not None and person != claimant:
                sent += _tell(person, game, key, words, "asked")
        return sent
    claim = _claim_before(game, event.seq)
    if claim is None:
        return 0
    claimant_seat, claimed = claim
    claimant = _person(players.get(claimant_seat))
    if claimant is None:
        return 0
    words = {"count": claimed, "game": game.public_id, "name": ""}
    if kind == "accept":
        accepts = Move.objects.filter(
            game=game,
            seq__lte=event.seq,
            seq__gt=event.seq - 2,
            action_code__gte=ACCEPT_BASE,
            action_code__lt=REFUSE_BASE,
        ).count()
        if accepts < 2:
            return 0  # the first of the two answers: the claim still waits
        return int(_tell(claimant, game, key, words, "accepted"))
    if kind == "refuse":
        refuser = players.get(seat)
        words["name"] = refuser.name if refuser else ""
        return int(_tell(claimant, game, key, words, "refused"))
    return int(_tell(claimant, game, key, words, "lapsed"))
