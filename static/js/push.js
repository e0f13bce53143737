// The push settings page (push/templates/push/settings.html): this device's notifications
// turned on (the browser asked for permission, subscribed through the service worker with
// the site's VAPID key, the subscription handed to the site) or off (forgotten by the site,
// then unsubscribed), and "this device" marked in the list of devices.
(function () {
  "use strict";
  var box = document.getElementById("this-device");
  var zoneButton = document.getElementById("use-device-zone");
  var zoneField = document.getElementById("id_time_zone");

  // The device's own time zone, one tap away (the field takes any IANA name).
  var deviceZone = "";
  try { deviceZone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (err) { deviceZone = ""; }
  if (zoneButton && zoneField && deviceZone && zoneField.value !== deviceZone) {
    zoneButton.hidden = false;
    zoneButton.addEventListener("click", function () { zoneField.value = deviceZone; zoneButton.hidden = true; });
  }

  if (!box) return;
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var csrf = box.querySelector("input[name=csrfmiddlewaretoken]").value;

  function say(state, text) {
    box.querySelectorAll("[data-state]").forEach(function (p) { p.hidden = p.dataset.state !== state; });
    if (text) box.querySelector('[data-state="' + state + '"]').textContent = text;
    on.hidden = !(state === "off" || state === "denied" || state === "failed" || state === "refused");
    off.hidden = !(state === "on" || state === "stuck");
    box.dataset.now = state;  // for the tests and the stylesheet
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window) || !window.crypto || !crypto.subtle) {
    say("unsupported");
    return;
  }

  function keyBytes(base64url) {
    var text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4));
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }

  function sameKey(subscription) {
    var given = subscription.options && subscription.options.applicationServerKey;
    if (!given) return true;  // a browser that does not say: taken as ours
    var mine = keyBytes(box.dataset.key);
    var theirs = new Uint8Array(given);
    if (mine.length !== theirs.length) return false;
    for (var i = 0; i < mine.length; i++) if (mine[i] !== theirs[i]) return false;
    return true;
  }

  // The page lists devices by a digest of their endpoint (the endpoint is the browser's secret).
  function mark(endpoint) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint)).then(function (digest) {
      return Array.prototype.map.call(new Uint8Array(digest), function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    });
  }

  function worker() {
    return navigator.serviceWorker.register(box.dataset.worker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
  }

  // On load: on when this browser's subscription is one of the devices the site lists.
  function look() {
    return worker().then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return say(Notification.permission === "denied" ? "denied" : "off");
      return mark(subscription.endpoint).then(function (digest) {
        var row = document.querySelector('#devices li[data-mark="' + digest + '"]');
        if (row) row.classList.add("this-device");
        say(row && sameKey(subscription) ? "on" : "off");
      });
    }).catch(function () { say("unsupported"); });
  }

  on.addEventListener("click", function () {
    say("working");
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say("denied"); return null; }
      return worker().then(function (registration) {
        return registration.pushManager.getSubscription().then(function (old) {
          // One made for another key (the site's keys were renewed) is of no use: made anew.
          if (old && !sameKey(old)) return old.unsubscribe().then(function () { return null; });
          return old;
        }).then(function (old) {
          return old || registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(box.dataset.key),
          });
        });
      }).then(function (subscription) {
        return post(box.dataset.add, subscription.toJSON()).then(function (response) {
          if (response.ok) { window.location.reload(); return null; }
          return response.json().then(function (error) { say("refused", error.message); });
        });
      }, function () { say("failed"); });
    }).catch(function () { say("failed"); });
  });

  off.addEventListener("click", function () {
    say("working");
    worker().then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      return post(box.dataset.forget, { endpoint: subscription.endpoint }).then(function (response) {
        if (!response.ok) throw new Error("not forgotten");
        return subscription.unsubscribe();
      });
    }).then(function () { window.location.reload(); }, function () { say("stuck"); });
  });

  look();
})();
