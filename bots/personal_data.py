"""The bots app's part of a person's data (accounts.personal_data, docs/privacy.md).

**Export**: each of the person's bots (its settings, its webhook address, its recent faults,
its arena entry); never a webhook secret, which is derived and not stored.

**Erase**: each bot is removed as its owner would remove it (``bots.services.bot_remove``:
deleted if it never played, retired if it did: it leaves waiting games, its invitations
are declined, its tokens stop, it leaves the arena). A retired bot keeps its games, under a
pseudonym of its own (a bot's name is its owner's choice and may name them); its
description, webhook address and fault log go.
"""

from __future__ import annotations

import secrets
from typing import Any

from accounts import personal_data
from accounts.models import Player
from accounts.privacy import pseudonym_for
from bots.arena.models import ArenaEntry
from bots.models import Bot, BotFault, BotKind
from bots.services import bot_remove

GONE_URL = "https://gone.invalid/"  # a webhook bot must name an address; this one is none
FAULTS_EXPORTED = 500


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def export_bots(subject: personal_data.Subject) -> dict[str, Any]:
    bots = Bot.objects.filter(player__owner=subject.user).select_related("player").order_by("pk")
    out = []
    for bot in bots:
        entry = ArenaEntry.objects.filter(bot=bot).first()
        faults = BotFault.objects.filter(bot=bot).select_related("game").order_by("-created_at")
        out.append(
            {
                "name": bot.player.name,
                "kind": bot.kind,
                "description": bot.description,
                "strategy": bot.strategy,
                "params": bot.params,
                "webhook_url": bot.webhook_url,
                "status": bot.status,
                "created_at": _iso(bot.created_at),
                "retired_at": _iso(bot.player.retired_at),
                "faults": [
                    {
                        "kind": f.kind,
                        "detail": f.detail,
                        "game": f.game.public_id if f.game else None,
                        "seq": f.seq,
                        "at": _iso(f.created_at),
                    }
                    for f in faults[:FAULTS_EXPORTED]
                ],
                "arena": None
                if entry is None
                else {
                    "opted_in": entry.opted_in,
                    "games": entry.games,
                    "turns": entry.turns,
                    "faults": entry.faults,
                    "pairs": entry.pairs,
                },
            }
        )
    return {"bots": out}


def erase_bots(erasure: personal_data.Erasure) -> None:
    for bot in Bot.objects.filter(player__owner=erasure.user).select_related("player"):
        if bot_remove(bot=bot) == "deleted":
            erasure.count("bots_deleted", 1)
            continue
        BotFault.objects.filter(bot=bot).delete()
        fields: dict[str, Any] = {"description": "", "previous_secret_nonce": ""}
        if bot.kind == BotKind.WEBHOOK:
            fields |= {"webhook_url": GONE_URL, "secret_nonce": secrets.token_hex(16)}
        Bot.objects.filter(pk=bot.pk).update(**fields)
        new_name = pseudonym_for(bot.player)
        erasure.renamed[bot.player.name] = new_name
        Player.objects.filter(pk=bot.player_id).update(name=new_name)
        erasure.count("bots_retired", 1)


def install() -> None:
    personal_data.register("bots", export=export_bots, erase=erase_bots, order=40)
