"""A kit for Back Alley Club bots: write ``choose(observation) -> action`` once, then play
it offline against the house heuristic, as an API bot or as a webhook bot, unchanged.

- :class:`Bot` (``bot``): the base class, and :class:`Observation` (``observation``), what
  it is shown on its turn;
- :class:`Client` (``client``): every API call a bot makes, typed errors (``errors``), the
  event stream with resume (``stream``);
- ``api.play``: a seat played through the API; ``webhook.serve``: the webhook server;
- ``play``: the local duplicate runner (``python -m backalley_bot.play``);
- ``python -m backalley_bot api|webhook``: a bot run from the command line.
"""

from backalley_bot.bot import Bot, load_bot
from backalley_bot.client import Client
from backalley_bot.errors import (
    ApiError,
    AuthError,
    BotKitError,
    IllegalMove,
    NotFound,
    NotYourSeat,
    NotYourTurn,
    RateLimited,
    StaleState,
    TooManyStreams,
    TransportError,
)
from backalley_bot.observation import Observation, action_text

__version__ = "0.1.0"

__all__ = [
    "ApiError",
    "AuthError",
    "Bot",
    "BotKitError",
    "Client",
    "IllegalMove",
    "NotFound",
    "NotYourSeat",
    "NotYourTurn",
    "Observation",
    "RateLimited",
    "StaleState",
    "TooManyStreams",
    "TransportError",
    "__version__",
    "action_text",
    "load_bot",
]
