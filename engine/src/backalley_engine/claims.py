"""Claims and concessions (docs/rules.md §10): the rule, as engine actions.

Between tricks of a deal in play (no trick in progress), any seat may claim that its team
takes k of the r tricks still to play (0 <= k <= r; k = 0 concedes them all). From that
moment the claimant's hand is public (every seat's view and observation shows it, for the
rest of the deal). Then:

- if the claim holds against every legal continuation (``solver.claim_holds``, with the
  fixed budget :data:`CLAIM_BUDGET`; a concession always holds), the deal ends at once
  ("proven");
- otherwise both opponents are asked. Play waits: the seat to act is the first opponent,
  clockwise from the claimant, who has not answered (so a clock times its answer); either
  may answer at any time. Both accept: the deal ends ("accepted"). One refuses, or the
  answer does not come in time (``LAPSE``): nothing else changes and the leader plays on.

A claim that ends the deal credits the claimant's team with k more tricks and the other
team with r - k; the deal is scored from those totals (§6). A team may claim once between
two tricks: after a refused or lapsed claim, its next claim waits for a trick to be played.

The proof's budget is a number of card placements, so whether a claim is proven is the
same on every replay of the log (raise the budget only: a lower one could leave an old
proven claim unproven).
"""

from __future__ import annotations

from typing import Any, Final

from backalley_engine import solver
from backalley_engine.actions import ACCEPT_BASE, claim_parts
from backalley_engine.cards import cards_str, mask_to_cards
from backalley_engine.constants import DONE, PLAYING
from backalley_engine.deal import DealCore
from backalley_engine.errors import ClaimNotAllowed, ClaimRefused, NoClaimPending, NotYourTurn
from backalley_engine.game import GameCore

CLAIM_BUDGET: Final = 20_000
PROVEN: Final = "proven"
ACCEPTED: Final = "accepted"


def remaining(deal: DealCore) -> int:
    return deal.n - len(deal.tricks)


def claim_check(deal: DealCore, seat: int, tricks: int) -> None:
    """Raise ``ClaimNotAllowed`` unless ``seat`` may claim ``tricks`` now."""
    if deal.phase != PLAYING or deal.trick:
        raise ClaimNotAllowed("A claim is made between tricks, while the deal is played.")
    if deal.claim >= 0:
        raise ClaimNotAllowed("A claim is already waiting for its answers.")
    r = remaining(deal)
    if not 0 <= tricks <= r:
        raise ClaimNotAllowed(f"Claim between 0 and {r} of the remaining tricks.", {"remaining": r})
    if deal.claim_marks[seat & 1] == len(deal.tricks):
        raise ClaimRefused("Your side's claim was refused: play a trick before claiming again.")


def pending(deal: DealCore) -> tuple[int, int] | None:
    """(claimant seat, tricks claimed) of the claim waiting for answers, or None."""
    if deal.claim < 0:
        return None
    return (deal.claim // 14, deal.claim % 14)


def waiting_for(deal: DealCore) -> list[int]:
    """The opponents who have not answered the pending claim, clockwise from the claimant."""
    p = pending(deal)
    if p is None:
        return []
    seat = p[0]
    return [s for s in ((seat + 1) & 3, (seat + 3) & 3) if not deal.claim_ok >> s & 1]


def _end(deal: DealCore, seat: int, tricks: int, how: str) -> None:
    r = remaining(deal)
    team = seat & 1
    deal.credit = [0, 0]
    deal.credit[team] = tricks
    deal.credit[team ^ 1] = r - tricks
    deal.claim_end = (seat, tricks, r, how)
    deal.claim = -1
    deal.claim_ok = 0
    deal.phase = DONE
    deal.to_act = -1
    deal._lm = -1


def _claim_event(deal: DealCore, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "private_to": None, **fields}


def apply_claim_action(
    g: GameCore, action: int, seat: int | None, events: list[dict[str, Any]] | None
) -> bool:
    """Apply a claim action to ``g`` (``seat``, when given, must be the action's seat).
    Returns True when it ends the deal (the caller scores it). Changes nothing on error."""
    kind, who, tricks = claim_parts(action)
    if seat is not None and kind != "lapse" and seat != who:
        raise NotYourTurn("That claim action is another seat's.", {"seat": who})
    out: list[dict[str, Any]] = []
    ends = False
    if kind == "claim":
        claim_check(g, who, tricks)
        g.revealed |= 1 << who
        g.claim_marks[who & 1] = len(g.tricks)
        out.append(
            _claim_event(
                g,
                "claim",
                seat=who,
                tricks=tricks,
                remaining=remaining(g),
                hand=cards_str(mask_to_cards(g.hands[who])),
            )
        )
        if solver.claim_holds(g, seat=who, tricks=tricks, budget=CLAIM_BUDGET) is True:
            out.append(_claim_event(g, "claim_end", seat=who, tricks=tricks, how=PROVEN))
            _end(g, who, tricks, PROVEN)
            ends = True
        else:
            g.claim = who * 14 + tricks
            g.claim_ok = 0
            g.to_act = (who + 1) & 3
            g._lm = -1
    else:
        p = pending(g)
        if p is None:
            raise NoClaimPending("There is no claim to answer.")
        claimant, claimed = p
        if kind == "lapse":
            out.append(_claim_event(g, "claim_off", seat=claimant, reason="lapsed"))
            _off(g)
        elif who not in ((claimant + 1) & 3, (claimant + 3) & 3) or g.claim_ok >> who & 1:
            raise NoClaimPending("There is no claim for this seat to answer.", {"seat": who})
        elif action < ACCEPT_BASE + 4:  # accept
            g.claim_ok |= 1 << who
            out.append(_claim_event(g, "claim_answer", seat=who, answer="accept"))
            rest = waiting_for(g)
            if rest:
                g.to_act = rest[0]
                g._lm = -1
            else:
                out.append(
                    _claim_event(g, "claim_end", seat=claimant, tricks=claimed, how=ACCEPTED)
                )
                _end(g, claimant, claimed, ACCEPTED)
                ends = True
        else:  # refuse
            out.append(_claim_event(g, "claim_answer", seat=who, answer="refuse"))
            out.append(_claim_event(g, "claim_off", seat=claimant, reason="refused"))
            _off(g)
    g.history.append(action)
    if events is not None:
        events.extend(out)
    if not ends:
        g.seat_to_act = g.to_act
    return ends


def _off(deal: DealCore) -> None:
    """The claim is refused or lapsed: play goes on from the leader."""
    deal.claim = -1
    deal.claim_ok = 0
    deal.to_act = deal.leader
    deal._lm = -1


def claim_entry(deal: DealCore) -> dict[str, Any] | None:
    """The record's ``claim`` member of a deal a claim ended (record format version 2)."""
    if deal.claim_end is None:
        return None
    seat, tricks, rem, how = deal.claim_end
    return {"seat": seat, "tricks": tricks, "remaining": rem, "how": how}


def public_hands(deal: DealCore) -> dict[int, int]:
    """The hands every seat may see now: those of seats that claimed in this deal."""
    return {s: deal.hands[s] for s in range(4) if deal.revealed >> s & 1}
