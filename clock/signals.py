"""What the clock tells the apps above it (which it never imports).

``notice_delivered`` is sent once per notice the clock decided to deliver (its
``ReminderSent`` row is new), after that decision commits, with the notice as the
recipient reads it: ``player_id``, ``kind`` (a ``NotificationKind``), ``key`` (unique per
player and kind), ``title`` and ``body`` in the recipient's language, ``game_id`` (or
None). The push app hears it to tell the person's devices.
"""

from __future__ import annotations

from django.dispatch import Signal

notice_delivered = Signal()
