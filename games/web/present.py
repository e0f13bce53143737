"""Turn a seat's engine view into what the table templates show.

Everything here reads only the view the engine made for the viewer's seat (``state.view``
via ``selectors.game_view``), so a page can never show a card its seat may not see. No rule
is decided here: which cards and bids may be chosen comes from the view's
``legal_actions``; grouping trumps uses the engine's own ``effective_suit``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from backalley_engine.cards import SUITS, effective_suit, is_joker, parse_card, rank_of
from backalley_engine.constants import partner_of, team_of
from backalley_engine.shuffle import hand_size_of
from games import extensions
from games.web.words import board_words, card_name, suit_name

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
# The css class of each suit (the words people read are in games.web.words).
SUIT_CLASSES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
# Suits alternate black and red in this cycle, so a hand rotated to start at trump alternates.
SUIT_CYCLE = "SHCD"
# Where each seat sits on the viewer's screen, counted clockwise from the viewer.
PLACES = ("bottom", "left", "top", "right")
# Each seat's relation to the viewer, as a key ("you" is tested by the templates).
RELATIONS = ("you", "left opponent", "partner", "right opponent")


def relation_text(relation: str) -> str:
    return {
        "you": pgettext("seat", "you"),
        "left opponent": _("left opponent"),
        "partner": _("partner"),
        "right opponent": _("right opponent"),
    }.get(relation, "")


def open_seat() -> str:
    """The one wording for a seat nobody has taken, on every page."""
    return _("Open seat")


def status_text(status: str) -> str:
    return {"voided": _("all passed: redealt"), "passed_out": _("passed out")}.get(status, "")


@dataclass(frozen=True)
class CardView:
    code: str  # canonical text: "TD", "BB"
    rank: str  # as printed: "10", "A", "BB"
    symbol: str  # suit symbol, "" for a joker
    suit: str  # css class: spades, hearts, ..., joker
    label: str  # for screen readers: "ten of diamonds" (in the active language)
    legal: bool = False
    reason: str = ""  # why it may not be played now (the engine's message), if it may not


def card_view(code: str, legal: bool = False) -> CardView:
    if code == "BB":
        return CardView(code, "BB", "\u2605", "joker", card_name(code), legal)
    if code == "LB":
        return CardView(code, "LB", "\u2606", "joker", card_name(code), legal)
    rank, suit = code[0], code[1]
    shown = "10" if rank == "T" else rank
    return CardView(code, shown, SUIT_SYMBOLS[suit], SUIT_CLASSES[suit], card_name(code), legal)


def sorted_hand(codes: list[str], trump: str | None) -> list[str]:
    """The hand grouped by suit as it plays (jokers with trumps), trumps first, high to low."""
    trump_i = SUITS.index(trump) if trump else None
    start = SUIT_CYCLE.index(trump) if trump else 0
    order = SUIT_CYCLE[start:] + SUIT_CYCLE[:start]

    def key(code: str) -> tuple[int, int]:
        card = parse_card(code)
        suit = effective_suit(card, trump_i)
        group = order.index(SUITS[suit]) if suit is not None else len(order)
        height = card if is_joker(card) else rank_of(card)  # jokers (52, 53) above the ace
        return group, -height

    return sorted(codes, key=key)


def bid_text(bid: Any, level: int = 0) -> str:
    """A bid as the seat plates show it: a number, "pass", "board", "board ×2"."""
    if bid == "board":
        return _("board ×%(level)s") % {"level": level} if level > 1 else pgettext("bid", "board")
    if bid == "pass":
        return pgettext("bid", "pass")
    return str(bid)


@dataclass
class SeatView:
    position: int
    name: str
    is_bot: bool
    place: str
    relation: str
    team: int
    open: bool = False  # nobody sits here yet
    relation_text: str = ""  # the relation in words, in the active language
    bid: str | None = None
    tricks: int = 0
    dealer: bool = False
    to_act: bool = False


@dataclass
class TrickCard:
    seat: SeatView
    card: CardView
    winner: bool = False


@dataclass
class TeamLine:
    """A team's contract this deal and what it still needs, in words."""

    name: str
    contract: str  # "5 tricks", "single board", "no tricks (both passed)", "" while bidding
    tricks: int
    need: str  # "needs 2 more", "made", "must take every trick", "failed"
    state: str  # css: open | made | failed


@dataclass
class SummaryTeam:
    name: str
    bids: str
    contract: str
    tricks: int
    score: int
    rule: str  # the scoring rule that gave the points, with the numbers


@dataclass
class DealSummary:
    key: str  # "number.attempt", to match the deal_end event
    title: str
    teams: list[SummaryTeam]
    last_trick: list[TrickCard]
    totals: list[int]
    note: str = ""


@dataclass
class ScoreRow:
    number: int
    hand_size: int
    note: str
    score: list[int]
    totals: list[int]
    current: bool


@dataclass
class TableView:
    """Everything the board template needs, built from one seat's view."""

    seat: int | None
    seats: list[SeatView]
    phase: str = "waiting"
    hand: list[CardView] = field(default_factory=list)
    bids: list[dict[str, Any]] = field(default_factory=list)  # legal bids: {"value", "text"}
    my_turn: bool = False
    to_act: SeatView | None = None
    deal_number: int = 0
    attempt: int = 0  # redeals after all four passed
    hand_size: int = 0
    upcard: CardView | None = None
    trump: str | None = None
    trump_text: str = ""
    joker_swap: str = ""
    trick: list[TrickCard] = field(default_factory=list)
    trick_done: bool = False  # the felt shows the finished trick until the next lead
    leader: SeatView | None = None  # who led (or leads) the trick on the felt
    last_trick: list[TrickCard] = field(default_factory=list)
    dealer_text: str = ""
    board_text: str = ""  # the board level reached in this deal's bidding, in words
    team_lines: list[TeamLine] = field(default_factory=list)
    summary: DealSummary | None = None
    team_names: list[str] = field(default_factory=list)
    team_tricks: list[int] = field(default_factory=list)
    scores: list[ScoreRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])
    result: str = ""

    def seat_at(self, place: str) -> SeatView | None:
        return next((s for s in self.seats if s.place == place), None)

    @property
    def places(self) -> list[SeatView]:
        """The seats in reading order on the screen: top, left, right, bottom."""
        return [s for p in ("top", "left", "right", "bottom") for s in self.seats if s.place == p]

    @property
    def bidding(self) -> bool:
        return self.phase == "bidding"


def _contract_text(number: int, board: int, bids_done: bool) -> str:
    if board:
        return board_words(board)
    if not bids_done:
        return ""
    if number == 0:
        return _("no tricks (both passed)")
    return ngettext("%(count)s trick", "%(count)s tricks", number) % {"count": number}


def team_lines(
    names: list[str], contracts: list[list[int]], tricks: list[int], hand_size: int, bids_done: bool
) -> list[TeamLine]:
    """Each team's contract (the engine's) and the tricks it still needs, in words."""
    played = sum(tricks)
    left = hand_size - played
    out = []
    for t in (0, 1):
        number, board = contracts[t]
        took = tricks[t]
        if not bids_done:
            need, state = "", "open"
        elif board:
            lost = played - took
            if lost:
                need, state = _("board failed"), "failed"
            elif left == 0:
                need, state = _("board made"), "made"
            else:
                need = ngettext(
                    "must take the last trick", "must take all %(count)s left", left
                ) % {"count": left}
                state = "open"
        elif number == 0:
            need, state = _("+1 a trick"), "open"
        elif took >= number:
            need, state = pgettext("contract", "made"), "made"
        elif number - took > left:
            need, state = _("cannot make it"), "failed"
        else:
            more = number - took
            need = ngettext("needs %(count)s more", "needs %(count)s more", more) % {"count": more}
            state = "open"
        out.append(TeamLine(names[t], _contract_text(number, board, bids_done), took, need, state))
    return out


def _rule_text(team: dict[str, Any], hand_size: int) -> str:
    """The scoring rule (docs/rules.md §6) that gave a team its points, with the numbers."""
    rule, b, k, took, score = (
        team["rule"], team["number"], team["board"], team["tricks"], team["score"]
    )  # fmt: skip
    words = {"board": board_words(k), "cards": hand_size, "level": k, "score": score}
    if rule == "board_made":
        return _("%(board)s made: 10 × %(cards)s cards × %(level)s = +%(score)s") % words
    if rule == "board_failed":
        return _("%(board)s lost a trick: −10 × %(cards)s cards × %(level)s = %(score)s") % words
    if rule == "zero":
        return _("both passed: +1 per trick = +%(score)s") % words
    if rule == "number_made":
        over = took - b
        if over:
            return _("made %(bid)s: 5 × %(bid)s + %(over)s extra = +%(score)s") % {
                "bid": b,
                "over": over,
                "score": score,
            }
        return _("made %(bid)s: 5 × %(bid)s = +%(score)s") % {"bid": b, "score": score}
    if rule == "number_failed":
        return _("took %(took)s of %(bid)s: −5 × %(bid)s = %(score)s") % {
            "took": took,
            "bid": b,
            "score": score,
        }
    if rule == "passed_out":
        return _("passed out (four redeals in a row): 0")
    return _("all four passed: redealt, 0")


def deal_summary(
    data: dict[str, Any] | None, seats: list[SeatView], names: list[str]
) -> DealSummary | None:
    """The last finished deal, told for people (from ``selectors.last_deal_summary``)."""
    if not data:
        return None
    by_seat: dict[int, str] = {}
    for b in data["bids"]:
        by_seat[b["seat"]] = board_words(b["level"]) if b["bid"] == "board" else bid_text(b["bid"])
    teams = []
    for t, team in enumerate(data["teams"]):
        a, p = seats[t], seats[t + 2]
        bids = _("%(first)s %(first_bid)s, %(second)s %(second_bid)s") % {
            "first": a.name,
            "first_bid": by_seat.get(a.position, "–"),
            "second": p.name,
            "second_bid": by_seat.get(p.position, "–"),
        }
        teams.append(
            SummaryTeam(
                name=names[t],
                bids=bids,
                contract=_contract_text(team["number"], team["board"], True),
                tricks=team["tricks"],
                score=team["score"],
                rule=_rule_text(team, data["hand_size"]),
            )
        )
    last = data.get("last_trick")
    status = data["status"]
    title = ngettext(
        "Deal %(number)s (%(count)s card)", "Deal %(number)s (%(count)s cards)", data["hand_size"]
    ) % {"number": data["number"], "count": data["hand_size"]}
    note = {
        "voided": _("All four passed: the deal is dealt again by the next dealer."),
        "passed_out": _("Passed out: four redeals in a row, so it scores 0 and the game moves on."),
    }.get(status, "")
    return DealSummary(
        key=f"{data['number']}.{data['attempt']}",
        title=title,
        teams=teams,
        last_trick=_trick(last, seats, last["winner"] if last else None),
        totals=data["totals"],
        note=note,
    )


def _trick(
    data: dict[str, Any] | None, seats: list[SeatView], winner: int | None = None
) -> list[TrickCard]:
    if not data:
        return []
    leader = data["leader"]
    out = []
    for i, code in enumerate(data["cards"]):
        pos = (leader + i) % 4
        out.append(TrickCard(seats[pos], card_view(code), winner == pos))
    return out


def seat_views(payload: dict[str, Any], viewer: int | None) -> list[SeatView]:
    base = viewer if viewer is not None else 0
    out = []
    for pos, info in enumerate(payload["seats"]):
        rel = (pos - base) % 4
        out.append(
            SeatView(
                position=pos,
                name=info["player"] if info else open_seat(),
                is_bot=bool(info and info["is_bot"]),
                place=PLACES[rel],
                relation=RELATIONS[rel] if viewer is not None else "",
                team=team_of(pos),
                open=info is None,
                relation_text=relation_text(RELATIONS[rel]) if viewer is not None else "",
            )
        )
    return out


def table_view(
    payload: dict[str, Any],
    *,
    reasons: dict[str, str] | None = None,
    contracts: list[list[int]] | None = None,
    last_deal: dict[str, Any] | None = None,
) -> TableView:
    """The board for ``payload`` = ``selectors.game_view(...)`` (one seat's or a spectator's).

    ``reasons``: why each disabled card may not be played (``selectors.illegal_reasons``);
    ``contracts``: the engine's per-team (number, board level) of the deal in progress;
    ``last_deal``: ``selectors.last_deal_summary``.
    """
    viewer = payload["your_seat"]
    seats = seat_views(payload, viewer)
    team_names = [
        _("%(first)s & %(second)s") % {"first": seats[0].name, "second": seats[2].name},
        _("%(first)s & %(second)s") % {"first": seats[1].name, "second": seats[3].name},
    ]
    tv = TableView(seat=viewer, seats=seats, team_names=team_names)
    view = payload.get("view")
    if view is None:  # not started: seats only
        return tv
    tv.phase = view["phase"]
    levels = view.get("board_levels") or [0, 0, 0, 0]
    for b in view["bids"]:
        seats[b["seat"]].bid = bid_text(b["bid"], levels[b["seat"]])
    for pos, won in enumerate(view["tricks_won"]):
        seats[pos].tricks = won
    seats[view["dealer"]].dealer = True
    to_act = view["seat_to_act"]
    if to_act is not None:
        seats[to_act].to_act = True
        tv.to_act = seats[to_act]
    tv.my_turn = viewer is not None and to_act == viewer
    legal = set(view["legal_actions"])
    tv.trump = view["trump"]
    reasons = reasons or {}
    tv.hand = []
    for c in sorted_hand(view["hand"] or [], tv.trump):
        cv = card_view(c, c in legal)
        if not cv.legal:
            why = reasons.get(c) or ("" if tv.my_turn else _("Not your turn."))
            if tv.phase == "bidding" and tv.my_turn:
                why = _("Bid first: cards are played after everyone has bid.")
            cv = CardView(cv.code, cv.rank, cv.symbol, cv.suit, cv.label, False, why)
        tv.hand.append(cv)
    # Bids are offered exactly as the engine lists them, in its order.
    tv.bids = [
        {"value": a, "text": bid_text(a)}
        for a in view["legal_actions"]
        if a in ("pass", "board") or a.isdigit()
    ]
    tv.deal_number = view["deal_number"]
    tv.attempt = view["attempt"]
    tv.hand_size = view["hand_size"]
    tv.upcard = card_view(view["upcard"])
    tv.trump_text = f"{suit_name(tv.trump)} {SUIT_SYMBOLS[tv.trump]}" if tv.trump else _("no trump")
    swap = view.get("joker_swap")
    if swap:
        # The drawn card is in the view only for its holder (and once the game is over).
        words = {
            "name": seats[swap["seat"]].name,
            "discarded": card_name(swap["discarded"]),
            "drawn": card_name(swap["drawn"]) if swap.get("drawn") else "",
        }
        if swap.get("drawn"):
            tv.joker_swap = (
                _(
                    "The upcard is a Blooper, so this deal has no trump and no Bloopers in "
                    "play: %(name)s discarded the other one, the %(discarded)s, face up and "
                    "drew the %(drawn)s."
                )
                % words
            )
        else:
            tv.joker_swap = (
                _(
                    "The upcard is a Blooper, so this deal has no trump and no Bloopers in "
                    "play: %(name)s discarded the other one, the %(discarded)s, face up and "
                    "drew a card from the pack in its place."
                )
                % words
            )
    tv.trick = _trick(view["trick"], seats)
    last = view["last_trick"]
    tv.last_trick = _trick(last, seats, last["winner"] if last else None)
    if view["trick"]:
        tv.leader = seats[view["trick"]["leader"]]
    elif last and tv.phase == "playing":
        # The finished trick stays on the felt, its winner marked, until the next card is led.
        tv.trick, tv.trick_done = tv.last_trick, True
        tv.leader = seats[last["leader"]]
    dealer = seats[view["dealer"]]
    first = seats[(view["dealer"] + 1) % 4]
    tv.dealer_text = _("%(dealer)s dealt; %(first)s, on the dealer's left, bids first.") % {
        "dealer": dealer.name,
        "first": first.name,
    }
    top = max(levels) if levels else 0
    if top:
        tv.board_text = _("Board level: %(board)s (×%(level)s)") % {
            "board": board_words(top),
            "level": top,
        }
    bids_done = len(view["bids"]) == 4
    if contracts is not None:
        tv.team_lines = team_lines(
            team_names, contracts, view["team_tricks"], view["hand_size"], bids_done
        )
    tv.summary = deal_summary(last_deal, seats, team_names)
    tv.team_tricks = view["team_tricks"]
    tv.totals = view["totals"]
    tv.scores = [
        ScoreRow(
            number=d["number"],
            hand_size=hand_size_of(d["number"]),
            note=_("in play") if d["status"] == "in_progress" else status_text(d["status"]),
            score=d["score"],
            totals=d["totals"],
            current=d["status"] == "in_progress",
        )
        for d in view["deals"]
    ]
    result = view.get("result")
    if result:
        w = result["winner"]
        tv.result = _("A draw.") if w is None else _("%(team)s win.") % {"team": team_names[w]}
    return tv


def time_control_text(options: dict[str, Any] | None) -> str:
    """A game's time control in words, said by the app that owns the option (the clock)."""
    value = (options or {}).get("time_control")
    text = extensions.option_text("time_control", value) if value else None
    return text or _("no clock")


@dataclass(frozen=True)
class Deadline:
    at: datetime  # when the move's own time runs out
    final: datetime | None  # with the seat's reserve: the house bot moves then
    paused: bool  # the player is on vacation


def deadline(payload: dict[str, Any]) -> Deadline | None:
    """The running deadline of the seat to act, from the clock's part of a game payload."""
    running = (payload.get("clock") or {}).get("running") or {}
    at = running.get("deadline")
    if not isinstance(at, str):
        return None
    final = running.get("final_deadline")
    return Deadline(
        at=parse_datetime(at),  # type: ignore[arg-type]
        final=parse_datetime(final) if isinstance(final, str) and final != at else None,
        paused=bool(running.get("paused")),
    )


def open_choices(summary: dict[str, Any]) -> list[tuple[int, str]]:
    """The open seats of a waiting game, each named by whom it partners (docs/rules.md §1);
    a seat held for an invited player is not open."""
    seats = summary["seats"]
    held = {i["position"] for i in summary.get("invited") or []}
    out = []
    for pos, info in enumerate(seats):
        if info is not None or pos in held:
            continue
        partner = seats[partner_of(pos)]
        out.append(
            (
                pos,
                _("Sit as %(name)s’s partner") % {"name": partner["player"]}
                if partner
                else _("Take open seat %(number)s") % {"number": pos + 1},
            )
        )
    return out


def teams(seats: list[SeatView]) -> list[list[SeatView]]:
    """The two partnerships (docs/rules.md §1): seats 0 and 2, then seats 1 and 3."""
    by_position = sorted(seats, key=lambda s: s.position)
    return [[by_position[0], by_position[2]], [by_position[1], by_position[3]]]


@dataclass
class WaitingSeat:
    """One seat of a waiting game: who sits there, who is invited to it, and whether the
    viewer (the game's creator) may invite someone to it."""

    seat: SeatView
    invited: str | None = None
    invited_is_bot: bool = False
    answer_by: datetime | None = None
    can_invite: bool = False


def waiting_seats(
    summary: dict[str, Any], seats: list[SeatView], *, host: bool
) -> list[WaitingSeat]:
    held = {i["position"]: i for i in summary.get("invited") or []}
    out = []
    for s in sorted(seats, key=lambda s: s.position):
        i = held.get(s.position)
        out.append(
            WaitingSeat(
                seat=s,
                invited=i["player"] if i else None,
                invited_is_bot=bool(i and i["is_bot"]),
                answer_by=parse_datetime(i["expires_at"]) if i else None,
                can_invite=host and s.open and i is None,
            )
        )
    return out


def claim_panel(payload: dict[str, Any], seats: list[SeatView]) -> dict[str, Any] | None:
    """The claim waiting for answers (docs/rules.md §10), as the page shows it: who claims
    how many of the remaining tricks, the claimant's hand (public from the claim on), and
    whether the viewer is asked to answer."""
    view = payload.get("view") or {}
    claim = view.get("claim")
    if not claim or claim.get("status") != "pending":
        return None
    viewer = payload.get("your_seat")
    claimant = claim["seat"]
    shown = (view.get("shown_hands") or {}).get(str(claimant))
    if shown is None and viewer == claimant:
        shown = view.get("hand") or []
    return {
        "seat": seats[claimant],
        "tricks": claim["tricks"],
        "remaining": claim["remaining"],
        "hand": [card_view(c) for c in sorted_hand(shown or [], view.get("trump"))],
        "asked": viewer is not None and viewer in claim["waiting_for"],
        "waiting": [seats[s] for s in claim["waiting_for"]],
        "mine": viewer is not None and viewer % 2 == claimant % 2,
    }


def claim_choices(payload: dict[str, Any]) -> list[int]:
    """The numbers a seated viewer may claim now (0 concedes), or [] when no claim is open:
    between tricks of a deal in play, none pending, none refused for its side since."""
    view = payload.get("view") or {}
    if (
        payload.get("your_seat") is None
        or payload.get("status") != "active"
        or view.get("phase") != "playing"
        or view.get("trick")
        or view.get("claim")
    ):
        return []
    left = view["hand_size"] - len(view["tricks"])
    return list(range(left + 1))


def premove_bids(payload: dict[str, Any]) -> list[dict[str, str]]:
    """The bids a seated viewer may queue now: in the bidding, not its turn, before its own
    bid (docs/rules.md §10). Every bid of the deal's range: the one queued is checked again
    when its turn comes, and dropped with the reason if it is not legal then."""
    view = payload.get("view") or {}
    seat = payload.get("your_seat")
    if (
        seat is None
        or payload.get("status") != "active"
        or view.get("phase") != "bidding"
        or view.get("seat_to_act") in (None, seat)
        or any(b["seat"] == seat for b in view["bids"])
    ):
        return []
    values = ["pass", *(str(k) for k in range(1, view["hand_size"])), "board"]
    return [{"value": v, "text": bid_text(v)} for v in values]


def shown_hands(payload: dict[str, Any], seats: list[SeatView]) -> list[dict[str, Any]]:
    """The hands other seats showed by claiming in this deal (as they are now)."""
    view = payload.get("view") or {}
    out = []
    for pos, cards in sorted((view.get("shown_hands") or {}).items()):
        out.append(
            {
                "seat": seats[int(pos)],
                "cards": [card_view(c) for c in sorted_hand(cards, view.get("trump"))],
            }
        )
    return out
