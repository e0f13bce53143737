"""The :class:`Bot` base class: write ``choose(observation) -> action``, nothing else.

The same bot runs unchanged offline (``python -m backalley_bot.play``), as an API bot
(:func:`backalley_bot.api.play`, ``python -m backalley_bot api``) and as a webhook bot
(:func:`backalley_bot.webhook.serve`, ``python -m backalley_bot webhook``):

>>> import backalley_engine as ba
>>> from backalley_engine.views import game_view
>>> class Cautious(Bot):
...     def choose(self, observation):
...         return "pass" if observation.is_bidding else observation.legal[0]
>>> obs = Observation.from_view(game_view(ba.GameState.new("00" * 32), 0), game="local")
>>> Cautious().decide(obs)
'pass'

An answer that is not legal, or a ``choose`` that raises, is replaced by :meth:`Bot.fallback`
(the first legal action) and logged, so that a bug costs a move, never the seat.
"""

from __future__ import annotations

import importlib
import logging

from backalley_bot.observation import Observation, action_text

log = logging.getLogger("backalley_bot")


class Bot:
    """Subclass and write :meth:`choose`. ``name`` is what the runner prints."""

    name: str = ""

    def __init__(self) -> None:
        if not self.name:
            self.name = type(self).__name__

    def choose(self, observation: Observation) -> str | int:
        """One of ``observation.legal`` (text such as ``"AS"``, ``"pass"``, ``"3"``,
        ``"board"``), or its engine int (one of ``observation.legal_actions``)."""
        raise NotImplementedError("write choose(observation) in your Bot")

    def accept_claim(self, observation: Observation) -> bool:
        """Whether to accept the claim an opponent made (API bots only; webhook bots'
        claims are answered by the service). Refuses by default."""
        return False

    def fallback(self, observation: Observation) -> str:
        """The move played when :meth:`choose` fails or runs out of time."""
        return observation.legal[0]

    def decide(self, observation: Observation) -> str:
        """:meth:`choose`, checked: a legal action's text, else :meth:`fallback`."""
        try:
            action = action_text(self.choose(observation))
        except Exception:
            log.exception(
                "%s: choose failed (%s, seq %s)", self.name, observation.game, observation.seq
            )
            return self.fallback(observation)
        if action not in observation.legal:
            log.warning("%s: %r is not legal here (%s)", self.name, action, observation.legal)
            return self.fallback(observation)
        return action


def load_bot(spec: str) -> Bot:
    """A bot from ``"module:Class"`` (the class is made with no arguments).

    >>> load_bot("backalley_bot.bot:Bot").name
    'Bot'
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"name a bot as module:Class, not {spec!r}")
    obj = getattr(importlib.import_module(module_name), attr)
    bot = obj() if isinstance(obj, type) else obj
    if not isinstance(bot, Bot):
        raise ValueError(f"{spec} is not a backalley_bot.Bot")
    return bot
