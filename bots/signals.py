"""What the bots app tells the parts built on it, without importing them.

``bot_retired`` is sent inside the transaction of ``bots.services.bot_remove`` when a bot
that has played is retired for good, with ``bot_id``: its receivers' writes commit or roll
back with the retirement. The arena (``bots.arena.hooks``, above the bots' services) takes
the bot out of its pairings.
"""

from __future__ import annotations

from django.dispatch import Signal

bot_retired = Signal()
