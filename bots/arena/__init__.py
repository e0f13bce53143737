"""The bot arena: opted-in bots play each other in duplicate pairs around the clock.

- :mod:`bots.arena.models`: a bot's arena entry (opt-in, limits, bench, tallies) and the pairs;
- :mod:`bots.arena.matchmaker`: picks tables of four of close rating (pure Python);
- :mod:`bots.arena.services`: the writes (settings, a tick of the matchmaker, scoring a pair,
  benching, turns an API bot let run out);
- :mod:`bots.arena.selectors`: the leaderboard and a bot's arena page;
- :mod:`bots.arena.tasks`: the Celery beat tick and the finished-game task.

See docs/arena.md.
"""
