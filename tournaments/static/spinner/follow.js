/* Spinner: "my table" (/events/<slug>/me/), the page a player keeps open between rounds.
 *
 * - The live part (#my-table) is polled by htmx. The server answers 304 while nothing changed;
 *   the browser then hands htmx its cached copy with the same ETag, and swapping that old copy
 *   in would set the round clock back, so a response whose ETag is the one shown is not swapped.
 * - Coming back to the page (the phone unlocked) asks at once instead of waiting for the poll.
 * - When the clock runs out (clock.js fires "spinner:clock"), its label says so.
 * - Notifications (Web Push), only once the player taps the button: the browser asks for
 *   permission, the service worker (/t/sw.js, registered with this page's scope) subscribes with
 *   the server's VAPID key, and the subscription is posted for the followed entry. Every text the
 *   script shows comes from the page (data-msg-*), in the page's language.
 * No inline script, no eval (the CSP forbids both).
 */
(function () {
  "use strict";

  var live = document.getElementById("my-table");
  var shown = live ? live.getAttribute("data-etag") : null;

  document.body.addEventListener("htmx:beforeSwap", function (ev) {
    var target = ev.detail.target;
    if (!target || target.id !== "my-table") return;
    var xhr = ev.detail.xhr;
    if (xhr.status === 304) { ev.detail.shouldSwap = false; return; }
    var tag = xhr.getResponseHeader("ETag");
    if (tag && tag === shown) { ev.detail.shouldSwap = false; return; }
    shown = tag;
  });

  document.addEventListener("visibilitychange", function () {
    var el = document.getElementById("my-table");
    if (document.visibilityState === "visible" && el && window.htmx) {
      window.htmx.trigger(el, "spinner:refresh");
    }
  });

  document.body.addEventListener("spinner:clock", function (ev) {
    var bar = ev.target && ev.target.closest ? ev.target.closest(".clock-bar") : null;
    if (!bar) return;
    var label = bar.querySelector(".clock-label");
    if (label) label.textContent = bar.getAttribute("data-expired-label") || label.textContent;
    bar.className = "clock-bar clock-expired";
  });

  // ------------------------------------------------------------------------- notifications
  var box = document.getElementById("push");
  if (!box) return;
  var supported = "serviceWorker" in navigator && "PushManager" in window &&
    "Notification" in window && window.isSecureContext;
  if (!supported) return;  // no push here: the page still updates by itself
  box.hidden = false;
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var status = document.getElementById("push-status");
  var scope = box.getAttribute("data-scope");

  function say(key) { status.textContent = box.getAttribute("data-msg-" + key) || ""; }
  function subscribed(yes) { on.hidden = yes; off.hidden = !yes; }

  function keyBytes(b64) {
    var padded = (b64 + "===".slice((b64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function post(url, subscription) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": box.getAttribute("data-csrf") },
      body: JSON.stringify(subscription.toJSON ? subscription.toJSON() : subscription)
    }).then(function (res) {
      if (!res.ok) throw new Error("refused: " + res.status);
      return res;
    });
  }

  function current() {
    return navigator.serviceWorker.getRegistration(scope).then(function (reg) {
      return reg ? reg.pushManager.getSubscription() : null;
    });
  }

  // Already subscribed on this phone: say so (and tell the server again, in case it forgot).
  if (Notification.permission === "granted") {
    current().then(function (sub) {
      if (!sub) return;
      subscribed(true);
      return post(box.getAttribute("data-subscribe"), sub).then(function () { say("on"); });
    }).catch(function () { /* the button stays: tapping it tries again */ });
  }

  on.addEventListener("click", function () {
    say("asking");
    on.disabled = true;
    Promise.resolve(Notification.requestPermission()).then(function (permission) {
      if (permission !== "granted") { say("denied"); return null; }
      return navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: scope })
        .then(function () { return navigator.serviceWorker.ready; })
        .then(function (reg) {
          return reg.pushManager.getSubscription().then(function (sub) {
            return sub || reg.pushManager.subscribe({
              userVisibleOnly: true,
              applicationServerKey: keyBytes(box.getAttribute("data-key"))
            });
          });
        })
        .then(function (sub) { return post(box.getAttribute("data-subscribe"), sub); })
        .then(function () { subscribed(true); say("on"); });
    }).catch(function () { say("failed"); }).then(function () { on.disabled = false; });
  });

  function turnOff() {
    return current().then(function (sub) {
      if (!sub) return null;
      return post(box.getAttribute("data-unsubscribe"), sub).then(function () {
        return sub.unsubscribe();
      });
    });
  }

  off.addEventListener("click", function () {
    turnOff().then(function () { subscribed(false); say("off"); })
      .catch(function () { say("failed"); });
  });

  // Stop following stops this phone's notices for the entry too, then leaves.
  var stop = document.querySelector("form.stop-following");
  if (stop) {
    stop.addEventListener("submit", function (ev) {
      if (stop.getAttribute("data-done")) return;
      ev.preventDefault();
      stop.setAttribute("data-done", "1");
      turnOff().catch(function () { /* leave all the same */ }).then(function () { stop.submit(); });
    });
  }
})();
