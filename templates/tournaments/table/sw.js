/* Spinner's table pages offline (issue 7): a service worker for /t/ that answers from the network
 * and keeps a copy of every page, fragment and asset it fetched, so that a table page reloads
 * with no connection. Writes (POST) are never touched: the page's outbox sends them. */
"use strict";
var CACHE = "spinner-phone-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (event) {
  var req = event.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/t/") !== 0 && url.pathname.indexOf("/static/") !== 0) return;
  // The round clock is live or nothing: offline, the page counts on from its last answer.
  if (/\/clock$/.test(url.pathname)) return;
  event.respondWith(
    fetch(req).then(function (res) {
      if (res.ok) {
        var copy = res.clone();
        caches.open(CACHE).then(function (cache) { cache.put(req, copy); });
      }
      return res;
    }).catch(function () {
      return caches.match(req, { ignoreVary: true }).then(function (hit) {
        return hit || Response.error();
      });
    })
  );
});
