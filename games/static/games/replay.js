// The record page's replay: steps through the game record (docs/record-format.md) one card
// at a time. Its words come from the page's catalog (Django's JavaScript catalog).
(function () {
  "use strict";
  var data = document.getElementById("game-record");
  if (!data) return;
  var rec = JSON.parse(data.textContent);
  var names = window.BA_CARD_NAMES || {};
  var SUITS = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var deals = rec.deals || [];
  var steps = [];
  deals.forEach(function (d, i) {
    var total = 0;
    (d.tricks || []).forEach(function (t) { total += t.cards.length; });
    for (var n = 0; n <= total; n++) steps.push({deal: i, played: n, total: total});
  });
  var at = steps.length - 1;
  if (rec.result) {  // a finished game opens at its first deal's first card
    at = 0;
  }
  function fmt(text, values) { return interpolate(text, values, true); }
  function label(c) {
    if (c === "BB" || c === "LB") return names[c] || c;
    return (c[0] === "T" ? "10" : c[0]) + (SUITS[c[1]] || c[1]);
  }
  function cardEl(c, played) {
    var s = document.createElement("span");
    s.className = "card" + (played ? " played" : "") + ((c[1] === "H" || c[1] === "D") ? " red" : "");
    s.textContent = label(c);
    s.setAttribute("data-card", c);
    if (names[c]) s.title = names[c];
    return s;
  }
  function bidText(b) {
    if (b === undefined) return "";
    if (b === "pass") return pgettext("bid", "pass");
    if (b === "board") return pgettext("bid", "board");
    return String(b);
  }
  function player(seat) {
    return (rec.players && rec.players[seat]) || fmt(gettext("seat %(number)s"), {number: seat});
  }
  function el(id) { return document.getElementById(id); }
  function render() {
    if (!steps.length) return;
    var step = steps[at], d = deals[step.deal];
    var bids = {};
    (d.bids || []).forEach(function (b) { bids[b.seat] = b.bid; });
    var played = [], trick = null, won = [0, 0], left = step.played;
    (d.tricks || []).forEach(function (t, ti) {
      if (left <= 0) return;
      var k = Math.min(left, t.cards.length);
      var cards = t.cards.slice(0, k).map(function (c, j) { return {seat: (t.leader + j) % 4, card: c}; });
      played = played.concat(cards);
      trick = {index: ti, leader: t.leader, cards: cards, done: k === t.cards.length, winner: t.winner};
      if (k === t.cards.length && t.winner !== null && t.winner !== undefined) won[t.winner % 2] += 1;
      left -= k;
    });
    var gone = {};
    played.forEach(function (p) { gone[p.card] = true; });
    for (var seat = 0; seat < 4; seat++) {
      var box = el("replay-seat-" + seat);
      box.textContent = "";
      var head = document.createElement("div");
      var words = {name: player(seat), bid: bidText(bids[seat])};
      head.textContent = d.dealer === seat
        ? fmt(gettext("%(name)s (dealer) \u2014 bid: %(bid)s"), words)
        : fmt(gettext("%(name)s \u2014 bid: %(bid)s"), words);
      box.appendChild(head);
      var hand = d.hands && d.hands[seat];
      if (hand) {
        hand.filter(function (c) { return !gone[c]; }).forEach(function (c) { box.appendChild(cardEl(c, false)); });
      } else {
        var h = document.createElement("em"); h.textContent = gettext("hand hidden"); box.appendChild(h);
      }
      var toPlay = trick && !trick.done ? (trick.leader + trick.cards.length) % 4 : null;
      box.className = "seat" + (toPlay === seat ? " to-play" : "");
    }
    var t = el("replay-trick");
    t.textContent = "";
    if (trick) {
      var cap = document.createElement("div");
      cap.textContent = trick.done && trick.winner !== null
        ? fmt(gettext("Trick %(number)s \u2014 won by %(name)s"), {number: trick.index + 1, name: player(trick.winner)})
        : fmt(gettext("Trick %(number)s"), {number: trick.index + 1});
      t.appendChild(cap);
      trick.cards.forEach(function (p) {
        var line = document.createElement("div");
        line.appendChild(document.createTextNode(fmt(gettext("%(name)s: "), {name: player(p.seat)})));
        line.appendChild(cardEl(p.card, true));
        t.appendChild(line);
      });
    } else {
      t.textContent = d.status === "voided" || d.status === "passed_out" ? gettext("All passed: no play") : gettext("Bidding done; no card played yet");
    }
    var facts = {
      number: d.number, attempt: d.attempt, count: d.hand_size, upcard: label(d.upcard),
      trump: d.trump ? SUITS[d.trump] : gettext("none")
    };
    el("replay-deal").textContent = d.attempt
      ? fmt(ngettext("Deal %(number)s (redeal %(attempt)s) \u00b7 %(count)s card \u00b7 upcard %(upcard)s \u00b7 trump %(trump)s",
                     "Deal %(number)s (redeal %(attempt)s) \u00b7 %(count)s cards \u00b7 upcard %(upcard)s \u00b7 trump %(trump)s", d.hand_size), facts)
      : fmt(ngettext("Deal %(number)s \u00b7 %(count)s card \u00b7 upcard %(upcard)s \u00b7 trump %(trump)s",
                     "Deal %(number)s \u00b7 %(count)s cards \u00b7 upcard %(upcard)s \u00b7 trump %(trump)s", d.hand_size), facts);
    var end = step.played === step.total;
    var score = {a: won[0], b: won[1]};
    if (end && d.score) {
      score.sa = d.score[0]; score.sb = d.score[1]; score.ta = d.totals[0]; score.tb = d.totals[1];
      el("replay-tricks").textContent = fmt(gettext("Tricks: team 0 %(a)s, team 1 %(b)s \u2014 deal score %(sa)s / %(sb)s, totals %(ta)s \u2013 %(tb)s"), score);
    } else {
      el("replay-tricks").textContent = fmt(gettext("Tricks: team 0 %(a)s, team 1 %(b)s"), score);
    }
    el("replay-position").textContent = fmt(gettext("step %(step)s of %(steps)s \u00b7 card %(card)s of %(cards)s"),
      {step: at + 1, steps: steps.length, card: step.played, cards: step.total});
    el("replay-prev").disabled = at === 0;
    el("replay-next").disabled = at === steps.length - 1;
  }
  function go(i) { at = Math.max(0, Math.min(steps.length - 1, i)); render(); }
  function dealStart(di) { for (var i = 0; i < steps.length; i++) if (steps[i].deal === di) return i; return at; }
  el("replay-next").addEventListener("click", function () { go(at + 1); });
  el("replay-prev").addEventListener("click", function () { go(at - 1); });
  el("replay-next-deal").addEventListener("click", function () { go(dealStart(Math.min(deals.length - 1, steps[at].deal + 1))); });
  el("replay-prev-deal").addEventListener("click", function () {
    var di = steps[at].deal, start = dealStart(di);
    go(at > start ? start : dealStart(Math.max(0, di - 1)));
  });
  el("replay").addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") { go(at + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { go(at - 1); e.preventDefault(); }
  });
  render();
})();
