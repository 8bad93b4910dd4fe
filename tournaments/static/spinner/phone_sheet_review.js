/* Spinner: the table phone's sheet review (issue 29), beside phone.js (which it drives through
 * window.SpinnerPhone: the state, "changed", its actions).
 *
 *  - A DISAGREEMENT IS THE FIRST THING THE PHONE SHOWS: when the claim status (htmx polls it,
 *    and phone.js asks again after each send) says the two sheets differ, the status moves
 *    above the entry, is scrolled into view and its heading takes the focus, on both sides'
 *    phones, without a reload. The status names the first difference in words (the server's
 *    presenters.difference); this script adds what the side can do about it:
 *  - CORRECTION WITHOUT RETYPING: take the other sheet's version of the play that differs,
 *    reopen that hand (or any hand) of the sent sheet (the later hands are kept aside and put
 *    back once the hand is settled again), undo the last entry, and "start again" only as the
 *    last resort (phone.js asks first). Nothing typed is lost: the sheet stays on the phone.
 *  - After a confirmed result, "Enter our own scoresheet instead" is no longer offered.
 *  - While a side enters its own sheet after "Disagree", the dock (the engine's verdict and
 *    the connection) stays in view: the Confirm/Disagree bar sits in the status instead.
 *  - TRUST WITHOUT A SECOND PHONE: the phone keeps a device id (localStorage), sent with every
 *    request of the page (X-Spinner-Device); a Confirm of a claim this phone sent asks first
 *    "Are you the other team?" (the server marks such a confirmation, or refuses it when the
 *    event requires a different device).
 * Plain JS, no build step.
 */
(function () {
  "use strict";

  var P = window.SpinnerPhone;
  var app = document.getElementById("phone-app");
  var statusEl = document.getElementById("claim-status");
  var entry = document.getElementById("entry");
  if (!P || !app || !statusEl || !entry) return;
  var gettext = window.gettext || function (text) { return text; };
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (m, k) { return String(values[k]); });
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c];
    });
  }

  // ---------------------------------------------------------------- the device id
  var DEVICE_KEY = "spinner.device";
  function deviceId() {
    var id = null;
    try { id = localStorage.getItem(DEVICE_KEY); } catch (e) { id = null; }
    if (id && /^[0-9a-f-]{16,64}$/.test(id)) return id;
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    id = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    try { localStorage.setItem(DEVICE_KEY, id); } catch (e) { /* private mode: one id a page */ }
    return id;
  }
  var DEVICE = deviceId();
  // Every request of this page to its own server carries the device id: the claims it sends and
  // confirms (phone.js's outbox posts with fetch), and the claim status htmx polls.
  var nativeFetch = window.fetch;
  window.fetch = function (input, init) {
    var url = typeof input === "string" ? input : input && input.url;
    if (url && (url.charAt(0) === "/" || url.indexOf(location.origin + "/") === 0)) {
      init = init || {};
      var headers = new Headers(init.headers || (typeof input !== "string" && input.headers) || {});
      headers.set("X-Spinner-Device", DEVICE);
      init.headers = headers;
    }
    return nativeFetch.call(window, input, init);
  };
  document.body.addEventListener("htmx:configRequest", function (ev) {
    if (ev.detail && ev.detail.headers) ev.detail.headers["X-Spinner-Device"] = DEVICE;
  });

  // A Confirm of a claim sent from this very phone: ask first (capture: before phone.js acts).
  app.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-action=confirm][data-same-device]");
    if (!el || el.disabled) return;
    if (!window.confirm(gettext("This phone sent this result. Are you the other team? Confirm only if you are, after checking the sheet yourselves: the director will see that it was confirmed on the phone that sent it."))) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
  }, true);

  // ---------------------------------------------------------------- a disagreement, first and in view
  var seenConflict = null;
  var takenFor = null;  // the conflict's versions when this phone took their version of the play
  /** After "use their version": the sentence is about the sheet sent, no longer this phone's;
   *  say so under it (the status is redrawn by each poll, so this is done after each). */
  function markTaken(conflict, sentence) {
    if (!sentence || takenFor === null || takenFor !== conflict.getAttribute("data-versions")) return;
    sentence.classList.add("superseded");
    if (conflict.querySelector("#difference-taken")) return;
    var note = document.createElement("p");
    note.id = "difference-taken";
    note.className = "ok";
    note.textContent = gettext("That was the sheet you sent. This phone now has their version of the play: send the sheet again.");
    sentence.insertAdjacentElement("afterend", note);
  }
  function theirs() {
    var el = document.getElementById("difference-sentence");
    if (!el || !el.hasAttribute("data-theirs")) return null;
    try { return JSON.parse(el.getAttribute("data-theirs")); } catch (e) { return null; }
  }
  function button(action, label, extra) {
    var attrs = "";
    Object.keys(extra || {}).forEach(function (k) { attrs += " " + k + "=\"" + esc(extra[k]) + "\""; });
    return "<button type=\"button\" data-review=\"" + action + "\"" + attrs + ">" + esc(label) + "</button>";
  }
  /** The hands on the sheet (an empty hand started after the last settled one is not). */
  function sheetHands(st) {
    var n = st.hands.length, h = st.hands[n - 1];
    var empty = h && !h.tally.length && !h.moves.length && !h.end;
    return n > 1 && empty ? st.hands.slice(0, n - 1) : st.hands;
  }
  /** The corrections this phone can make, from the first difference: take the other sheet's
   *  version of the play, reopen that hand, undo the last entry; start again last. */
  function actionsHtml(sentence) {
    var st = P.state();
    var html = "";
    var hand = sentence && sentence.hasAttribute("data-hand") ? parseInt(sentence.getAttribute("data-hand"), 10) : null;
    var move = sentence && sentence.hasAttribute("data-move") ? parseInt(sentence.getAttribute("data-move"), 10) : null;
    var mine = hand !== null && st.hands[hand] ? st.hands[hand] : null;
    var list = mine ? (mine.form === "moves" ? mine.moves : mine.tally) : null;
    if (mine && move !== null && theirs() && list && move < list.length) {
      html += button("take", fmt(gettext("Use their version of hand %(hand)s, play %(play)s"), { hand: hand + 1, play: move + 1 }));
    }
    if (st.hands.length && !st.finalOnly) {
      var at = mine ? hand : sheetHands(st).length - 1;
      html += button("reopen", fmt(gettext("Reopen hand %(hand)s of our sheet"), { hand: at + 1 }), { "data-hand": at, "class": "secondary" });
      html += button("undo", gettext("Undo the last entry"), { "class": "secondary" });
    }
    var typed = sheetHands(st);
    if (typed.length > 1) {
      html += "<label class=\"review-pick\"><span>" + esc(gettext("Or reopen another hand:")) + "</span> <select id=\"review-hand\">" +
        typed.map(function (h, i) { return "<option value=\"" + i + "\"" + (i === hand ? " selected" : "") + ">" + esc(fmt(gettext("Hand %(hand)s"), { hand: i + 1 })) + "</option>"; }).join("") +
        "</select> " + button("reopen-picked", gettext("Reopen"), { "class": "secondary" }) + "</label>";
    }
    html += "<p class=\"last-resort\">" + button("reset", gettext("Start the sheet again (last resort)"), { "class": "secondary" }) + "</p>";
    return html;
  }

  /** After each swap of the claim status: a conflict goes first (above the entry), in view and
   *  focused the first time each version of it arrives; anything else goes back below. */
  function placeStatus() {
    var conflict = statusEl.querySelector("#claim-conflict");
    var confirmed = statusEl.querySelector("#claim-confirmed");
    document.body.classList.toggle("in-conflict", !!conflict);
    if (conflict) {
      if (statusEl.nextElementSibling !== entry) entry.parentNode.insertBefore(statusEl, entry);
      var box = statusEl.querySelector("#difference-actions");
      var sentence = statusEl.querySelector("#difference-sentence");
      if (box) box.innerHTML = actionsHtml(sentence);
      markTaken(conflict, sentence);
      var key = conflict.getAttribute("data-versions") || "1";
      if (seenConflict !== key) {
        seenConflict = key;
        statusEl.scrollIntoView({ block: "start" });
        var heading = statusEl.querySelector("#conflict-heading");
        if (heading) heading.focus({ preventScroll: true });
      }
    } else {
      seenConflict = null;
      if (entry.nextElementSibling !== statusEl) entry.parentNode.insertBefore(statusEl, entry.nextElementSibling);
    }
    if (confirmed) {
      var offer = document.getElementById("show-entry");
      if (offer) offer.remove();
    }
    entering();
  }
  /** Entering its own sheet after "Disagree": the dock stays; the Confirm bar steps into the
   *  status (not fixed over the dock). */
  function entering() {
    var st = P.state();
    var own = !!st.showEntry && !entry.classList.contains("hidden") && !!statusEl.querySelector(".claim-actions");
    document.body.classList.toggle("entering-own", own);
  }
  document.body.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.target === statusEl) placeStatus();
  });

  // ---------------------------------------------------------------- corrections
  function emptyHand(h) { return !!h && !h.tally.length && !h.moves.length && !h.end; }
  /** Hand ``i`` of this phone's sheet open again: its plays stay, and so does how it ended
   *  (chosen again, the pips left typed back in), so that only what is wrong is changed; the
   *  hands after it are kept aside until it is settled again; the sheet is no longer "sent". */
  function reopen(i) {
    var st = P.state();
    if (!st.hands[i]) return;
    if (st.later) restore(true);
    var later = { at: i, hands: st.hands.splice(i + 1).filter(function (h) { return !emptyHand(h); }), settled: {}, time: null };
    Object.keys(st.settled || {}).forEach(function (k) {
      if (+k > i) later.settled[+k - i - 1] = st.settled[k];
      if (+k >= i) delete st.settled[k];
    });
    if (st.time && st.time.hand > i) { later.time = st.time; st.time = null; st.timeLast = null; }
    st.later = later.hands.length ? later : null;
    var h = st.hands[i];
    if (h.end) {
      st.ending = { kind: h.end, finisher: h.end === "domino" ? h.finisher : null };
      (h.remaining || []).forEach(function (pips, s) {
        if (typeof pips === "number" && !(h.end === "domino" && h.finisher === s)) st.drafts["pips-" + s] = String(pips);
      });
    } else {
      st.ending = null;
    }
    h.end = null; h.finisher = null; h.remaining = null;
    st.pick = null; st.submitted = null; st.showEntry = true;
    st.entryNotice = st.later ? fmt(gettext("Hand %(hand)s is open again: correct it and settle it; hands %(from)s to %(to)s are kept and come back then."), { hand: i + 1, from: i + 2, to: i + 1 + st.later.hands.length })
      : fmt(gettext("Hand %(hand)s is open again: correct it, settle it and send the sheet again."), { hand: i + 1 });
    entry.classList.remove("hidden");
    P.changed();
    entry.scrollIntoView({ block: "start" });
  }
  /** The hands kept aside come back once the reopened hand is settled (``force``: at once). */
  function restore(force) {
    var st = P.state();
    if (!st.later) return;
    var at = st.later.at;
    if (!force && !(st.hands[at] && st.hands[at].end)) return;
    // the empty hand phone.js starts after a domino gives way to the kept hands
    while (st.hands.length > at + 1 && emptyHand(st.hands[st.hands.length - 1])) st.hands.pop();
    var base = st.hands.length;
    st.hands = st.hands.concat(st.later.hands);
    Object.keys(st.later.settled).forEach(function (k) { st.settled[base + (+k)] = st.later.settled[k]; });
    if (st.later.time && !st.time) st.time = st.later.time;
    st.later = null;
    st.entryNotice = gettext("The corrected hand is settled and the later hands are back: check the sheet and send it again.");
    P.changed();
  }
  /** Who scored each play of the hand being entered can be changed in place (a tally hand):
   *  a reopened hand is corrected without undoing and typing again what came after. */
  function seatLabel(s) {
    var seat = P.cfg.seats[s];
    return seat ? (seat.player ? seat.player + " (" + seat.compass + ")" : seat.compass) : String(s + 1);
  }
  function decorate() {
    var st = P.state();
    var h = st.hands[st.hands.length - 1];
    var list = entry.querySelector("ol.entries");
    if (!h || h.end || h.form === "moves" || !list || list.hasAttribute("data-scorers")) return;
    list.setAttribute("data-scorers", "1");
    Array.prototype.forEach.call(list.children, function (li, j) {
      var t = h.tally[j];
      if (!t || t.entity !== undefined) return;
      var label = fmt(gettext("Who scored play %(play)s"), { play: j + 1 });
      var html = " <select class=\"scorer\" data-review-scorer=\"" + j + "\" aria-label=\"" + esc(label) + "\">";
      for (var s = 0; s < P.cfg.players; s++) {
        html += "<option value=\"" + s + "\"" + (s === t.seat ? " selected" : "") + ">" + esc(seatLabel(s)) + "</option>";
      }
      li.insertAdjacentHTML("beforeend", html + "</select>");
    });
  }
  new MutationObserver(decorate).observe(entry, { childList: true, subtree: true });
  entry.addEventListener("change", function (ev) {
    var el = ev.target.closest && ev.target.closest("[data-review-scorer]");
    if (!el) return;
    var st = P.state();
    var h = st.hands[st.hands.length - 1];
    var j = parseInt(el.getAttribute("data-review-scorer"), 10);
    if (!h || !h.tally[j]) return;
    h.tally[j] = { seat: parseInt(el.value, 10), score: h.tally[j].score };
    st.submitted = null;
    P.changed();
  });
  /** This phone's play at the first difference replaced by the other sheet's version. */
  function take() {
    var st = P.state();
    var sentence = document.getElementById("difference-sentence");
    var other = theirs();
    if (!sentence || !other) return;
    var i = parseInt(sentence.getAttribute("data-hand"), 10), j = parseInt(sentence.getAttribute("data-move"), 10);
    var h = st.hands[i];
    var list = h ? (h.form === "moves" ? h.moves : h.tally) : null;
    if (!list || j >= list.length) return;
    list[j] = JSON.parse(JSON.stringify(other));
    var conflict = document.getElementById("claim-conflict");
    if (conflict) { takenFor = conflict.getAttribute("data-versions"); markTaken(conflict, sentence); }
    st.submitted = null; st.showEntry = true;
    st.entryNotice = fmt(gettext("Hand %(hand)s, play %(play)s now reads as their sheet: check the sheet and send it again."), { hand: i + 1, play: j + 1 });
    entry.classList.remove("hidden");
    P.changed();
    entry.scrollIntoView({ block: "start" });
  }
  function fake(action) {
    var el = document.createElement("button");
    el.setAttribute("data-action", action);
    return el;
  }
  app.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-review]");
    if (!el) { setTimeout(function () { restore(false); entering(); }, 0); return; }
    ev.preventDefault();
    var what = el.getAttribute("data-review");
    if (what === "take") take();
    else if (what === "reopen") reopen(parseInt(el.getAttribute("data-hand"), 10));
    else if (what === "reopen-picked") reopen(parseInt(document.getElementById("review-hand").value, 10));
    else if (what === "undo") {
      var st = P.state();
      if (st.later) restore(true);
      st.showEntry = true; entry.classList.remove("hidden");
      P.act(fake("undo"));
    } else if (what === "reset") P.act(fake("reset"));
    placeStatus();
  });
  // Settling by the keyboard (Enter in the last pip count) settles the reopened hand too.
  app.addEventListener("keyup", function (ev) { if (ev.key === "Enter") restore(false); });

  placeStatus();
  decorate();
})();
