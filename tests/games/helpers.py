"""Playing games quickly through the services (for tests that are not about the API)."""

from __future__ import annotations

from backalley_engine.actions import PASS
from games import statecache
from games.models import Game
from games.services import move_submit


def choose_code(legal: list[int]) -> int:
    """Bid 1 when possible (so deals get played), else the first legal action."""
    return legal[1] if len(legal) > 1 and legal[0] == PASS else legal[0]


def play(game: Game, moves: int) -> Game:
    """Make ``moves`` moves (fewer if the game ends) for whichever seat is to act."""
    for _ in range(moves):
        game.refresh_from_db()
        if game.to_act is None:
            break
        state = statecache.state_for(game)
        move_submit(
            game_id=game.pk,
            seats=[game.to_act],
            action=choose_code(state.legal_actions()),
            expected_seq=game.move_count,
        )
    game.refresh_from_db()
    return game
