// The table page: post moves to the JSON API and follow the game through its event feed.
//
// The server renders the board (only from this seat's view); nothing here decides a rule:
// cards and bids come enabled or not from the engine's legal actions, and a card that may
// not be played carries the engine's own reason. The page follows the game by server-sent
// events (EventSource, which resumes by Last-Event-ID after a cut), or by long polls where
// EventSource fails; there is no fixed-interval polling. Each event is shown as it lands:
// a card on the felt, a finished trick held (with its winner marked) for a short pause
// before the next lead, and a deal's summary once it ends. When the events run out, one
// fresh board is fetched.
//
// Every word it shows comes from the page's catalog (Django's JavaScript catalog, loaded
// before this script): gettext, ngettext and interpolate with named placeholders; the
// cards' names in the page's language from cardnames.js.
(function () {
  "use strict";

  var root = document.getElementById("table");
  if (!root) return;
  function fmt(text, values) { return interpolate(text, values, true); }
  var CARD_NAMES = window.BA_CARD_NAMES || {};
  var api = root.dataset.api;
  var boardUrl = root.dataset.board;
  var seat = root.dataset.seat;
  var pauseMs = parseInt(root.dataset.pause || "1500", 10);
  var pollWait = parseInt(root.dataset.wait || "0", 10);
  // Streams only from a feed that can hold them (async views); else long polls.
  var streams = root.dataset.stream === "1" && !!window.EventSource;
  var seatQuery = seat === "" ? "" : "seat=" + encodeURIComponent(seat);
  var csrf = (root.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  var notice = document.getElementById("notice");
  var news = document.getElementById("news");
  var busy = false;
  var returnFocus = false; // after this page's own move, focus goes back to the hand
  var pending = null; // {action, seq, key}: retried with the same key after a network failure

  function board() { return document.getElementById("board"); }
  function boardSeq() { return parseInt(board().dataset.seq, 10); }
  function status() { return board().dataset.status; }
  function names() { return (board().dataset.names || "").split("|"); }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  function say(text, kind) {
    notice.textContent = text || "";
    notice.className = "notice" + (kind ? " " + kind : "");
    notice.hidden = !text;
  }

  // --- the board -------------------------------------------------------------------------

  function focusKey() {
    var el = document.activeElement;
    if (!el || !board().contains(el)) return null;
    if (el.dataset.card) return "[data-card='" + el.dataset.card + "']";
    if (el.dataset.bid) return "[data-bid='" + el.dataset.bid + "']";
    return el.id ? "#" + el.id : null;
  }

  function playable() {
    return board().querySelector(".bids button, .hand button:not([aria-disabled='true'])");
  }

  // Whether keyboard focus was last in the hand or the bids (kept there across swaps).
  var handFocus = false;
  document.addEventListener("focusin", function (e) {
    handFocus = !!(e.target.closest && e.target.closest(".hand, .bids"));
  });

  function focusHand() {
    var target = playable() || board().querySelector(".hand button");
    if (target) target.focus();
  }

  // The deal summary shows once its deal ends live (or on arrival during the next deal's
  // bidding) and stays until dismissed or the next move.
  var summaryKey = null;
  var dismissed = {};

  function syncSummary() {
    var panel = document.getElementById("deal-summary");
    if (!panel) return;
    panel.hidden = !(summaryKey && panel.dataset.deal === summaryKey && !dismissed[summaryKey]);
  }

  function dismissSummary() {
    if (summaryKey) dismissed[summaryKey] = true;
    summaryKey = null;
    syncSummary();
  }

  function swap(html) {
    var key = focusKey();
    var scores = document.getElementById("scores");
    var scoresOpen = scores ? scores.open : null;
    var tmp = document.createElement("div");
    tmp.innerHTML = html.trim();
    var fresh = tmp.querySelector("#board");
    if (!fresh) return;
    if (fresh.dataset.deal !== board().dataset.deal) news.textContent = "";
    board().replaceWith(fresh);
    var newScores = document.getElementById("scores");
    if (newScores && scoresOpen !== null) newScores.open = scoresOpen;
    syncSummary();
    var target = key && board().querySelector(key);
    // After this page's move (or when the focused button went away), focus goes back to
    // the hand: the first card or bid that may be chosen, else the first card.
    var lost = handFocus && !board().contains(document.activeElement);
    if (returnFocus || (key && !target) || lost) { returnFocus = false; focusHand(); }
    else if (target) target.focus();
    showTurnInTitle();
  }

  var baseTitle = document.title;
  function showTurnInTitle() {
    document.title = board().classList.contains("my-turn")
      ? fmt(gettext("\u25CF Your turn \u00B7 %(title)s"), { title: baseTitle })
      : baseTitle;
  }

  // One board fetch at a time: a refresh asked for while one is on its way runs once that
  // one has answered (so the newest state is always fetched, and boards never answer out of
  // order). A board older than the one shown is dropped, one identical to it is not swapped
  // in (focus and screen readers stay put), and one older than the events heard is fetched
  // again.
  var BOARD_SEQ = /id="board"[^>]*data-seq="(\d+)"/;
  var fetching = null;
  var fetchAgain = false;
  // The text of the board on the page as fetched, until the page changes that board (a card
  // lands, buttons are disabled during a move, …): the observer forgets it at any change.
  var shownHtml = null;
  var boardChanges = new MutationObserver(function () { shownHtml = null; });
  function showFetched(text) {
    if (text === shownHtml) return;
    swap(text);
    boardChanges.disconnect();
    boardChanges.observe(board(), { subtree: true, childList: true, attributes: true, characterData: true });
    shownHtml = text;
  }
  function refresh() {
    if (fetching) { fetchAgain = true; return fetching; }
    fetching = fetchBoard().finally(function () {
      fetching = null;
      if (fetchAgain) { fetchAgain = false; return refresh(); }
    });
    return fetching;
  }

  function fetchBoard() {
    return fetch(boardUrl + (seatQuery ? "?" + seatQuery : ""), {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
      cache: "no-store",
      signal: timeoutSignal(REQUEST_MS),
    }).then(function (r) {
      if (r.redirected || r.status === 403) { window.location.reload(); return; }
      if (!r.ok) throw new Error("board " + r.status);
      return r.text().then(function (html) {
        var found = BOARD_SEQ.exec(html);
        if (found && parseInt(found[1], 10) < boardSeq()) return;
        showFetched(html.trim());
        if (curSeq > boardSeq() && !busy && !pumping && !queue.length) fetchAgain = true;
      });
    });
  }

  // Requests that never answer are given up, so that the page can try again.
  var REQUEST_MS = 20000;
  function timeoutSignal(ms) {
    if (window.AbortSignal && AbortSignal.timeout) return AbortSignal.timeout(ms);
    return undefined;
  }

  // Until the board has caught up with ``seq`` (this page's own move, or the events heard),
  // it is fetched again, further apart each time: a board fetch that failed (a dropped
  // connection, a server restarting) or a feed slow to bring a move never leaves the table
  // behind the game. While events are still being shown, their own refresh comes first.
  var CATCH_UP_TRIES = 8;
  function catchUp(seq, tries) {
    var attempt = tries || 0;
    if (boardSeq() >= seq || attempt >= CATCH_UP_TRIES) return Promise.resolve();
    return sleep(attempt ? Math.min(500 * Math.pow(2, attempt), 8000) : 0).then(function () {
      if (boardSeq() >= seq) return null;
      if (busy || pumping || queue.length) return catchUp(seq, attempt + 1);
      return refresh().then(
        function () { return catchUp(seq, attempt + 1); },
        function () { return catchUp(seq, attempt + 1); }
      );
    });
  }

  // --- cards on the felt, as they land ---------------------------------------------------

  var SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }; // css classes
  var SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

  function cardLabel(code) { return CARD_NAMES[code] || code; }

  function cardEl(code) {
    var span = document.createElement("span");
    var joker = code === "BB" || code === "LB";
    span.className = "card " + (joker ? "joker" : SUITS[code[1]]);
    span.dataset.card = code;
    span.title = cardLabel(code);
    var rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = joker ? code : (code[0] === "T" ? "10" : code[0]);
    var suit = document.createElement("span");
    suit.className = "suit";
    suit.setAttribute("aria-hidden", "true");
    suit.textContent = joker ? (code === "BB" ? "\u2605" : "\u2606") : SYMBOLS[code[1]];
    var sr = document.createElement("span");
    sr.className = "sr-only";
    sr.textContent = " " + cardLabel(code);
    span.append(rank, suit, sr);
    return span;
  }

  function plate(pos) { return board().querySelector(".seat[data-position='" + pos + "']"); }

  var heldSince = 0; // when a finished trick was shown (0: none held)

  function trickBox() { return document.getElementById("trick"); }

  function clearTrick() {
    var box = trickBox();
    if (!box) return;
    box.classList.remove("done");
    box.setAttribute("aria-label", gettext("The current trick"));
    box.innerHTML = "";
    heldSince = 0;
  }

  function markLead(pos) {
    board().querySelectorAll(".lead-mark").forEach(function (m) { m.remove(); });
    var p = plate(pos);
    if (!p) return;
    var mark = document.createElement("span");
    mark.className = "lead-mark";
    mark.title = gettext("Led this trick");
    mark.textContent = pgettext("mark of the seat that led", "lead");
    p.querySelector(".seat-name").append(" ", mark);
  }

  function showPlay(ev) {
    var box = trickBox();
    var p = plate(ev.seat);
    if (!box || !p) return;
    if (box.classList.contains("done") || box.querySelector(".trick-empty")) clearTrick();
    if (!box.querySelector(".played")) markLead(ev.seat);
    var div = document.createElement("div");
    div.className = "played at-" + p.dataset.place;
    div.dataset.position = ev.seat;
    var by = document.createElement("span");
    by.className = "by";
    by.textContent = p.dataset.name;
    div.append(cardEl(ev.card), by);
    box.append(div);
    if (String(ev.seat) === seat) {
      var mine = board().querySelector(".hand [data-card='" + ev.card + "']");
      if (mine && mine === document.activeElement) {
        var near = mine.nextElementSibling || mine.previousElementSibling;
        if (near) near.focus();
      }
      if (mine) mine.remove();
    }
  }

  function showTrick(ev) {
    var box = trickBox();
    if (!box) return;
    box.classList.add("done");
    box.setAttribute("aria-label", gettext("The finished trick"));
    var won = box.querySelector(".played[data-position='" + ev.winner + "']");
    if (won) {
      won.classList.add("winner");
      var s = document.createElement("strong");
      s.textContent = pgettext("the trick's winner", "won");
      won.querySelector(".by").append(" ", s);
    }
    heldSince = Date.now();
  }

  function seatName(pos) { return names()[pos] || fmt(gettext("seat %(number)s"), { number: pos }); }
  function bidWord(bid) {
    if (bid === "pass") return pgettext("bid", "pass");
    if (bid === "board") return pgettext("bid", "board");
    return String(bid);
  }

  function describe(ev) {
    var who = seatName(ev.seat);
    if (ev.type === "play" && ev.by === "auto") return fmt(gettext("%(who)s played the %(card)s (played for them: their only card, or a settled deal)."), { who: who, card: cardLabel(ev.card) });
    if (ev.type === "play" && ev.by === "premove") return fmt(gettext("%(who)s played the %(card)s (queued in advance)."), { who: who, card: cardLabel(ev.card) });
    if (ev.type === "claim") return fmt(gettext("%(who)s claims %(n)s of the remaining %(r)s tricks."), { who: who, n: ev.tricks, r: ev.remaining });
    if (ev.type === "claim_answer") return ev.answer === "accept" ? fmt(gettext("%(who)s accepts the claim."), { who: who }) : fmt(gettext("%(who)s refuses the claim."), { who: who });
    if (ev.type === "claim_end") return ev.how === "proven" ? gettext("The claim holds however anyone plays: the deal is over.") : gettext("Both opponents accepted the claim: the deal is over.");
    if (ev.type === "claim_off") return ev.reason === "lapsed" ? gettext("The claim was not answered in time: play goes on.") : gettext("The claim was refused: play goes on.");
    if (ev.type === "bid") return fmt(gettext("%(name)s bid %(bid)s."), { name: who, bid: bidWord(ev.bid) });
    if (ev.type === "play") return fmt(gettext("%(name)s played the %(card)s."), { name: who, card: cardLabel(ev.card) });
    if (ev.type === "trick") return fmt(gettext("%(name)s won the trick."), { name: seatName(ev.winner) });
    if (ev.type === "deal_start") return fmt(gettext("Deal %(number)s is dealt."), { number: ev.number });
    if (ev.type === "game_end") return gettext("The game is over.");
    return "";
  }

  // --- the queue of events ---------------------------------------------------------------

  var queue = [];
  var pumping = false;
  var doneSeq = boardSeq(); // every event up to here is on the page
  var curSeq = doneSeq; // the seq whose events are arriving

  function accept(ev) {
    if (ev.seq <= doneSeq) return false;
    if (ev.seq > curSeq) { doneSeq = curSeq; curSeq = ev.seq; }
    return true;
  }

  function enqueue(events) {
    events.forEach(function (ev) { if (accept(ev)) queue.push(ev); });
    if (!pumping) pump();
  }

  // A card after a finished trick waits until the trick has been on the felt for the pause;
  // cards arriving together (bots answering at once) land one after another.
  // An event the board on the page already shows (a refresh brought a newer board while
  // the event waited its turn) only updates the news line: its card is on the felt already.
  function step(ev) {
    var line = describe(ev);
    if (line) news.textContent = line;
    var onBoard = ev.seq <= boardSeq();
    if (ev.type === "play") {
      if (onBoard) return null;
      var wait = heldSince ? heldSince + pauseMs - Date.now() : 0;
      return sleep(Math.max(wait, 0)).then(function () {
        if (ev.seq <= boardSeq()) return null;
        showPlay(ev);
        return queue.length ? sleep(Math.min(350, pauseMs / 3)) : null;
      });
    }
    if (ev.type === "trick") { if (!onBoard) showTrick(ev); return null; }
    if (ev.type === "deal_end") {
      summaryKey = ev.number + "." + ev.attempt;
      if (onBoard) { syncSummary(); return null; }
      var hold = heldSince ? heldSince + pauseMs - Date.now() : 0;
      return sleep(Math.max(hold, 0)).then(refresh);
    }
    if (ev.type === "game_end") return onBoard ? null : refresh();
    if (ev.type === "claim" || ev.type === "claim_answer" || ev.type === "claim_off") return onBoard ? null : refresh();
    return null;
  }

  function pump() {
    pumping = true;
    if (!queue.length) {
      pumping = false;
      if (curSeq !== boardSeq() && !busy) {
        var heardSeq = curSeq;
        return refresh().catch(function () { return catchUp(heardSeq, 1); });
      }
      return Promise.resolve();
    }
    var ev = queue.shift();
    return Promise.resolve(step(ev)).catch(function () {}).then(pump);
  }

  // --- following the game ----------------------------------------------------------------

  function finished() { var st = status(); return st === "finished" || st === "aborted"; }

  function followStream() { reopen(0); }

  function reopen(failuresSoFar) {
    var url = api + "events/stream/?since=" + curSeq + "&timeout=3600" + (seatQuery ? "&" + seatQuery : "");
    var source = new EventSource(url, { withCredentials: true });
    var heard = false;
    var failures = failuresSoFar;
    function onEvent(e) {
      heard = true;
      failures = 0;
      try { enqueue([JSON.parse(e.data)]); } catch (err) { /* a malformed event is skipped */ }
    }
    ["bid", "play", "trick", "deal_start", "deal_end", "joker_swap", "hand", "game_end", "game_start", "seat", "claim", "claim_answer", "claim_end", "claim_off"].forEach(function (t) {
      source.addEventListener(t, onEvent);
    });
    source.onmessage = onEvent;
    var opened = false;
    source.onopen = function () { opened = true; doneSeq = curSeq; };
    // A stream that does not open at once is being held back on the way (a buffering proxy
    // or server): follow by long polls instead.
    setTimeout(function () {
      if (!opened && !heard) { source.close(); followPoll(); }
    }, 5000);
    source.onerror = function () {
      // A cut stream resumes from the last event id this page handled (the feed's `since`
      // wins over the Last-Event-ID that EventSource would resend with the first URL), so
      // nothing is repeated or lost; one that keeps failing before any event falls back to
      // long polls.
      source.close();
      if (finished() && !queue.length) return;
      failures += 1;
      if (!heard && failures >= 3) { followPoll(); return; }
      sleep(Math.min(1000 * failures, 5000)).then(function () { reopen(failures); });
    };
    window.addEventListener("pagehide", function () { source.close(); });
  }

  // A waiting table hears of the game's start by the feed; of answers to its invitations and
  // seats taken before the start, when the page comes back into view (say a phone back
  // from a message to a friend). A name being typed into an invite box is not wiped.
  function typingInBoard() {
    return Array.prototype.some.call(board().querySelectorAll("input[type=text]"), function (i) {
      return i === document.activeElement || i.value !== "";
    });
  }
  // A game under way fetches its board when the page comes back into view too (a tapped
  // notification, a phone unlocked): the feed may have been cut while the page was away.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    if (status() === "waiting" && !typingInBoard()) refresh();
    else if (status() === "active" && !busy) refresh();
  });

  var quiet = 0;
  function followPoll() {
    if (finished()) return;
    var since = status() === "waiting" ? -1 : curSeq;
    var url = api + "events/?since=" + since + "&wait=" + pollWait + (seatQuery ? "&" + seatQuery : "");
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error("events " + r.status);
        return r.json();
      })
      .then(function (data) {
        if (status() === "waiting" && data.status !== "waiting") return refresh().then(function () { return "started"; });
        if (data.events && data.events.length) { quiet = 0; enqueue(data.events); return null; }
        // A server that cannot hold a waiting request (wait = 0) is asked again after a
        // growing rest; with wait > 0 the next long poll starts at once.
        if (pollWait === 0) { quiet = Math.min(quiet + 1, 5); return sleep(quiet * 1000); }
        return null;
      }, function () { return sleep(5000); })
      .then(function (started) {
        // Once a waiting game starts, follow it by its stream where the browser can.
        if (started && streams && status() === "active") followStream(); else followPoll();
      });
  }

  // --- moves -----------------------------------------------------------------------------

  function setBusy(on) {
    busy = on;
    board().classList.toggle("busy", on);
    board().querySelectorAll(".hand button, .bids button").forEach(function (b) {
      if (on) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; }
      else if (b.dataset.wasDisabled !== undefined) { b.disabled = b.dataset.wasDisabled === "1"; }
    });
  }

  function submit(action) {
    if (busy) return;
    var atSeq = boardSeq();
    var same = pending && pending.seq === atSeq && JSON.stringify(pending.action) === JSON.stringify(action);
    var key = same ? pending.key : newKey();
    pending = { action: action, seq: atSeq, key: key };
    var body = { action: action, expected_seq: atSeq };
    if (seat !== "") body.seat = parseInt(seat, 10);
    var hadFocus = board().contains(document.activeElement);
    dismissSummary();
    setBusy(true);
    say("");
    fetch(api + "moves/", {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrf,
        "Idempotency-Key": key,
      },
      body: JSON.stringify(body),
      signal: timeoutSignal(REQUEST_MS),
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        pending = null;
        setBusy(false);
        returnFocus = hadFocus;
        if (!r.ok) {
          say(data.message || fmt(gettext("That move was not accepted (%(status)s)."), { status: r.status }), "error");
          return refresh().catch(function () {});
        }
        // The feed brings this move and the answers to it; the board follows when they end.
        // Until then nothing else may be chosen.
        board().querySelectorAll(".hand button, .bids button").forEach(function (b) {
          b.setAttribute("aria-disabled", "true");
        });
        if (hadFocus && !board().contains(document.activeElement)) focusHand();
        var seqNow = data.move && data.move.seq;
        if (!seqNow) return refresh().catch(function () {});
        // The feed may have brought this move (and its answers) while it was on its way;
        // else it brings them soon, and the board follows when they end. Should the feed
        // be slow to bring this move, the board is fetched without it.
        if (curSeq >= seqNow && !queue.length && !pumping) return refresh().catch(function () { return catchUp(seqNow, 1); });
        return sleep(3000).then(function () { return catchUp(seqNow); });
      });
    }).catch(function () {
      setBusy(false);
      say(gettext("The connection failed; your move may not have been sent. Choose it again to retry."), "error");
    });
  }

  // --- premoves and claims (docs/rules.md §10) ---------------------------------------------

  // A JSON request of this page to the game's API; resolves to {ok, data}.
  function call(method, tail, body) {
    return fetch(api + tail + (seatQuery && method !== "PUT" && method !== "POST" ? "?" + seatQuery : ""), {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf, "Idempotency-Key": newKey() },
      body: body ? JSON.stringify(body) : undefined,
      signal: timeoutSignal(REQUEST_MS),
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return { ok: r.ok, data: data }; });
    });
  }

  function withSeat(body) {
    if (seat !== "") body.seat = parseInt(seat, 10);
    return body;
  }

  function afterCall(res) {
    if (!res.ok) say(res.data.message || gettext("That was not accepted."), "error");
    else say("");
    return refresh().catch(function () {});
  }

  // Out of turn, a card clicked is queued (shown raised) and played the moment the turn
  // comes if it is legal then; clicking the raised card again cancels it.
  function togglePremove(btn) {
    if (busy) return;
    var queued = btn.classList.contains("premoved");
    setBusy(true);
    var req = queued ? call("DELETE", "premove/") : call("PUT", "premove/", withSeat({ action: { card: btn.dataset.card } }));
    req.then(function (res) {
      setBusy(false);
      if (res.ok) say(queued ? gettext("Your queued card is cancelled.") : gettext("Queued: it is played the moment your turn comes, if it is legal then."));
      return afterCall(res.ok ? { ok: true } : res);
    }, function () { setBusy(false); say(gettext("The connection failed: try again."), "error"); });
  }

  // Out of turn in the bidding, a bid clicked is queued (marked) the same way.
  function togglePremoveBid(btn) {
    if (busy) return;
    var queued = btn.classList.contains("premoved");
    var b = btn.dataset.premoveBid;
    setBusy(true);
    var req = queued ? call("DELETE", "premove/") : call("PUT", "premove/", withSeat({ action: { bid: /^\d+$/.test(b) ? parseInt(b, 10) : b } }));
    req.then(function (res) {
      setBusy(false);
      if (res.ok) say(queued ? gettext("Your queued bid is cancelled.") : gettext("Queued: your bid is made the moment your turn comes, if it is legal then."));
      return afterCall(res.ok ? { ok: true } : res);
    }, function () { setBusy(false); say(gettext("The connection failed: try again."), "error"); });
  }

  root.addEventListener("submit", function (e) {
    var form = e.target.closest("#claim-form");
    if (!form) return;
    e.preventDefault();
    var tricks = parseInt(form.querySelector("select[name=tricks]").value, 10);
    call("POST", "claim/", withSeat({ tricks: tricks })).then(afterCall, function () {
      say(gettext("The connection failed: try again."), "error");
    });
  });

  function answerClaim(btn) {
    btn.disabled = true;
    call("POST", "claim/" + btn.dataset.claimAnswer + "/", withSeat({})).then(afterCall, function () {
      btn.disabled = false;
      say(gettext("The connection failed: try again."), "error");
    });
  }

  function choose(btn) {
    if (btn.dataset.premoveBid) {
      togglePremoveBid(btn);
      return;
    }
    if (btn.dataset.card) {
      if (btn.closest(".hand.premovable") && !board().classList.contains("my-turn")) {
        togglePremove(btn);
        return;
      }
      if (btn.getAttribute("aria-disabled") === "true") {
        // On demand: why this card may not be played now, in the engine's words.
        if (btn.dataset.reason) say(btn.dataset.reason, "error");
        return;
      }
      submit({ card: btn.dataset.card });
    } else if (btn.dataset.bid) {
      if (btn.getAttribute("aria-disabled") === "true") return;
      var b = btn.dataset.bid;
      submit({ bid: /^\d+$/.test(b) ? parseInt(b, 10) : b });
    }
  }

  root.addEventListener("click", function (e) {
    var tip = e.target.closest("button.tip");
    if (tip) {
      var open = tip.getAttribute("aria-expanded") !== "true";
      tip.setAttribute("aria-expanded", open ? "true" : "false");
      tip.parentElement.classList.toggle("open", open);
      return;
    }
    if (e.target.closest("#summary-close")) { dismissSummary(); focusHand(); return; }
    var answer = e.target.closest("button[data-claim-answer]");
    if (answer && !answer.disabled) { answerClaim(answer); return; }
    var btn = e.target.closest("button[data-card], button[data-bid], button[data-premove-bid]");
    if (!btn || btn.disabled || !root.contains(btn)) return;
    choose(btn);
  });

  // --- the keyboard ----------------------------------------------------------------------
  // Arrows move along the hand (Enter plays), digits bid (two quick digits for 10 to 12),
  // p passes, b bids board, Escape closes the deal summary.
  var digits = "";
  var digitTimer = null;

  function bidButton(value) { return board().querySelector(".bids button[data-bid='" + value + "']"); }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (e.key === "Escape") { dismissSummary(); return; }
    var inHand = t && t.closest && t.closest(".hand");
    if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && inHand) {
      var cards = Array.prototype.slice.call(board().querySelectorAll(".hand button"));
      var i = cards.indexOf(t);
      if (i < 0) return;
      var next = cards[(i + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
      next.focus();
      e.preventDefault();
      return;
    }
    if (!board().querySelector(".bids") || busy) return;
    if (e.key === "p" || e.key === "b") {
      var btn = bidButton(e.key === "p" ? "pass" : "board");
      if (btn) { e.preventDefault(); btn.focus(); choose(btn); }
      return;
    }
    if (/^[0-9]$/.test(e.key)) {
      e.preventDefault();
      digits += e.key;
      clearTimeout(digitTimer);
      var longer = digits.length === 1 && board().querySelector(".bids button[data-bid^='" + digits + "']:not([data-bid='" + digits + "'])");
      var pick = function () {
        var b = bidButton(String(parseInt(digits, 10)));
        digits = "";
        if (b) { b.focus(); choose(b); }
      };
      if (longer) digitTimer = setTimeout(pick, 700); else pick();
    }
  });

  // A finished rated game is rated by the worker a moment after its last move: look again
  // a few times, further apart each time, until the rating changes show.
  var ratingTries = 0;
  function awaitRatings() {
    if (!document.getElementById("ratings-pending") || ratingTries >= 6) return;
    ratingTries += 1;
    sleep(500 * Math.pow(2, ratingTries)).then(refresh).then(awaitRatings, function () {});
  }
  var baseSwap = swap;
  swap = function (html) { baseSwap(html); if (finished() && ratingTries === 0) awaitRatings(); };

  // --- start -----------------------------------------------------------------------------
  var first = document.getElementById("deal-summary");
  if (first && board().classList.contains("phase-bidding")) {
    // Arriving while a new deal is being bid: show how the last one ended.
    summaryKey = first.dataset.deal;
    syncSummary();
  }
  showTurnInTitle();
  awaitRatings();
  if (!finished()) {
    if (streams && status() !== "waiting") followStream(); else followPoll();
  }
})();
