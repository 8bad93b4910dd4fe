/* Spinner: the round clock counting down in a page (the desk, the round page, the projector,
 * the phone at the table).
 *
 * Every element with data-clock-left="<seconds>" and data-clock-state="running" | "paused" |
 * "expired" | "not_started" shows the seconds left as m:ss (h:mm:ss from an hour), counted down
 * from the moment the page got them: the server says how many seconds are left, so a phone whose
 * own time of day is wrong still counts right. A paused clock stands still. A running clock that
 * reaches 0 becomes "expired" and the element fires "spinner:clock" (bubbling; detail: {state}).
 * A script may change the two attributes (the phone does, from the server's answers): the count
 * starts again from the new value. No eval, no inline script (the CSP forbids both).
 */
(function () {
  "use strict";

  var seen = typeof WeakMap === "function" ? new WeakMap() : null;

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

  function tick() {
    var now = Date.now();
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
  setInterval(tick, 250);
  window.SpinnerClock = { text: text, tick: tick };
})();
