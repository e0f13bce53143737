"""MyBot (mybot.py) at the club as an API bot: it plays its seat of a game through the API.

    pip install ./engine ./clients/python
    python examples/api_bot.py --base https://club.example --token bac_... --bot MyBot --game g_abc

Register the bot (``kind: "api"``) and make a token for it (scope ``bot``: docs/bots.md).
The kit follows the game's event stream (reopened with Last-Event-ID when it breaks, with
backoff), reads the legal actions on the bot's turn and submits its move with
``expected_seq`` and an ``Idempotency-Key``, so that a retry never plays twice.
"""

from __future__ import annotations

import argparse

from mybot import MyBot

from backalley_bot import Client
from backalley_bot.api import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the club's address")
    parser.add_argument("--token", required=True, help="an API token for the bot (scope 'bot')")
    parser.add_argument("--bot", required=True, help="the bot's name")
    parser.add_argument("--game", required=True, help="the game's id (g_...)")
    args = parser.parse_args()
    with Client(args.base, args.token) as client:
        made = play(MyBot(), client, args.game, name=args.bot)
    print(f"{args.bot} made {made} moves")


if __name__ == "__main__":
    main()
