"""Live play: waking the clients that wait on a game's event feed, without polling.

* :mod:`games.live.publish` (sync, any process): after a move, a start or a finish commits,
  a wake-up ``"<game id> <seq> <status>"`` goes to this process's waiters at once and, when
  Redis is configured, to every server process by pub/sub. Registered as a consumer of
  :mod:`games.hooks`; cheap, never blocks the committing thread, harmless when repeated.
* :mod:`games.live.hub` (async, one per server process): one subscription, fanned out to
  the process's own waiters; one read of a woken game shared by all its waiters; a slow
  periodic check of the watched games (one query for all) so a lost wake-up delays an
  event but never loses it; a clean close of every wait when the server stops.
* :mod:`games.live.slots`: the per-token cap on open streams and long polls.

See docs/live.md.
"""
