"""``python -m backalley_bot api|webhook --bot module:Class ...``: a bot at the club.

python -m backalley_bot api --bot mybot:MyBot --base https://club.example --token bac_... --game g_abc
python -m backalley_bot webhook --bot mybot:MyBot --port 8765 --secret whsec_...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from backalley_bot import api, webhook
from backalley_bot.bot import load_bot
from backalley_bot.client import Client


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m backalley_bot")
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("api", help="play a seat of a game through the API")
    a.add_argument("--bot", required=True, help="module:Class")
    a.add_argument("--base", required=True, help="the club's address")
    a.add_argument("--token", required=True, help="a token for the bot (scope 'bot')")
    a.add_argument("--game", required=True, help="the game's id (g_...)")
    a.add_argument("--name", help="the bot's name, if the token holds several seats")
    w = sub.add_parser("webhook", help="answer the club's turns as a webhook bot")
    w.add_argument("--bot", required=True, help="module:Class")
    w.add_argument("--host", default="0.0.0.0")
    w.add_argument("--port", type=int, default=8765)
    w.add_argument("--secret", default="", help="the secret shown at registration")
    args = parser.parse_args(argv)
    sys.path.insert(0, "")
    bot = load_bot(args.bot)
    if args.command == "api":
        with Client(args.base, args.token) as client:
            made = api.play(bot, client, args.game, name=args.name)
        print(f"{bot.name} made {made} moves")
        return 0
    server = webhook.serve(bot, host=args.host, port=args.port, secret=args.secret)
    print(f"{bot.name} listening on {server.url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
