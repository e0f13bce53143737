"""MyBot (mybot.py) at the club as a webhook bot: an HTTP server that answers each turn.

    pip install ./engine ./clients/python
    python examples/webhook_bot.py --port 8765 --secret whsec_...

Run it where the club can reach it, register it (``kind: "webhook"``, your URL), then give
it the secret shown at registration (once; again only by rotating it). The kit's server
refuses a bad signature, a stale timestamp and a delivery id it has already seen (a
replay), answers the registration ping, and answers every turn before its deadline: with
the bot's choice, or with its fallback if the choice is late.
"""

from __future__ import annotations

import argparse

from mybot import MyBot

from backalley_bot.webhook import serve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--secret", default="", help="the secret shown at registration")
    args = parser.parse_args()
    server = serve(MyBot(), host=args.host, port=args.port, secret=args.secret)
    print(f"webhook bot listening on {args.host}:{args.port}")
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
