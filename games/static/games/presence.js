// A seat's table page says whether it is in view (POST .../presence/, games.live.presence):
// when it is shown, every few seconds while it stays shown, and when it is hidden or closed.
// While the page is in view nobody pushes "your turn" to this person's devices; once it
// has been away for a while, the push goes out. Only times are sent, never a card.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root || root.dataset.seat === "") return;
  var url = root.dataset.api + "presence/";
  var every = parseInt(root.dataset.presence || "20", 10) * 1000;
  var csrf = (root.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  var seat = parseInt(root.dataset.seat, 10);
  var timer = null;

  function say(shown) {
    // keepalive: the last word of a page being closed still reaches the server.
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      keepalive: !shown,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ shown: shown, seat: seat }),
    }).then(function (r) {
      return r.ok && shown ? r.json().then(showWhoIsHere) : null;
    }).catch(function () { /* a hint lost: the next one says it again */ });
  }

  // The answer says who is at the table now: the seats' marks stay fresh between moves.
  function showWhoIsHere(body) {
    (body.presence || []).forEach(function (p) {
      var mark = document.querySelector('#board .seat[data-position="' + p.position + '"] .presence');
      if (!mark || p.position === seat) return;
      mark.classList.toggle("here", p.present);
      var words = p.present ? mark.dataset.here : mark.dataset.away;
      mark.setAttribute("aria-label", words);
      mark.setAttribute("title", words);
    });
  }

  function shown() {
    say(true);
    if (timer === null) timer = setInterval(function () { say(true); }, every);
  }

  function hidden() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    say(false);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) hidden(); else shown();
  });
  window.addEventListener("pagehide", hidden);
  window.addEventListener("pageshow", function (e) { if (e.persisted && !document.hidden) shown(); });
  if (!document.hidden) shown();
})();
