// Back Alley Club's service worker (served at /sw.js, scope "/"): the offline page, and
// the notifications pushed to this device. Version {{ version }}.
//
// Pages always come from the network: a table answered from a stored copy would be an old
// board. Only when the network fails does a page get the offline page, the one thing kept
// here. Nothing else is touched: the API, the event feed and the board fragments go
// straight to the server, as if there were no worker.
"use strict";

const CACHE = "bac-{{ version }}";
const OFFLINE_URL = "{{ offline_url|escapejs }}";
const ICON_URL = "{{ icon_url|escapejs }}";
const BADGE_URL = "{{ badge_url|escapejs }}";
const FALLBACK_TITLE = {{ fallback_title|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { cache: "reload" })))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith("bac-") && n !== CACHE).map((n) => caches.delete(n)));
    // The page's request starts while the worker wakes up, instead of after.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return; // the network, untouched
  event.respondWith((async () => {
    try {
      const preloaded = await event.preloadResponse;
      return preloaded || await fetch(request);
    } catch (err) {
      const offline = await caches.match(OFFLINE_URL);
      return offline || Response.error();
    }
  })());
});

// A push carries a title, a short text and the address of what it is about (never a card).
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (err) { data = {}; }
  const options = {
    body: data.body || "",
    icon: ICON_URL,
    badge: BADGE_URL,
    data: { url: data.url || "/" },
  };
  if (data.tag) { options.tag = data.tag; options.renotify = true; }
  event.waitUntil(self.registration.showNotification(data.title || FALLBACK_TITLE, options));
});

// Only this site's own pages are opened; anything else opens the home page.
function target(notification) {
  const wanted = new URL((notification.data && notification.data.url) || "/", self.location.origin);
  return wanted.origin === self.location.origin ? wanted : new URL("/", self.location.origin);
}

// Tapping a notification: the window already on that page comes to the front (the table
// fetches its board when it comes back into view), else a window of the site goes there,
// else a new one opens. Either way the page shows the game as it is now.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = target(event.notification);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = windows.find((c) => new URL(c.url).pathname === url.pathname);
    if (same) return same.focus();
    const ours = windows.find((c) => "navigate" in c && new URL(c.url).origin === url.origin);
    if (ours) {
      const moved = await ours.navigate(url.href).catch(() => null);
      if (moved) return moved.focus();
    }
    return self.clients.openWindow(url.href);
  })());
});
