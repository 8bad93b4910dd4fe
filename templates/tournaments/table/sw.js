/* Spinner's service worker, one script for two registrations.
 *
 * The table pages offline (issue 7), scope /t/: answers from the network and keeps a copy of
 * every page, fragment and asset it fetched, so that a table page reloads with no connection.
 * Writes (POST) are never touched: the page's outbox sends them.
 *
 * "My table" notifications (issue 18), scope /events/<slug>/me/ (the server allows it with
 * Service-Worker-Allowed: /): shows the Web Push notice the server sends when pairings
 * are published ({title, body, url, tag}, encrypted by the push service's protocol), and a tap
 * opens (or focuses) the player's "my table" page. There it leaves every fetch alone.
 *
 * Languages (issue 18): a page's words depend on the reader's language (the language cookie, else
 * Accept-Language), which a service worker cannot read. Each copy is therefore kept under its URL
 * and the language its response names (Content-Language), and the language of the last page
 * fetched is remembered; offline, the copy in that language answers first, so a phone switched to
 * Spanish never reloads an English page it kept from before (a copy in another language only
 * when there is none in that one). */
"use strict";
var CACHE = "spinner-phone-v1";
var LANGUAGE_KEY = "/t/__language__";
var TABLE_SCOPE = new URL(self.registration.scope).pathname === "/t/";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function inLanguage(url, language) {
  return language ? url + (url.indexOf("?") < 0 ? "?" : "&") + "__language__=" + encodeURIComponent(language) : url;
}
function currentLanguage(cache) {
  return cache.match(LANGUAGE_KEY).then(function (hit) { return hit ? hit.text() : ""; });
}

self.addEventListener("fetch", function (event) {
  if (!TABLE_SCOPE) return;
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
        var language = res.headers.get("Content-Language") || "";
        var page = (res.headers.get("Content-Type") || "").indexOf("text/html") === 0;
        caches.open(CACHE).then(function (cache) {
          cache.put(inLanguage(req.url, language), copy);
          // the reader's language now: the one the last page came in
          if (language && page) cache.put(LANGUAGE_KEY, new Response(language));
        });
      }
      return res;
    }).catch(function () {
      return caches.open(CACHE).then(function (cache) {
        return currentLanguage(cache).then(function (language) {
          return cache.match(inLanguage(req.url, language), { ignoreVary: true });
        }).then(function (hit) {
          return hit || cache.match(req, { ignoreVary: true });
        }).then(function (hit) {
          return hit || caches.match(req, { ignoreVary: true, ignoreSearch: false });
        });
      }).then(function (hit) {
        return hit || Response.error();
      });
    })
  );
});

self.addEventListener("push", function (event) {
  var notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (e) {
    notice = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(notice.title || "Spinner", {
    body: notice.body || "",
    tag: notice.tag || "spinner",
    data: { url: notice.url || self.registration.scope }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var wanted = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  var url = wanted.origin === self.location.origin ? wanted.href : self.registration.scope;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
