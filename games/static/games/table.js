// The table page: post moves to the JSON API and follow the game through its event feed.
//
// The server renders the board (only from this seat's view); this script swaps in a fresh
// board whenever the game moves on, so nothing here decides a rule: buttons come enabled or
// not from the engine's legal actions.
(function () {
  "use strict";

  var root = document.getElementById("table");
  if (!root) return;
  var api = root.dataset.api;
  var boardUrl = root.dataset.board;
  var seat = root.dataset.seat;
  var wait = parseInt(root.dataset.wait || "0", 10);
  var seatQuery = seat === "" ? "" : "seat=" + encodeURIComponent(seat);
  var csrf = (root.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  var notice = document.getElementById("notice");
  var news = document.getElementById("news");
  var busy = false;
  var focusBefore = null; // focus as it was when a move was sent (sending disables buttons)
  var pending = null; // {action, seq, key}: retried with the same key after a network failure

  function board() { return document.getElementById("board"); }
  function seq() { return parseInt(board().dataset.seq, 10); }
  function status() { return board().dataset.status; }
  function names() { return (board().dataset.names || "").split("|"); }

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

  // Where keyboard focus was, so it can be put back on the same button after a swap.
  function focusKey() {
    var el = document.activeElement;
    if (!el || !board().contains(el)) return null;
    if (el.dataset.card) return "[data-card='" + el.dataset.card + "']";
    if (el.dataset.bid) return "[data-bid='" + el.dataset.bid + "']";
    return el.id ? "#" + el.id : null;
  }

  function restoreFocus(key, hadFocus) {
    var target = key && board().querySelector(key);
    if (target && !target.disabled) { target.focus(); return; }
    if (!hadFocus) return;
    // The focused card was just played: move to the first card or bid that can be chosen.
    var next = board().querySelector(".bids button, .hand button:not([disabled])");
    if (next) next.focus();
  }

  function swap(html) {
    var key = focusKey() || focusBefore;
    var hadFocus = key !== null;
    focusBefore = null;
    var scores = document.getElementById("scores");
    var scoresOpen = scores ? scores.open : null;
    var tmp = document.createElement("div");
    tmp.innerHTML = html.trim();
    var fresh = tmp.querySelector("#board");
    if (!fresh) return;
    if (fresh.dataset.deal !== board().dataset.deal) news.textContent = "";  // old deal's news
    board().replaceWith(fresh);
    var newScores = document.getElementById("scores");
    if (newScores && scoresOpen !== null) newScores.open = scoresOpen;
    restoreFocus(key, hadFocus);
    showTurnInTitle();
  }

  // A background tab shows in its title when the game waits on this seat.
  var baseTitle = document.title;
  function showTurnInTitle() {
    document.title = (board().classList.contains("my-turn") ? "\u25CF Your turn \u00B7 " : "") + baseTitle;
  }

  function refresh() {
    return fetch(boardUrl + (seatQuery ? "?" + seatQuery : ""), {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
      cache: "no-store",
    }).then(function (r) {
      if (r.redirected || r.status === 403) { window.location.reload(); return; }
      if (!r.ok) throw new Error("board " + r.status);
      return r.text().then(swap);
    });
  }

  var RANKS = { T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
  var SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

  // "ten of diamonds" for "TD": read aloud by screen readers in the news line.
  function cardName(code) {
    if (code === "BB") return "the Big Blooper";
    if (code === "LB") return "the Little Blooper";
    return "the " + (RANKS[code[0]] || code[0]) + " of " + SUITS[code[1]];
  }

  function describe(ev) {
    var who = names()[ev.seat] || "seat " + ev.seat;
    if (ev.type === "bid") return who + " bid " + ev.bid + ".";
    if (ev.type === "play") return who + " played " + cardName(ev.card) + ".";
    if (ev.type === "trick") return (names()[ev.winner] || "seat " + ev.winner) + " won the trick.";
    if (ev.type === "deal_start") return "Deal " + ev.number + " is dealt.";
    if (ev.type === "game_end") return "The game is over.";
    return "";
  }

  function announce(events) {
    // A new deal makes the old one's cards history: start the news at the latest deal.
    var start = 0;
    events.forEach(function (ev, i) { if (ev.type === "deal_start") start = i; });
    var lines = events.slice(start).map(describe).filter(Boolean);
    if (lines.length) news.textContent = lines.slice(-3).join(" ");
  }

  // While a move is on its way no other can be chosen; the fresh board re-enables them.
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
    var atSeq = seq();
    var same = pending && pending.seq === atSeq && JSON.stringify(pending.action) === JSON.stringify(action);
    var key = same ? pending.key : newKey();
    pending = { action: action, seq: atSeq, key: key };
    var body = { action: action, expected_seq: atSeq };
    if (seat !== "") body.seat = parseInt(seat, 10);
    focusBefore = focusKey();
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
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        pending = null;
        delay = FAST;  // the others move next (or the page was behind): look again soon
        if (!r.ok) say(data.message || "That move was not accepted (" + r.status + ").", "error");
        return refresh();
      });
    }).catch(function () {
      say("The connection failed; your move may not have been sent. Choose it again to retry.", "error");
    }).then(function () { setBusy(false); });
  }

  root.addEventListener("click", function (e) {
    var btn = e.target.closest("button[data-card], button[data-bid]");
    if (!btn || btn.disabled || !root.contains(btn)) return;
    if (btn.dataset.card) {
      submit({ card: btn.dataset.card });
    } else {
      var b = btn.dataset.bid;
      submit({ bid: /^\d+$/.test(b) ? parseInt(b, 10) : b });
    }
  });

  // Follow the game through its event feed, and swap in a fresh board when it moved on.
  //
  // With wait = 0 (the default) these are short polls that never hold a server worker:
  // every second after news, slowing down to every 5 s while others think, and to every
  // 20 s while it is this seat's turn or the tab is hidden. With wait > 0 (servers whose
  // workers can afford to wait) each poll is a long poll that answers as soon as news comes.
  var FAST = 1000, SLOW = 5000, IDLE = 20000;
  var delay = FAST;
  var wake = null;

  function nap(ms) {
    return new Promise(function (resolve) {
      var timer = setTimeout(done, ms);
      function done() { clearTimeout(timer); wake = null; resolve(); }
      wake = done;
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && wake) { delay = FAST; wake(); }
  });

  function pause(changed) {
    if (changed) { delay = FAST; return wait > 0 ? Promise.resolve() : nap(delay); }
    var idle = document.hidden || board().classList.contains("my-turn");
    delay = Math.min(Math.round(delay * 1.5), idle ? IDLE : SLOW);
    return wait > 0 ? Promise.resolve() : nap(delay);
  }

  function follow() {
    var st = status();
    if (st === "finished" || st === "aborted") return Promise.resolve();
    var since = st === "waiting" ? -1 : seq();
    var url = api + "events/?since=" + since + "&wait=" + wait + (seatQuery ? "&" + seatQuery : "");
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) {
        if (!r.ok) return nap(IDLE);
        return r.json().then(function (data) {
          var changed = data.seq !== seq() || data.status !== status();
          if (!changed) return pause(false);
          if (busy) return nap(300);
          // Announce after the swap: a swap into a new deal clears the old deal's news.
          return refresh().then(function () { announce(data.events || []); return pause(true); });
        });
      })
      .catch(function () { return nap(SLOW); })
      .then(follow);
  }

  showTurnInTitle();
  follow();
})();
