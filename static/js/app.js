// Every page: the service worker that makes the site an installable app (its offline page
// and this device's notifications; templates/pwa/sw.js).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(script.dataset.worker, { scope: "/" }).catch(function () {
      // No worker (a private window, an old browser): the site works the same, online.
    });
  });
})();
