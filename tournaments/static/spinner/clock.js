/* Spinner: the round clock counting down in a page (the desk, the round page, the projector,
 * the phone at the table).
 *
 * Every element with data-clock-left="<seconds>" and data-clock-state="running" | "paused" |
 * "expired" | "not_started" shows the seconds left as m:ss (h:mm:ss from an hour), counted down
 * from the moment the page got them: the server says how many seconds are left, so a phone whose
 * own time of day is wrong still counts right. A paused clock stands still. A running clock that
 * reaches 0 becomes "expired" and the element fires "spinner:clock" (bubbling; detail: {state}).
 * A script may change the two attributes (the phone does, from the server's answers): the count
 * starts again from the new value.
 *
 * A page kept in a cache (the projector: tournaments/documents.py) cannot say how many seconds
 * are left, since it may be served minutes after it was rendered. Its running clock is an element
 * with data-clock-ends="<milliseconds since the epoch>" (the moment time is up),
 * data-clock-word-left and data-clock-word-up (the words for "left" and "Time is up"); it holds
 * the end time for a browser without this script ("ends 14:35"), which the script replaces with
 * <span class="clock-time">m:ss</span> <span class="clock-word">left</span>, counted down on the
 * browser's clock, and at 0 with <span class="clock-word">Time is up</span> (its class
 * clock-running becoming clock-expired, "spinner:clock" fired). The browser's clock is corrected
 * by its difference from the server's when that is more than the Date header can tell from the
 * network's delay (a wall display's clock, synced by NTP, is usually right): this script asks the
 * server for itself (HEAD, not cached) at most every 10 minutes per tab and reads its Date.
 *
 * No eval, no inline script (the CSP forbids both).
 */
(function () {
  "use strict";

  var seen = typeof WeakMap === "function" ? new WeakMap() : null;
  var self = document.currentScript && document.currentScript.src;
  var SKEW_KEY = "spinner:clock-skew";
  var SKEW_AGE = 10 * 60 * 1000;
  var skew = { offset: 0, at: 0 };

  try {
    var kept = JSON.parse(window.sessionStorage.getItem(SKEW_KEY) || "null");
    if (kept && typeof kept.offset === "number" && typeof kept.at === "number") skew = kept;
  } catch (e) { /* no storage: measure again */ }

  function serverNow() {
    return Date.now() + skew.offset;
  }

  function measureSkew() {
    if (!self || typeof fetch !== "function" || Math.abs(Date.now() - skew.at) < SKEW_AGE) return;
    skew.at = Date.now(); // one measurement at a time
    var sent = Date.now();
    fetch(self, { method: "HEAD", cache: "no-store", credentials: "omit" }).then(function (r) {
      var back = Date.now();
      var date = Date.parse(r.headers.get("Date") || "");
      if (isNaN(date)) return;
      // The Date header is whole seconds: the server's time was in [date, date + 1 s) somewhere
      // between sending and receiving. Anything within that uncertainty is no evidence.
      var offset = date + 500 - (sent + back) / 2;
      var doubt = 500 + (back - sent) / 2;
      skew = { offset: Math.abs(offset) > doubt ? offset : 0, at: back };
      try { window.sessionStorage.setItem(SKEW_KEY, JSON.stringify(skew)); } catch (e) { /* ok */ }
      tick();
    }, function () { /* offline: the browser's clock as it is */ });
  }

  function text(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (r < 10 ? "0" : "") + r;
  }

  function fire(el, state) {
    var ev;
    try {
      ev = new CustomEvent("spinner:clock", { bubbles: true, detail: { state: state } });
    } catch (e) {
      ev = document.createEvent("CustomEvent");
      ev.initCustomEvent("spinner:clock", true, false, { state: state });
    }
    el.dispatchEvent(ev);
  }

  function span(cls, content) {
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = content;
    return s;
  }

  function fill(el, nodes) {
    while (el.firstChild) el.removeChild(el.firstChild);
    for (var i = 0; i < nodes.length; i++) {
      el.appendChild(typeof nodes[i] === "string" ? document.createTextNode(nodes[i]) : nodes[i]);
    }
  }

  function box(el, now) {
    var ends = parseFloat(el.getAttribute("data-clock-ends"));
    if (isNaN(ends)) return;
    var left = (ends - now) / 1000;
    if (left <= 0) {
      el.removeAttribute("data-clock-ends");
      el.className = el.className.replace(/\bclock-running\b/, "clock-expired");
      fill(el, [span("clock-word", el.getAttribute("data-clock-word-up") || "")]);
      fire(el, "expired");
      return;
    }
    var time = el.querySelector("span.clock-time");
    if (!time) {
      time = span("clock-time", "");
      fill(el, [time, " ", span("clock-word", el.getAttribute("data-clock-word-left") || "")]);
    }
    var t = text(left);
    if (time.textContent !== t) time.textContent = t;
  }

  function tick() {
    var now = Date.now();
    var boxes = document.querySelectorAll("[data-clock-ends]");
    for (var b = 0; b < boxes.length; b++) box(boxes[b], serverNow());
    var els = document.querySelectorAll("[data-clock-left]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var left = parseFloat(el.getAttribute("data-clock-left"));
      var state = el.getAttribute("data-clock-state");
      if (isNaN(left) || !seen) continue;
      var key = state + "|" + left;
      var base = seen.get(el);
      if (!base || base.key !== key) { base = { key: key, at: now }; seen.set(el, base); }
      var shown = state === "running" ? left - (now - base.at) / 1000 : state === "expired" ? 0 : left;
      if (state === "running" && shown <= 0) {
        el.setAttribute("data-clock-state", "expired");
        el.setAttribute("data-clock-left", "0");
        fire(el, "expired");
        shown = 0;
      }
      var t = text(shown);
      if (el.textContent !== t) el.textContent = t;
    }
  }

  tick();
  if (document.querySelector("[data-clock-ends]")) measureSkew();
  setInterval(tick, 250);
  window.SpinnerClock = { text: text, tick: tick, serverNow: serverNow };
})();
