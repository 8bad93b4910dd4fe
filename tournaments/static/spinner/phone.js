/* Spinner: the scoresheet entry page at the table (issues 7 and 14).
 *
 * What this script does, and what it does not:
 *  - it BUILDS a fives-scoresheet/1 sheet from what the players tap (tally form by default, move
 *    form for a hand where they want it), KEEPS it in localStorage under the table's token (a
 *    reload loses nothing; so are half-typed inputs: every keystroke is kept as a draft in the
 *    state, and a re-render writes the drafts back and gives the focus and the caret back), and
 *    RENDERS it;
 *  - it never judges the sheet: every rule is the server's engine. The sheet-so-far is posted
 *    (debounced) to the verify endpoint and the verdict is shown in the dock at the bottom of the
 *    screen and next to the entry it is about. The only checks made here are plausibility
 *    bounds the server sends in the page's config (the most pips hands can hold, the target),
 *    so that a typing slip is caught before it is sent;
 *  - it SENDS through a small outbox kept in localStorage: each submission gets one
 *    Idempotency-Key when it is made, stored with it, so retries (the "online" event, then a
 *    backoff with jitter that honours Retry-After; every request has a timeout) deliver it
 *    exactly once;
 *  - it SHOWS the other side's claim hand by hand (who scored, the running score in displayed
 *    points, the settlement, where it first differs from this phone's own sheet) above a dock
 *    with the Confirm and Disagree buttons.
 * People are named, never numbered: seats by player name and compass point, sides by team name.
 * cfg.side (0: side A, 1: side B; the page's link is bound to it) preselects the side this phone
 * acts for and shows only its actions; null: either (older callers may send "A"/"B"). At a table
 * of many (cfg.many: three or four individual players) every seat is its own side, its letter A
 * to D, and cfg.side is the seat of this phone's link: each player submits or confirms as
 * themselves, and every other player (or most of them) confirms the sheet.
 * Plain JS, no build step.
 */
(function () {
  "use strict";

  var app = document.getElementById("phone-app");
  if (!app) return;
  var cfg = JSON.parse(document.getElementById("phone-config").textContent);
  // One copy per game: a best-of match's next game starts with a blank sheet.
  var KEY = "spinner.sheet." + (cfg.storage_key || cfg.token);
  var OUTBOX = "spinner.outbox." + (cfg.storage_key || cfg.token);
  var entry = document.getElementById("entry");
  var boardEl = document.getElementById("board");
  var verdictEl = document.getElementById("verdict");
  var netEl = document.getElementById("net-status");
  var N = cfg.players;
  var MANY = !!cfg.many;
  // The sides' letters: A and B, or at a table of many one per seat (A to D).
  var LETTERS = "ABCD".slice(0, cfg.entities.length);
  var SIDE = typeof cfg.side === "number" && cfg.side >= 0 && cfg.side < LETTERS.length ? LETTERS.charAt(cfg.side)
    : typeof cfg.side === "string" && cfg.side.length === 1 && LETTERS.indexOf(cfg.side) >= 0 ? cfg.side : null;

  // The reader's language (issue 18): Django's JavaScript catalog (/t/i18n.js, loaded before this
  // script) defines gettext, ngettext and pgettext; without it, English. Texts with values use
  // named placeholders, %(name)s, filled by fmt (never by concatenation, so that a translation
  // can put them where its grammar wants them).
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var pgettext = window.pgettext || function (context, text) { return text; };
  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (m, k) { return String(values[k]); });
  }

  // ---------------------------------------------------------------- state, kept in the browser
  function blank() {
    return { v: 1, hands: [], by: "seat", finalOnly: false, ending: null, verdict: null,
             running: [], settled: {}, pick: null, notice: "", drafts: {}, timeCalled: false,
             time: null, timeLast: null };
  }
  function load() {
    try {
      var s = JSON.parse(localStorage.getItem(KEY));
      if (s && s.v === 1 && Array.isArray(s.hands)) {
        s.drafts = s.drafts || {};
        s.running = s.running || [];
        s.settled = s.settled || {};
        return s;
      }
    } catch (e) { /* a damaged copy: start afresh */ }
    return blank();
  }
  var st = load();
  function save() { localStorage.setItem(KEY, JSON.stringify(st)); }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  /** Displayed points of a raw score (the divisor is the server's: the engine's rule set). */
  function shown(raw) {
    var v = raw / cfg.divisor;
    return Math.round(v * 100) / 100;
  }
  /** Displayed points with a true minus sign. */
  function plain(raw) {
    var v = shown(raw);
    return (v < 0 ? "−" : "") + Math.abs(v);
  }
  function signed(raw) {
    var v = shown(raw);
    return (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v);
  }
  function seatName(s) {
    var seat = cfg.seats[s];
    return seat && seat.player ? seat.player : fmt(gettext("Player %(seat)s"), { seat: seat ? seat.compass : s + 1 });
  }
  /** A seat as people say it: the player's name and, where a position matters, the compass point. */
  function seatLabel(s) {
    var seat = cfg.seats[s];
    return seatName(s) + (seat && seat.compass ? " (" + seat.compass + ")" : "");
  }
  function seatShort(s) { return seatLabel(s); }
  /** The API numbers sides: 0 is side A (the match's first entry), 1 side B. */
  function sideIndex(letter) { return Math.max(0, LETTERS.indexOf(letter)); }
  /** A submission's body as a side: ``{side: 0 | 1}`` (at a table of many the seat, 0 to 3)
   *  plus ``extra``. */
  function asSide(letter, extra) {
    var body = { side: sideIndex(letter) };
    Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
    return body;
  }
  function otherSide(letter) { return letter === "A" ? "B" : "A"; }
  function sideName(letter) { return cfg.entities[sideIndex(letter)].label; }
  function entityLabel(e) { return cfg.entities[e].label; }
  function entityOfSeat(s) { return cfg.entity_of[s]; }
  function points(raw) {
    var v = shown(raw);
    return fmt(ngettext("%(n)s point", "%(n)s points", v === 1 ? 1 : 2), { n: v });
  }
  function lastHand() { return st.hands.length ? st.hands[st.hands.length - 1] : null; }
  function emptyHand(h) { return !!h && !h.tally.length && !h.moves.length && !h.end; }
  /** The hand whose entries and end are being typed: an empty hand that follows a settled one is
   *  not on the sheet yet (see buildSheet). */
  function sheetHands() {
    var n = st.hands.length;
    // Time called in that hand puts it on the sheet: time was called while it was in play.
    var called = st.time && st.time.hand === n - 1;
    if (n > 1 && emptyHand(st.hands[n - 1]) && !called) return st.hands.slice(0, n - 1);
    return st.hands;
  }

  // ---------------------------------------------------------------- the sheet (built, not judged)
  /** The fives-scoresheet/1 sheet of what has been entered (an empty hand started after a settled
   *  one is left out: the match may be over). ``result``: add the engine's figures as the claimed
   *  result, once it has said the match is over. ``current``: keep the hand being entered even
   *  while it is still empty (move entry draws it: its index is the last of ``st.hands``). */
  function buildSheet(opts) {
    opts = opts || {};
    var s = JSON.parse(JSON.stringify(cfg.header));
    s.hands = (opts.current ? st.hands : sheetHands()).map(function (h) {
      var o = { leader: h.leader };
      if (h.form === "moves") o.moves = h.moves.slice(); else o.tally = h.tally.slice();
      if (h.end) {
        o.end = h.end;
        if (h.end === "domino") o.finisher = h.finisher;
        o.remaining = h.remaining.slice();
      }
      return o;
    });
    // Time called: the hand it was called in and the event's policy, which the engine applies.
    if (st.time && st.time.hand < s.hands.length) {
      s.time = { called_in_hand: st.time.hand, policy: cfg.time_policy };
    }
    if (opts.result && st.verdict && !st.unchecked && st.verdict.finished) {
      s.result = { scores: st.verdict.scores.slice(), winner: st.verdict.winner };
    }
    return s;
  }

  /** What a hand's entries scored per side, as entered (raw). */
  function scoredIn(h) {
    var sums = cfg.entities.map(function () { return 0; });
    if (h.moves) {
      h.moves.forEach(function (m) { if (m.play && typeof m.score === "number") sums[entityOfSeat(m.seat)] += m.score; });
    }
    (h.tally || []).forEach(function (t) {
      var e = t.entity !== undefined ? t.entity : entityOfSeat(t.seat);
      if (typeof t.score === "number" && e !== undefined) sums[e] += t.score;
    });
    return sums;
  }
  /** A settlement as people read it: "Team A −1, Team B −3"; at a table of many only the
   *  players it changed ("Ana +2.5, Cruz +2.5"). */
  function amounts(d) {
    var parts = [];
    cfg.entities.forEach(function (ent, e) { if (!MANY || d[e]) parts.push(ent.label + " " + signed(d[e])); });
    return parts.length ? parts.join(", ") : gettext("nothing");
  }
  /** Each settled hand's settlement: the engine's score after the hand, less the score before
   *  it and what the hand's plays scored. */
  function settlements(hands, running) {
    var out = {};
    hands.forEach(function (h, i) {
      if (!h.end || !running[i] || (i > 0 && !running[i - 1])) return;
      var before = i > 0 ? running[i - 1] : cfg.entities.map(function () { return 0; });
      var plays = scoredIn(h);
      out[i] = running[i].map(function (x, e) { return x - before[e] - plays[e]; });
    });
    return out;
  }

  // ---------------------------------------------------------------- network
  /* Outages a phone rides through (issue 28). Every request is given up after REQUEST_TIMEOUT ms
   * (AbortController), so that one stuck request never holds the outbox. An outbox send that
   * fails (no answer, a timeout, 5xx, 408, 425, 429) is sent again with the same
   * Idempotency-Key after a backoff with full jitter (a random wait up to 1 s, 2 s, 4 s... 30 s:
   * the phones of a room do not all come back at the same instant), or, when the server says
   * Retry-After (seconds or an HTTP date), never before it and spread over half as long again. */
  var REQUEST_TIMEOUT = 15000;
  var RETRY_BASE = 1000, RETRY_CAP = 30000, RETRY_AFTER_MOST = 300000;
  function post(url, body, headers) {
    // The table link's token is the API credential ("Authorization: Table <token>").
    var h = { "Content-Type": "application/json", "Accept": "application/json",
              "X-CSRFToken": cfg.csrf, "Authorization": "Table " + cfg.token };
    Object.keys(headers || {}).forEach(function (k) { h[k] = headers[k]; });
    var ctl = typeof AbortController === "function" ? new AbortController() : null;
    var timer = ctl ? setTimeout(function () { ctl.abort(); }, REQUEST_TIMEOUT) : null;
    return fetch(url, { method: "POST", headers: h, body: JSON.stringify(body),
                        credentials: "same-origin", signal: ctl ? ctl.signal : undefined })
      .then(function (r) {
        // The body is read under the same timer: an answer that stops half way is given up too.
        return r.text().then(function (t) {
          var data = null;
          try { data = t ? JSON.parse(t) : null; } catch (e) { data = null; }
          return { status: r.status, ok: r.ok, data: data, headers: r.headers };
        });
      })
      .then(function (res) { clearTimeout(timer); return res; },
            function (err) { clearTimeout(timer); throw err; });
  }
  /** An answer worth sending again (the same request, later): none, 5xx, 408, 425, 429. */
  function retryable(res) {
    return !res || res.status === 0 || res.status >= 500 || [408, 425, 429].indexOf(res.status) >= 0;
  }
  /** The answer's Retry-After in ms (delay-seconds or an HTTP date), or null. */
  function retryAfterMs(res) {
    var v = res && res.headers ? res.headers.get("Retry-After") : null;
    if (!v) return null;
    v = v.trim();
    if (/^[0-9]+$/.test(v)) return Math.min(RETRY_AFTER_MOST, parseInt(v, 10) * 1000);
    var when = Date.parse(v);
    return isNaN(when) ? null : Math.min(RETRY_AFTER_MOST, Math.max(0, when - Date.now()));
  }
  /** The wait before retry number ``attempts`` (1, 2...): full jitter, or Retry-After honoured. */
  function retryDelay(attempts, after) {
    var ceiling = Math.min(RETRY_CAP, RETRY_BASE * Math.pow(2, Math.max(0, Math.min(attempts - 1, 10))));
    if (after === null || after === undefined) return Math.max(100, Math.random() * ceiling);
    return after + Math.random() * Math.min(ceiling, Math.max(after, RETRY_BASE)) / 2;
  }

  var waitEl = document.getElementById("net-wait");
  var scorebarEl = waitEl ? waitEl.closest(".scorebar") : null;
  var retrying = false;  // the outbox's last send failed and a retry is due
  function showNet() {
    var pending = outbox().length;
    if (!navigator.onLine) {
      netEl.className = "status-line offline";
      netEl.textContent = pending
        ? gettext("No connection: everything is kept on this phone and will be sent when the connection returns.")
        : gettext("No connection: everything is kept on this phone.");
    } else if (pending) {
      netEl.className = "status-line";
      netEl.textContent = fmt(gettext("Sending… (%(n)s waiting)"), { n: pending });
    } else {
      // What became of this phone's last send: in the dock, so that it moves nothing.
      netEl.className = "status-line" + (st.notice ? " notice" : "");
      netEl.textContent = st.notice || "";
    }
    showWaiting(pending);
  }
  /** The scorebar says when its score waits for the connection (offline, or a send or check
   *  being retried) instead of standing still at the last checked score; delivered, it clears.
   *  The line hangs below the scorebar, so that its height never changes. */
  function showWaiting(pending) {
    if (!waitEl) return;
    var offline = !navigator.onLine;
    var waiting = offline || (pending > 0 && retrying) || !!st.unchecked;
    waitEl.hidden = !waiting;
    waitEl.textContent = !waiting ? "" : offline
      ? gettext("Waiting for the connection — your entries are kept on this phone.")
      : gettext("Waiting for the connection — your entries are kept on this phone; trying again.");
    if (scorebarEl) scorebarEl.classList.toggle("waiting", waiting);
  }

  // ---------------------------------------------------------------- verification (the engine's)
  var PLAIN = {
    format: gettext("Something on the sheet is missing or is not a proper number."),
    tile: gettext("A tile is entered twice, or could not have been in that player's hand."),
    turn: gettext("The wrong player is down here. Play goes clockwise, and whoever dominoed leads the next hand."),
    draw: gettext("A draw or pass breaks the rules: you may draw only when you cannot play, and you stop at the first tile that plays."),
    placement: gettext("That tile cannot go there: it must match an open end, and a spinner's sides open only once both of its ends are covered."),
    score: gettext("A score is wrong: a play scores the total of the ends only when that total is a multiple of five (5, 10, 15…)."),
    end: gettext("How the hand ended does not fit: a hand ends when someone plays their last tile (domino) or when nobody can play (blocked)."),
    settlement: gettext("The count at the end of the hand does not add up: check the pips left in each hand."),
    result: gettext("The match was already over at this point (the target was reached), so nothing more can be scored.")
  };
  function where(err) {
    if (err.hand === null || err.hand === undefined) return gettext("The sheet");
    var h = st.hands[err.hand];
    var values = { hand: err.hand + 1, n: (err.move || 0) + 1 };
    if (err.move === null || err.move === undefined) return fmt(gettext("Hand %(hand)s"), values);
    return fmt((h && h.form === "moves") ? gettext("Hand %(hand)s, turn %(n)s") : gettext("Hand %(hand)s, score %(n)s"), values);
  }
  /** The engine's fault in words people use: "seat 2" becomes the player, "entity 1" the team. */
  function named(message) {
    return String(message)
      .replace(/\bseat (\d)\b/g, function (m, s) { return cfg.seats[+s] ? seatLabel(+s) : m; })
      .replace(/\bentity (\d)\b/g, function (m, e) { return cfg.entities[+e] ? entityLabel(+e) : m; });
  }

  // The engine's own words are English (its verdict is a contract: the shared spec): an English
  // page shows them beside the plain explanation; any other page shows only the fault's code
  // (in English, as a code: what a director and the players quote in a dispute).
  var ENGLISH_PAGE = /^en(-|$)/i.test(document.documentElement.lang || "en");
  function engineNote(err) {
    if (ENGLISH_PAGE) return " <span class=\"engine\">(" + esc(named(err.message)) + ")</span>";
    return " <span class=\"engine\">(" + esc(gettext("fault code:")) + " <code lang=\"en\">" +
      esc(err.code) + "</code>)</span>";
  }

  var verifySeq = 0;
  var verifyTimer = null;
  function verifySoon() {
    clearTimeout(verifyTimer);
    verifyTimer = setTimeout(verifyNow, 350);
  }
  /** The verify endpoint's answer: ``{verdict, running}`` (running: the engine's scores after
   *  each hand). */
  function callVerify(sheet, compare) {
    return post(cfg.urls.verify, compare ? { sheet: sheet, compare: compare } : { sheet: sheet }).then(function (res) {
      if (res.status >= 400 && res.status < 500 && res.status !== 429 && res.data && res.data.code) {
        var refused = new Error(res.data.message);
        refused.refused = res.data;
        throw refused;
      }
      if (!res.ok || !res.data || !res.data.verdict) throw new Error("verify " + res.status);
      return { verdict: res.data.verdict, running: res.data.running || [],
               timeLast: typeof res.data.time_last_hand === "number" ? res.data.time_last_hand : null,
               warnings: res.data.warnings || [], limits: res.data.limits || null,
               difference: res.data.difference || null };
    });
  }
  function verifyNow() {
    clearTimeout(verifyTimer);
    var seq = ++verifySeq;
    if (!st.hands.length) { st.verdict = null; save(); renderAll(); return Promise.resolve(null); }
    verdictEl.classList.add("checking");
    var hands = sheetHands().slice();
    return callVerify(buildSheet()).then(function (answer) {
      if (seq !== verifySeq) return answer.verdict;
      st.verdict = answer.verdict; st.running = answer.running; st.timeLast = answer.timeLast;
      st.warnings = answer.warnings; st.limits = answer.limits;
      st.settled = settlements(hands, answer.running);
      st.unchecked = false; st.refused = null; save(); renderAll();
      return answer.verdict;
    }).catch(function (err) {
      if (seq !== verifySeq) return null;
      if (err && err.refused) {
        // Refused for good (a link that no longer works, a sheet for another game): say why.
        st.refused = err.refused; st.unchecked = false; save(); renderAll();
        return null;
      }
      st.unchecked = true; save(); renderAll();
      // Online but not answered (busy server, throttled): try again a little later; offline,
      // the "online" event asks again.
      if (navigator.onLine) { clearTimeout(verifyTimer); verifyTimer = setTimeout(verifyNow, 4000); }
      return null;
    });
  }

  /** The first implausible pip count being typed (from the server's bounds), or "". */
  function plausibility() {
    if (!st.ending || !st.ending.kind) return "";
    var errs = st.pipErrors || {};
    for (var s = 0; s < N; s++) if (errs[s]) return seatName(s) + ": " + errs[s];
    return st.endError || "";
  }

  /** A fault in plain words; a tally score the engine refuses says why and what to do. */
  function faultPlain(e) {
    var h = e.code === "score" && e.hand !== null && e.hand !== undefined ? st.hands[e.hand] : null;
    var t = h && h.form !== "moves" && h.tally && e.move !== null && e.move !== undefined ? h.tally[e.move] : null;
    if (!t || typeof t.score !== "number" || t.score <= 0 || t.score % 5) return PLAIN[e.code] || gettext("This does not follow the rules.");
    if (st.limits && t.score > st.limits.placement) {
      return fmt(gettext("No single play can score %(score)s: the most is %(most)s. Undo it and enter the right score."),
        { score: points(t.score), most: points(st.limits.placement) });
    }
    return gettext("This hand cannot have scored that much: too few tiles reached the table (see the pips left), or a player has more scores than tiles. Check the scores.");
  }
  /** The engine's "check this" on a score it accepts but rarely sees, or "". */
  function warningHtml() {
    var now = st.hands.length - 1;
    var w = (st.warnings || []).filter(function (x) { return x.hand === now; })[0];
    if (!w) return "";
    var h = st.hands[w.hand], t = h && h.tally ? h.tally[w.move] : null;
    return "<p><strong>⚠ " + esc(gettext("Check this:")) + " <span class=\"where\">" + esc(where(w)) + ":</span></strong> " +
      esc(fmt(gettext("%(score)s for one play is possible but rare. If it is right, carry on; if not, undo it."),
        { score: t ? points(t.score) : "" })) + engineNote(w) + "</p>";
  }

  /** The engine's faults that are about one tally entry of the hand in play, by entry. */
  function faultsByEntry(i) {
    var out = {};
    if (!st.verdict || st.verdict.valid || st.unchecked) return out;
    st.verdict.errors.forEach(function (e) {
      if (e.hand === i && e.move !== null && e.move !== undefined) out[e.move] = e;
    });
    return out;
  }
  /** The "hand is over" verdict of a move-form hand whose last tile was played: the next step,
   *  not a mistake. */
  function handIsOver(v) {
    var h = lastHand();
    return v.errors.length === 1 && v.errors[0].code === "end" && v.errors[0].hand === st.hands.length - 1 &&
      (v.errors[0].move === null || v.errors[0].move === undefined) && h && !h.end;
  }

  /** The dock's verdict: one line while all is well, the engine's explanation (and the button
   *  that fixes it) when not. It sits at the bottom of the screen, so it is always in view. */
  // The dock is fixed at the bottom: when it shrinks its top moves down, and everything in it
  // with it. A verdict that arrives on its own (not in answer to a tap: the network is slow)
  // keeps the dock's height; the next tap lets it fit its content again.
  var lastInput = 0;
  function markInput() { lastInput = Date.now(); verdictEl.style.minHeight = ""; }
  app.addEventListener("pointerdown", markInput, true);
  app.addEventListener("keydown", markInput, true);
  function renderVerdict() {
    if (Date.now() - lastInput > 400 && !verdictEl.classList.contains("hidden")) {
      var had = verdictEl.getBoundingClientRect().height;
      var reserved = parseFloat(verdictEl.style.minHeight) || 0;
      if (had > reserved) verdictEl.style.minHeight = had + "px";
    }
    renderVerdictNow();
  }
  function renderVerdictNow() {
    var v = st.verdict;
    verdictEl.classList.remove("checking");
    if (st.finalOnly || !st.hands.length) { verdictEl.className = "verdict hidden"; verdictEl.innerHTML = ""; return; }
    if (st.refused) {
      verdictEl.className = "verdict bad";
      verdictEl.innerHTML = "<strong>" + esc(gettext("The server cannot check this sheet:")) + "</strong> " + esc(st.refused.message) +
        " <span class=\"engine\">(" + esc(st.refused.code) + ")</span>";
      return;
    }
    if (st.unchecked) {
      verdictEl.className = "verdict checking";
      verdictEl.innerHTML = "<strong>" + esc(gettext("Not checked yet.")) + "</strong> " + esc(navigator.onLine
        ? gettext("The sheet is kept on this phone; it is checked as soon as the server answers (trying again).")
        : gettext("The sheet is kept on this phone; it is checked as soon as the connection returns."));
      return;
    }
    if (!v) { verdictEl.className = "verdict checking"; verdictEl.textContent = gettext("Checking…"); return; }
    var typo = plausibility();
    if (typo) {
      // A count no hand can hold is a typing slip: no tick while it is on the screen.
      verdictEl.className = "verdict bad";
      verdictEl.innerHTML = "<p><strong>✗ " + esc(gettext("Pips left:")) + "</strong> " + esc(typo) + "</p>";
      return;
    }
    if (v.valid && warningHtml()) {
      verdictEl.className = "verdict check";
      verdictEl.innerHTML = warningHtml();
      return;
    }
    if (v.valid) {
      verdictEl.className = "verdict ok";
      verdictEl.innerHTML = "<strong>✓ " + esc(gettext("Checked by the rules engine:")) + "</strong> " +
        esc(gettext("no mistake so far.")) + (v.finished ? " " + esc(gettext("The match is over.")) : "");
      return;
    }
    if (handIsOver(v)) {
      verdictEl.className = "verdict ok";
      verdictEl.innerHTML = "<strong>" + esc(gettext("The rules engine says this hand is over:")) + "</strong> " +
        esc(gettext("tap “End the hand”.")) + engineNote(v.errors[0]);
      return;
    }
    verdictEl.className = "verdict bad";
    var e = v.errors[0];
    var more = v.errors.length > 1 ? " <span class=\"engine\">" + esc(fmt(ngettext("(and %(n)s more)", "(and %(n)s more)", v.errors.length - 1), { n: v.errors.length - 1 })) + "</span>" : "";
    var fix = "";
    var h = e.hand !== null && e.hand !== undefined ? st.hands[e.hand] : null;
    if (h && e.hand === sheetHands().length - 1) {
      if (h.end) fix = btn("reopen", esc(fmt(gettext("Reopen hand %(hand)s"), { hand: e.hand + 1 })), { "class": "secondary" });
      else if (e.move !== null && e.move !== undefined) fix = btn("undo", esc(gettext("Undo last")), { "class": "secondary" });
    }
    verdictEl.innerHTML = "<p><strong>✗ <span class=\"where\">" + esc(where(e)) + ":</span></strong> " +
      esc(faultPlain(e)) + more +
      engineNote(e) + "</p>" + (fix ? "<div class=\"dock-actions\">" + fix + "</div>" : "");
  }

  // ---------------------------------------------------------------- the board
  /** The scorebar at the top (sticky): each side's name, score in displayed points and a thin
   *  bar to the target. Its height never changes, so nothing below it moves. */
  function renderBoard() {
    var scores = (st.verdict && st.verdict.scores && st.verdict.scores.length)
      ? st.verdict.scores : cfg.entities.map(function () { return 0; });
    // A phone with no sheet of its own shows the score of the claim or result on the table.
    var told = !st.hands.length && !st.finalOnly ? document.querySelector("#claim-status [data-shown]") : null;
    if (told) {
      scores = told.getAttribute("data-shown").split(",").map(function (x) {
        return parseFloat(String(x).replace("\u2212", "-")) * cfg.divisor;
      });
      if (scores.some(isNaN)) scores = cfg.entities.map(function () { return 0; });
    }
    var goal = cfg.target / cfg.divisor;
    boardEl.innerHTML = cfg.entities.map(function (ent, e) {
      var raw = scores[e] || 0;
      var pct = Math.max(0, Math.min(100, 100 * shown(raw) / goal));
      return "<div class=\"row side-" + ent.side + "\"><span class=\"name\">" + esc(ent.label) + "</span>" +
        "<span class=\"score\" data-entity=\"" + e + "\" aria-label=\"" +
        esc(fmt(gettext("%(team)s: %(score)s of %(target)s"), { team: ent.label, score: shown(raw), target: goal })) +
        "\">" + esc(String(shown(raw))) + "</span>" +
        "<span class=\"bar\" aria-hidden=\"true\"><span style=\"width: " + pct.toFixed(1) + "%\"></span></span></div>";
    }).join("");
  }

  // ---------------------------------------------------------------- rendering the entry panel
  function btn(action, label, extra) {
    extra = extra || {};
    var attrs = "";
    Object.keys(extra).forEach(function (k) {
      if (extra[k] === null || extra[k] === undefined) return;
      attrs += " " + k + "=\"" + esc(extra[k]) + "\"";
    });
    return "<button type=\"button\" data-action=\"" + action + "\"" + attrs + ">" + label + "</button>";
  }
  function seatButtons(action, pressed) {
    var out = "";
    for (var s = 0; s < N; s++) {
      out += btn(action, esc(seatLabel(s)), { "data-seat": s, "class": "seat-btn side-" + cfg.seats[s].side,
        "aria-pressed": pressed === s ? "true" : "false" });
    }
    return out;
  }
  /** A number input whose typed text is kept as a draft in the state (never lost to a re-render). */
  function numberInput(id, attrs) {
    var value = st.drafts[id] !== undefined ? st.drafts[id] : (attrs.value || "");
    var extra = "";
    Object.keys(attrs).forEach(function (k) {
      if (k !== "value" && k !== "inputmode" && attrs[k] !== null && attrs[k] !== undefined) extra += " " + k + "=\"" + esc(attrs[k]) + "\"";
    });
    return "<input id=\"" + id + "\" type=\"text\" inputmode=\"" + esc(attrs.inputmode || "numeric") + "\" autocomplete=\"off\" data-draft=\"1\" value=\"" +
      esc(value) + "\"" + extra + ">";
  }

  function handsSummary() {
    var hands = sheetHands();
    if (!hands.length) return "";
    var rows = hands.map(function (h, i) {
      var sums = scoredIn(h);
      var end = !h.end ? gettext("in play") : h.end === "blocked" ? gettext("blocked")
        : fmt(gettext("%(player)s out"), { player: seatName(h.finisher) });
      var settle = st.settled[i] ? st.settled[i].map(function (d) { return signed(d); }).join(" / ") : "";
      var after = st.running[i] ? st.running[i].map(function (x) { return shown(x); }).join("–") : "";
      return "<tr><td>" + (i + 1) + "</td><td>" + esc(seatName(h.leader)) + "</td><td>" +
        sums.map(function (x) { return shown(x); }).join(" / ") + "</td><td>" + esc(end) +
        "</td><td>" + esc(settle) + "</td><td>" + esc(after) + "</td></tr>";
    }).join("");
    return "<details class=\"hands-summary\"><summary>" + esc(fmt(gettext("Hands so far (%(n)s)"), { n: hands.length })) + "</summary>" +
      "<div class=\"table-wrap\"><table><thead><tr><th>#</th>" +
      [pgettext("hands so far", "Led"), pgettext("hands so far", "Scored"), pgettext("hands so far", "End"),
       pgettext("hands so far", "Settled"), pgettext("hands so far", "Score")].map(function (t) { return "<th>" + esc(t) + "</th>"; }).join("") +
      "</tr></thead><tbody>" +
      rows + "</tbody></table></div></details>";
  }

  function finished() { return !!(st.verdict && st.verdict.finished && st.verdict.valid && !st.unchecked); }

  var lastEntryHtml = null;
  /** Render the entry panel (only when something changed: a late verdict that changes nothing
   *  here replaces nothing); the input that had the focus gets it back, with its caret. */
  function renderEntry() {
    // Two fingers on the drawing: a re-render (the engine's answer, the clock) would take the
    // drawing from under them and the pinch would be lost; it waits for the fingers to lift.
    if (pinch) { heldEntry = true; return; }
    var active = document.activeElement;
    var focusId = active && entry.contains(active) && active.id ? active.id : null;
    var caret = null;
    if (focusId && active.tagName === "INPUT") {
      try { caret = [active.selectionStart, active.selectionEnd]; } catch (e) { caret = null; }
    }
    var html = "";
    var h = lastHand();
    if (st.entryNotice) html += "<p class=\"notice\" role=\"status\">" + esc(st.entryNotice) + "</p>";
    if (st.finalOnly) {
      html += renderFinalOnly();
    } else if (!h) {
      var drawn = cfg.first_leader;
      html += "<h2>" + esc(gettext("Who leads the first hand?")) + "</h2>" + (drawn === null || drawn === undefined
        ? "<p class=\"muted\">" + esc(gettext("Chosen by lot at the table.")) + "</p>"
        : "<p id=\"drawn-leader\">" + fmt(gettext("Drawn by lot for this round: <strong>%(player)s</strong>."), { player: esc(seatLabel(drawn)) }) + "</p>") +
        "<div class=\"choices\">" + seatButtons("first-leader", null) + "</div>";
      if (cfg.allow_final_only) {
        html += "<p>" + btn("final-only", esc(gettext("Enter the final score only (unverified)")), { "class": "secondary" }) + "</p>";
      }
    } else if (finished()) {
      html += renderFinished();
    } else if (!h.end) {
      html += h.form === "moves" ? renderMoves(h) : renderTally(h);
    } else {
      html += renderBetweenHands(h);
    }
    html += handsSummary();
    if (st.hands.length || st.finalOnly) {
      html += "<p>" + btn("reset", esc(gettext("Start the sheet again")), { "class": "secondary" }) + "</p>";
    }
    var replaced = html !== lastEntryHtml;
    // "Match over" replaces a taller screen (the next hand's entry, or the last moves) when the
    // engine's verdict arrives: the entry keeps the height it had, so that nothing below it
    // moves (the space is reserved until the sheet is started again).
    var over = finished() && !st.finalOnly;
    if (replaced && over && !entry.style.minHeight) entry.style.minHeight = entry.getBoundingClientRect().height + "px";
    if (!over && entry.style.minHeight) entry.style.minHeight = "";
    if (replaced) { entry.innerHTML = html; lastEntryHtml = html; }
    placePane(replaced);
    if (focusId) {
      var again = document.getElementById(focusId);
      if (again && again !== document.activeElement) {
        again.focus({ preventScroll: true });
        if (caret && again.setSelectionRange) { try { again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text input */ } }
      }
    }
  }

  function lastSettledLine() {
    // The hand before this one, settled: one line, its space kept even before the engine answers.
    var i = st.hands.length - 2;
    if (i < 0) return "<p class=\"last-hand\" id=\"last-hand\">&nbsp;</p>";
    var prev = st.hands[i];
    var how = prev.end === "domino" ? fmt(gettext("%(player)s went out"), { player: seatName(prev.finisher) }) : gettext("blocked");
    var d = st.settled[i];
    return "<p class=\"last-hand\" id=\"last-hand\">" + esc(fmt(gettext("Hand %(hand)s: %(how)s"), { hand: i + 1, how: how })) +
      (d ? "; " + esc(fmt(gettext("settled %(amounts)s"), { amounts: amounts(d) })) : "") +
      ".</p>";
  }

  function handHead(h) {
    var i = st.hands.length;
    return "<div class=\"hand-head\"><h2>" + esc(fmt(gettext("Hand %(hand)s · %(player)s led"), { hand: i, player: seatShort(h.leader) })) + "</h2>" + lastSettledLine() + "</div>";
  }
  /** The rarely used switches, kept BELOW the entry so that showing or hiding them moves nothing. */
  function handFoot(h) {
    if (!emptyHand(h)) return "";
    return "<div class=\"row-actions hand-foot\">" +
      btn("form", esc(h.form === "moves" ? gettext("Quick tally") : gettext("Move by move")), { "data-form": h.form === "moves" ? "tally" : "moves", "class": "secondary" }) +
      btn("unlead", esc(gettext("Wrong leader?")), { "class": "secondary" }) + "</div>";
  }

  /** The tally: a row of value buttons per player (or per side), so a score is ONE tap, each row
   *  with the points it has this hand; then how the hand ended, on the same screen. */
  function renderTally(h) {
    var html = handHead(h) + timeNote();
    var i = st.hands.length - 1;
    var sums = {};
    h.tally.forEach(function (t) {
      var k = t.entity !== undefined ? "e" + t.entity : "s" + t.seat;
      sums[k] = (sums[k] || 0) + (typeof t.score === "number" ? t.score : 0);
    });
    var rows = [];
    if (st.by === "entity") {
      cfg.entities.forEach(function (ent, e) { rows.push({ who: e, key: "e" + e, label: ent.label, side: ent.side }); });
    } else {
      for (var s = 0; s < N; s++) rows.push({ who: s, key: "s" + s, label: seatLabel(s), side: cfg.seats[s].side });
    }
    html += "<div class=\"score-grid\" role=\"group\" aria-label=\"" + esc(gettext("Who scored what: one tap a score")) + "\">";
    rows.forEach(function (r) {
      html += "<div class=\"score-row side-" + r.side + "\"><div class=\"who\"><span class=\"name\">" + esc(r.label) +
        "</span><span class=\"sum\">" + (sums[r.key] ? esc(fmt(gettext("%(n)s this hand"), { n: shown(sums[r.key]) })) : "") + "</span></div><div class=\"values\">";
      cfg.tally_values.forEach(function (raw) {
        html += btn("tally", esc(String(shown(raw))), { "data-raw": raw, "data-who": r.who,
          "aria-label": fmt(gettext("%(who)s scores %(points)s"), { who: r.label, points: points(raw) }) });
      });
      html += "</div></div>";
    });
    html += "</div>";
    html += "<div class=\"row-actions\">" +
      btn("undo", esc(gettext("Undo last")), { "class": "secondary", disabled: h.tally.length ? null : "disabled" }) +
      (MANY ? "" : btn("by", esc(st.by === "entity" ? gettext("By player") : gettext("By side")), { "data-by": st.by === "entity" ? "seat" : "entity", "class": "secondary" })) +
      btn("other", esc(gettext("Other…")), { "class": "secondary", "aria-expanded": st.other ? "true" : "false" }) + timeButton() + "</div>";
    if (st.other) {
      html += "<div class=\"other\"><div><label for=\"other-raw\">" + esc(cfg.divisor === 1 ? gettext("Another score, in points")
        : fmt(gettext("Another score, in points (%(divisor)s pips = 1)"), { divisor: cfg.divisor })) +
        "</label>" + numberInput("other-raw", { enterkeyhint: "done" }) + "</div><div class=\"other-who\">";
      rows.forEach(function (r) {
        html += btn("tally-other", esc(fmt(gettext("to %(who)s"), { who: r.label })), { "data-who": r.who, "class": "secondary" });
      });
      html += "</div><p class=\"field-error\" id=\"other-error\" role=\"alert\">" + esc(st.otherError || "") + "</p></div>";
    }
    html += endSection(h);
    if (st.unchecked && emptyHand(h) && st.hands.length > 1) html += maybeOver();
    if (h.tally.length) {
      var faults = faultsByEntry(i);
      html += "<h3>" + esc(gettext("This hand")) + "</h3><ol class=\"entries\">" + h.tally.map(function (t, j) {
        var who = t.entity !== undefined ? entityLabel(t.entity) : seatShort(t.seat);
        var f = faults[j];
        return "<li" + (f ? " class=\"fault\"" : "") + ">" + esc(who) + ": " + esc(points(t.score)) +
          (f ? " <strong>✗ " + esc(faultPlain(f)) + "</strong>" + engineNote(f) : "") + "</li>";
      }).join("") + "</ol>";
    }
    html += handFoot(h);
    return html;
  }

  /** How the hand ended (one tap: who went out, or blocked) and the pips left in each hand, typed
   *  in a row with Enter moving on (the last Enter settles). */
  function endSection(h) {
    var e = st.ending || {};
    var i = st.hands.length;
    var html = "<fieldset class=\"ending\"><legend>" + esc(fmt(gettext("How did hand %(hand)s end?"), { hand: i })) + "</legend><div class=\"choices ends\">";
    for (var s = 0; s < N; s++) {
      html += btn("end-kind", esc(fmt(gettext("%(player)s dominoed"), { player: seatShort(s) })), { "data-kind": "domino", "data-seat": s,
        "class": "seat-btn side-" + cfg.seats[s].side,
        "aria-pressed": e.kind === "domino" && e.finisher === s ? "true" : "false" });
    }
    html += btn("end-kind", esc(gettext("Blocked (nobody can play)")), { "data-kind": "blocked",
      "aria-pressed": e.kind === "blocked" ? "true" : "false", "class": "secondary" });
    html += "</div>";
    if (e.kind) {
      html += "<div class=\"pips\" id=\"pips\"><p class=\"hint\">" +
        esc(fmt(gettext("Pips left in each hand (at most %(most)s in one hand)"), { most: cfg.max_pips_left.hand })) + "</p>";
      for (var p = 0; p < N; p++) {
        var fin = e.kind === "domino" && e.finisher === p;
        if (fin) continue;
        var err = (st.pipErrors || {})[p] || "";
        html += "<div class=\"pip-row\"><label for=\"pips-" + p + "\">" + esc(seatLabel(p)) + "</label>" +
          numberInput("pips-" + p, { "data-pips": p, enterkeyhint: "next", "aria-describedby": "pips-error-" + p,
            "aria-invalid": err ? "true" : null }) +
          "<span class=\"field-error\" id=\"pips-error-" + p + "\">" + esc(err) + "</span></div>";
      }
      html += "<p class=\"field-error\" id=\"end-error\" role=\"alert\">" + esc(st.endError || "") + "</p>" +
        "<div class=\"row-actions\">" + btn("settle", esc(fmt(gettext("Settle hand %(hand)s"), { hand: i }))) + "</div></div>";
    }
    return html + "</fieldset>";
  }

  /** After a blocked hand: the next leader is drawn by lot at the table. (After a domino the
   *  next hand starts at once, led by whoever went out.) */
  function renderBetweenHands(h) {
    var i = st.hands.length - 1;
    var html = "<h2>" + esc(fmt(gettext("Hand %(hand)s settled"), { hand: i + 1 })) + "</h2>" + timeNote();
    var d = st.settled[i];
    html += "<p id=\"settlement\">" + (d ? esc(fmt(gettext("Settlement: %(amounts)s."), { amounts: amounts(d) })) : "&nbsp;") + "</p>";
    if (st.verdict && !st.verdict.valid && !st.unchecked) {
      html += "<p>" + esc(gettext("Fix the mistake shown below: reopen the hand.")) + "</p>";
    } else if (h.end === "domino") {
      html += "<p>" + esc(fmt(gettext("%(player)s dominoed and leads the next hand."), { player: seatShort(h.finisher) })) + "</p>" +
        "<div class=\"row-actions\">" + btn("next-hand", esc(fmt(gettext("Start hand %(hand)s"), { hand: i + 2 })), { "data-seat": h.finisher }) + "</div>";
    } else {
      html += "<h3>" + esc(fmt(gettext("The hand was blocked: who leads hand %(hand)s?"), { hand: i + 2 })) + "</h3><p class=\"muted\">" + esc(gettext("Chosen by lot at the table.")) + "</p>" +
        "<div class=\"choices\">" + seatButtons("next-hand", null) + "</div>";
    }
    if (st.unchecked) html += maybeOver();
    html += "<div class=\"row-actions\">" + btn("reopen", esc(fmt(gettext("Reopen hand %(hand)s"), { hand: i + 1 })), { "class": "secondary" }) + "</div>";
    return html;
  }
  /** No connection, so no verdict: if the game is over the players may still submit; the sheet
   *  is verified when it arrives (an invalid one is kept as a draft, never lost). */
  function maybeOver() {
    return submitButtons(gettext("Is the match over? You can submit now: the sheet is sent and checked when the connection returns."));
  }

  function submitLabel(letter) { return fmt(gettext("Submit as %(team)s"), { team: sideName(letter) }); }
  function submitButtons(intro, action) {
    action = action || "submit";
    if (st.submitted) {
      return "<p class=\"ok\" id=\"submitted\">" + esc(fmt(outbox().length ? gettext("Sent for %(team)s (waiting for the connection).")
        : gettext("Sent for %(team)s."), { team: sideName(st.submitted.side) })) + "</p>";
    }
    var html = "<p>" + esc(intro) + "</p><div class=\"choices\">";
    (SIDE ? [SIDE] : LETTERS.split("")).forEach(function (letter) {
      html += btn(action, esc(submitLabel(letter)), { "data-side": letter });
    });
    return html + "</div>";
  }

  /** A table of many's final scores, highest first, each with the player's name (the engine's
   *  figures; the places are the server's, shown once the sheet is sent). */
  function finalScoresHtml(v) {
    var order = v.scores.map(function (x, e) { return e; });
    order.sort(function (a, b) { return v.scores[b] - v.scores[a] || a - b; });
    return "<ul class=\"final-scores\" id=\"final-scores\" aria-label=\"" + esc(gettext("Final scores")) + "\">" + order.map(function (e) {
      return "<li" + (e === v.winner ? " class=\"winner\"" : "") + "><span class=\"name\">" + esc(entityLabel(e)) +
        "</span> <strong>" + esc(plain(v.scores[e])) + "</strong></li>";
    }).join("") + "</ul>";
  }

  function renderFinished() {
    var v = st.verdict;
    var html = "<h2>" + esc(gettext("Match over")) + "</h2><p id=\"winner\">";
    if (MANY) {
      html += esc(v.winner === null ? gettext("Drawn match.") : fmt(gettext("%(player)s wins."), { player: entityLabel(v.winner) })) +
        "</p>" + finalScoresHtml(v);
    } else {
      html += esc(v.winner === null ? gettext("Drawn match.") : fmt(gettext("%(team)s wins, %(a)s to %(b)s."),
        { team: cfg.entities[v.winner].label, a: shown(v.scores[0]), b: shown(v.scores[1]) })) + "</p>";
    }
    if (st.time) html += "<p id=\"time-ended\">" + esc(fmt(gettext("Time was called in hand %(hand)s."), { hand: st.time.hand + 1 })) + "</p>";
    html += MANY ? submitButtons(SIDE ? gettext("Send the sheet; the other players then check and confirm it, each on their own phone.") :
      gettext("Who are you? Send the sheet; the other players then check and confirm it, each on their own phone."))
      : submitButtons(SIDE ? gettext("Send the sheet; the other team then checks and confirms it.") :
      gettext("Which team are you? Send the sheet; the other team then checks and confirms it."));
    if (!st.submitted) {
      html += "<div class=\"row-actions\">" + btn("reopen", esc(gettext("Undo the last entry")), { "class": "secondary" }) + "</div>";
    }
    return html;
  }

  /** A typed final score as a number ("62,5" too, as a Spanish keyboard types it). */
  function finalNumber(x) { return parseFloat(String(x).replace(",", ".")); }
  /** Plausibility of a final score, from the server's config: whole points, and someone at or
   *  past the target unless time was called. Null when plausible. */
  function finalProblem(values) {
    var goal = cfg.target / cfg.divisor;
    for (var e = 0; e < values.length; e++) {
      // At a table of many a score may end in a half (All Fives at three splits a blocked hand).
      if (MANY ? !/^-?\d+([.,]5)?$/.test(values[e]) : !/^-?\d+$/.test(values[e])) {
        return MANY ? gettext("Type each player's final score in points (a half as .5).") : gettext("Type each team's final score in whole points.");
      }
    }
    var nums = values.map(finalNumber);
    // Every score moves by the game's step (the server's config, from the rules engine).
    var step2 = Math.round((cfg.score_step || 1) * 2);
    for (var f = 0; f < nums.length; f++) {
      if (Math.round(nums[f] * 2) % step2 !== 0) {
        var below = Math.floor(Math.round(nums[f] * 2) / step2) * step2 / 2;
        return fmt(gettext("%(team)s: %(score)s is not a score this game can end with; scores move in steps of %(step)s (type %(below)s or %(above)s)."),
          { team: cfg.entities[f].label, score: values[f], step: cfg.score_step, below: below, above: below + cfg.score_step });
      }
    }
    var top = Math.max.apply(null, nums);
    var past = nums.filter(function (x) { return x >= goal; }).length;
    if (cfg.most_past_target && past > cfg.most_past_target) {
      return fmt(gettext("%(count)s scores are at or past %(target)s, but the match ends as soon as one reaches it: check the scores."), { count: past, target: goal });
    }
    if (!st.timeCalled) {
      if (top < goal) return fmt(gettext("Nobody has reached %(target)s: the match is not over. If time was called, tick “Time was called”."), { target: goal });
      if (nums.filter(function (x) { return x === top; }).length > 1) {
        return MANY ? gettext("A tie at the top is not a finished match: check the scores.")
          : gettext("A tie at the target is not a finished match: check both scores.");
      }
    }
    return null;
  }

  function renderFinalOnly() {
    var html = "<h2>" + esc(gettext("Final score only")) + "</h2><p class=\"unverified\">" + esc(gettext("Marked unverified: the rules engine cannot check a final score.")) + "</p><div class=\"pips\">";
    cfg.entities.forEach(function (ent, e) {
      html += "<div class=\"pip-row\"><label for=\"final-" + e + "\">" + esc(fmt(gettext("%(team)s (points)"), { team: ent.label })) + "</label>" +
        numberInput("final-" + e, { "data-final": e, enterkeyhint: e < cfg.entities.length - 1 ? "next" : "done", inputmode: MANY ? "decimal" : null }) + "</div>";
    });
    html += "<label class=\"check\"><input type=\"checkbox\" id=\"time-called\" data-action=\"time-called\"" +
      (st.timeCalled ? " checked" : "") + "> " + esc(gettext("Time was called (the match ended before the target)")) + "</label>";
    var values = cfg.entities.map(function (ent, e) { return (st.drafts["final-" + e] || "").trim(); });
    var typed = values.every(function (x) { return x !== ""; });
    var problem = typed ? finalProblem(values) : null;
    html += "</div><p class=\"field-error\" id=\"final-error\" role=\"alert\">" + esc(st.finalError || problem || "") + "</p>";
    if (st.submitted) {
      html += "<p class=\"ok\">" + esc(fmt(gettext("Sent for %(team)s."), { team: sideName(st.submitted.side) })) + "</p>";
    } else {
      html += "<div class=\"choices\">";
      (SIDE ? [SIDE] : LETTERS.split("")).forEach(function (letter) {
        html += btn("submit-final", esc(submitLabel(letter)), { "data-side": letter });
      });
      html += "</div><div class=\"row-actions\">" + btn("final-off", esc(gettext("Back to the scoresheet")), { "class": "secondary" }) + "</div>";
    }
    return html;
  }

  // ---------------------------------------------------------------- the other side's claim, hand by hand
  /** Where the claim's sheet first differs from this phone's own sheet (hand by hand, as
   *  entered); null when this phone has no sheet or they agree so far. */
  function firstDifference(claimHands) {
    var own = buildSheet().hands;
    if (!own.length) return null;
    var n = Math.max(own.length, claimHands.length);
    for (var i = 0; i < n; i++) {
      var a = own[i], b = claimHands[i];
      if (!a || !b) return { hand: i, text: fmt(!a ? gettext("your sheet has no hand %(hand)s yet") : gettext("your sheet has a hand %(hand)s more"), { hand: i + 1 }) };
      if (a.leader !== b.leader) return { hand: i, text: fmt(gettext("on your sheet %(player)s led"), { player: seatName(a.leader) }) };
      var ta = JSON.stringify(a.tally || a.moves || []), tb = JSON.stringify(b.tally || b.moves || []);
      if (ta !== tb) {
        var pa = scoredIn(a), pb = scoredIn(b);
        return { hand: i, text: fmt(gettext("your sheet scores this hand %(yours)s (this one %(theirs)s)"), {
          yours: pa.map(function (x) { return shown(x); }).join("–"), theirs: pb.map(function (x) { return shown(x); }).join("–") }) };
      }
      if (a.end !== b.end || a.finisher !== b.finisher) {
        return { hand: i, text: a.end === "domino" ? fmt(gettext("on your sheet %(player)s went out"), { player: seatName(a.finisher) })
          : a.end ? gettext("on your sheet the hand was blocked") : gettext("on your sheet the hand is not over") };
      }
      if (JSON.stringify(a.remaining || null) !== JSON.stringify(b.remaining || null)) {
        return { hand: i, text: fmt(gettext("your sheet has other pips left: %(pips)s"), { pips: (a.remaining || []).join(", ") }) };
      }
    }
    return null;
  }

  function scorersOf(h) {
    var by = {};
    var order = [];
    function add(label, raw) {
      if (!(label in by)) { by[label] = 0; order.push(label); }
      by[label] += raw;
    }
    if (h.tally) {
      h.tally.forEach(function (t) {
        if (typeof t.score !== "number") return;
        add(t.entity !== undefined ? entityLabel(t.entity) : seatName(t.seat), t.score);
      });
    } else if (h.moves) {
      h.moves.forEach(function (m) { if (m.play && m.score) add(seatName(m.seat), m.score); });
    }
    if (!order.length) return gettext("nobody scored");
    return order.map(function (k) { return k + " " + shown(by[k]); }).join(", ");
  }

  /** The claim's sheet, hand by hand: the leader, who scored what, how it ended, the settlement
   *  and the running score, all in displayed points (the running score is the engine's). */
  function claimHandsHtml(sheet, running, diff) {
    var hands = sheet.hands || [];
    var setl = settlements(hands, running);
    var said = diff ? (diff.sentence ? diff.text + "." : fmt(gettext("First difference from your sheet: %(difference)s."), { difference: diff.text })) : "";
    var top = said ? "<p class=\"diff diff-summary\" id=\"difference-before\" role=\"status\">" + esc(said) + "</p>" : "";
    return top + "<ol class=\"claim-hands\">" + hands.map(function (h, i) {
      var how = h.end === "domino" ? fmt(gettext("%(player)s went out"), { player: seatName(h.finisher) })
        : h.end === "blocked" ? gettext("blocked") : gettext("ended at the target");
      var d = setl[i];
      var score = running[i] ? cfg.entities.map(function (ent, e) { return plain(running[i][e]); }).join(" · ") : "?";
      var differs = diff && diff.hand === i;
      // At a table of many a bare row of numbers names nobody: the score after the hand gets
      // its own line, each player with theirs.
      var after = MANY && running[i] ? "<div class=\"after\">" + esc(fmt(gettext("After the hand: %(scores)s"), {
        scores: cfg.entities.map(function (ent, e) { return ent.label + " " + plain(running[i][e]); }).join(" · ") })) + "</div>" : "";
      return "<li" + (differs ? " class=\"differs\" id=\"first-difference\"" : "") + "><div class=\"hand-line\"><span>" +
        esc(fmt(gettext("Hand %(hand)s · %(player)s led"), { hand: i + 1, player: seatName(h.leader) })) + "</span>" +
        (MANY ? "" : "<strong class=\"running\">" + esc(score) + "</strong>") + "</div>" +
        "<div class=\"muted\">" + esc(scorersOf(h)) + "; " + esc(how) +
        (sheet.time && sheet.time.called_in_hand === i ? "; " + esc(gettext("time was called in this hand")) : "") +
        (d ? "; " + esc(fmt(gettext("settled %(amounts)s"), { amounts: amounts(d) })) : "") + "</div>" + after +
        (differs ? "<div class=\"diff\">" + esc(said) + "</div>" : "") + "</li>";
    }).join("") + "</ol>";
  }

  var detailFor = null;
  /** Fill a pending claim's detail (the status fragment leaves an empty box for it): read the
   *  claim's sheet from the table API, the running score from the verify endpoint; the first
   *  difference from this phone's own sheet is worked out again whenever that sheet changes. */
  function fillClaimDetail() {
    var box = document.querySelector("#claim-status [data-claim-detail]");
    if (!box) { detailFor = null; return; }
    var key = box.getAttribute("data-claim-detail") + ":" + box.getAttribute("data-version");
    if (detailFor && detailFor.key === key) {
      if (detailFor.sheet) {
        askDifference(detailFor);
        var html = claimHandsHtml(detailFor.sheet, detailFor.running, claimDifference(detailFor));
        if (box.innerHTML !== html) box.innerHTML = html;
      }
      return;  // drawn, or on its way
    }
    detailFor = { key: key, sheet: null, running: null };
    var side = sideIndex(box.getAttribute("data-side"));
    var id = parseInt(box.getAttribute("data-claim-detail"), 10);
    // At a table of many the claim is read by its id from the match's claims (every seat's);
    // else from the table's match (its two sides' current claims).
    fetch(MANY ? cfg.urls.submit : cfg.urls.table, { headers: { "Accept": "application/json", "Authorization": "Table " + cfg.token },
                                                     credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error("table " + r.status); return r.json(); })
      .then(function (data) {
        var claim = MANY ? (Array.isArray(data) ? data.filter(function (c) { return c.id === id; })[0] || null : null)
          : data.match && data.match.sides[side] ? data.match.sides[side].claim : null;
        if (!claim || !claim.sheet || !claim.sheet.hands) throw new Error("no sheet");
        return callVerify(claim.sheet).then(function (answer) {
          if (!detailFor || detailFor.key !== key) return;
          detailFor.sheet = claim.sheet; detailFor.running = answer.running;
          fillClaimDetail();
        });
      })
      .catch(function () { detailFor = null; });
  }

  /** The claim's first difference from this phone's own sheet: the engine's sentence (which
   *  play, who scored it on each sheet) once the server has answered for this very sheet, else
   *  the phone's own rough word on the hand (offline, or while the answer is on its way). */
  function claimDifference(detail) {
    var own = JSON.stringify(buildSheet());
    if (detail.asked === own && detail.answered) {
      return detail.difference ? { hand: detail.difference.hand, text: detail.difference.text, sentence: true } : null;
    }
    return firstDifference(detail.sheet.hands);
  }
  /** Ask the verify endpoint where the claim differs from this phone's sheet, once per version
   *  of this phone's sheet (nothing to ask while it has no hand). */
  function askDifference(detail) {
    var own = buildSheet();
    var ownJson = JSON.stringify(own);
    if (detail.asked === ownJson || !own.hands.length) return;
    detail.asked = ownJson; detail.answered = false;
    callVerify(detail.sheet, own).then(function (answer) {
      if (detailFor !== detail || detail.asked !== ownJson) return;
      detail.difference = answer.difference; detail.answered = true;
      fillClaimDetail();
    }).catch(function () { /* the phone's own word stands; asked again when the sheet changes */ });
  }

  // ---------------------------------------------------------------- move form
  var TILES = [];
  for (var a = 0; a <= 6; a++) for (var b = a; b <= 6; b++) TILES.push(a + "-" + b);

  function nextSeat(h) {
    if (!h.moves.length) return h.leader;
    var m = h.moves[h.moves.length - 1];
    if (m.draw !== undefined) return m.seat;
    return (m.seat + 1) % N;
  }
  function onTable(h) {
    var used = {};
    h.moves.forEach(function (m) { if (m.play) used[m.play] = true; });
    return used;
  }

  /** Which tiles to offer: the engine's ``playable`` (the tiles with a legal place now); while
   *  the drawing of the play just entered is on its way, the ones it gave before (the grid does
   *  not jump meanwhile); without a drawing of this hand, every tile not on the table. A tap
   *  always asks the engine about the position on the screen. */
  function offeredTiles(h) {
    var g = st.layoutG, used = onTable(h);
    var ofHand = g && g.playable && g.hand === st.hands.length - 1;
    return TILES.filter(function (t) { return !used[t] && (!ofHand || g.playable.indexOf(t) >= 0); });
  }
  function playsIn(h) { return h.moves.filter(function (m) { return m.play; }).length; }

  /** Move entry, sized for a small phone: who plays, then the tiles that can be played (one tap
   *  places a tile that has one legal place; with more, its places as large buttons, one tap
   *  each), then the drawn table. Undo and "End the hand" sit in the dock, always in reach. */
  function renderMoves(h) {
    var html = handHead(h) + timeNote();
    if (st.ending) {
      return html + endSection(h) + "<div class=\"row-actions\">" +
        btn("end-cancel", esc(gettext("Back to the moves")), { "class": "secondary" }) + "</div>";
    }
    var seat = nextSeat(h);
    var last = h.moves[h.moves.length - 1];
    var afterDraw = last && last.draw !== undefined;
    var picking = !!(st.pick && st.pick.placements && st.pick.placements.length > 1);
    // Who plays is the legend of the tiles (one line, so that the tiles sit high on the screen).
    var toPlay = afterDraw
      ? fmt(gettext("<strong>%(player)s</strong> to play (after drawing %(tile)s)."), { player: esc(seatLabel(seat)), tile: esc(last.draw) })
      : fmt(gettext("<strong>%(player)s</strong> to play."), { player: esc(seatLabel(seat)) });
    if (st.moveError) html += "<p class=\"error\" id=\"move-error\" role=\"alert\">" + esc(st.moveError) + "</p>";
    if (picking) {
      html += "<fieldset class=\"move-choices\"><legend>" + esc(fmt(gettext("Where does %(tile)s go?"), { tile: st.pick.tile.replace("-", "|") })) + "</legend><div class=\"choices places\">";
      st.pick.placements.forEach(function (p, k) {
        // Short on the button (two to a row), whole for a screen reader.
        html += btn("place", esc(p.on ? p.on.replace("-", "|") : gettext("Open the hand")) + " → " + esc(points(p.score)),
          { "data-k": k, "class": "secondary",
            "aria-label": (p.on ? fmt(gettext("On %(tile)s"), { tile: p.on.replace("-", "|") }) : gettext("Open the hand")) + " → " + points(p.score) });
      });
      html += btn("pick-cancel", esc(gettext("Another tile")), { "class": "secondary" }) + "</div></fieldset>";
    } else {
      html += "<fieldset class=\"move-choices\"><legend class=\"to-play\">" + toPlay + "</legend><div class=\"choices tiles\">";
      offeredTiles(h).forEach(function (t) {
        html += btn("pick", esc(t.replace("-", "|")), { "data-tile": t, "aria-label": fmt(gettext("Tile %(tile)s"), { tile: t }),
          "aria-busy": pendingTile === t ? "true" : null });
      });
      html += "</div><div class=\"row-actions\">" +
        btn("draw", esc(afterDraw ? gettext("Drew one more") : gettext("Drew from the boneyard")), { "class": "secondary" }) +
        btn("pass", esc(gettext("Passed")), { "class": "secondary" }) + "</div></fieldset>";
    }
    var g = picking ? st.pick.g : st.layoutG;
    html += tablePane(g, picking, "");
    if (h.moves.length) {
      html += "<h3>" + esc(gettext("This hand")) + "</h3><ol class=\"entries\">" + h.moves.map(function (m) {
        if (m.play) return "<li>" + esc(seatShort(m.seat)) + ": " + esc(m.play.replace("-", "|")) + " " +
          esc(m.on ? fmt(gettext("on %(tile)s"), { tile: m.on.replace("-", "|") }) : gettext("to open")) + (m.score ? " — " + esc(points(m.score)) : "") + "</li>";
        if (m.draw !== undefined) return "<li>" + esc(seatShort(m.seat)) + ": " + esc(fmt(gettext("drew %(tile)s"), { tile: m.draw })) + "</li>";
        return "<li>" + esc(seatShort(m.seat)) + ": " + esc(gettext("passed")) + "</li>";
      }).join("") + "</ol>";
    }
    html += "<div class=\"row-actions\">" + timeButton() + "</div>" + handFoot(h);
    return html;
  }

  /** The dock's move-entry buttons (Undo and "End the hand"): shown while a move-form hand is
   *  being entered, so that they are in reach at any scroll. */
  function renderDockMoves() {
    var el = document.getElementById("dock-moves");
    if (!el) return;
    var h = lastHand();
    var on = !!(h && h.form === "moves" && !h.end && !st.ending && !st.finalOnly && !finished() &&
      !entry.classList.contains("hidden"));
    var html = on ? btn("undo", esc(gettext("Undo last")), { "class": "secondary", disabled: h.moves.length ? null : "disabled" }) +
      btn("end", esc(gettext("End the hand"))) : "";
    if (el.innerHTML !== html) el.innerHTML = html;
    el.classList.toggle("hidden", !on);
    app.classList.toggle("with-dock-moves", on);
  }

  /** A placement: the tile on ``p.on`` (null: it opens the hand), with the engine's score. */
  function placeMove(h, tile, p) {
    var m = { seat: nextSeat(h), play: tile, score: p.score };
    if (p.on) m.on = p.on;
    h.moves.push(m); st.pick = null; st.moveError = ""; changed(); fetchPosition(null);
  }

  /** What went wrong drawing the table, in the players' words (the server's words are for the
   *  director's log); what was entered is kept either way. */
  function moveProblem(res) {
    var d = res && res.data;
    if (res && res.status === 429) return gettext("Too many taps at once: wait a moment, then tap the tile again. Nothing entered is lost.");
    if (d && d.details && typeof d.details.move === "number") {
      return fmt(gettext("Play %(n)s of this hand does not fit on the table: undo back to it and enter it again."), { n: d.details.move + 1 });
    }
    if (d && d.details && d.details.field === "tile") return gettext("That is not a tile: tap one of the tiles shown.");
    return gettext("The table could not be drawn just now. Nothing entered is lost: tap the tile again, or use Undo.");
  }

  var pendingTile = null;  // the tile whose places are being asked for (taps wait meanwhile)
  function fetchPosition(tile) {
    var h = lastHand();
    // The hand being entered is the last of st.hands: the sheet sent must hold it even before its
    // first entry (an empty hand after a settled one is left off a sheet that is verified or sent).
    var sheet = buildSheet({ current: true });
    var hand = st.hands.length - 1, plays = playsIn(h);
    if (tile) { pendingTile = tile; renderEntry(); }
    return post(cfg.urls.position, { sheet: sheet, hand: hand, tile: tile || null })
      .then(function (res) {
        if (!res.ok || !res.data) throw { res: res };
        return res.data;
      }).then(function (data) {
        pendingTile = null;
        // An answer about a position that is not the one on the screen any more is dropped.
        if (lastHand() !== h || hand !== st.hands.length - 1 || plays !== playsIn(h)) return h;
        st.moveError = "";
        if (tile) {
          var ps = data.placements || [];
          if (ps.length === 1) { placeMove(h, tile, ps[0]); return h; }  // one place: placed
          if (!ps.length) {
            st.pick = null;
            st.moveError = fmt(gettext("%(tile)s does not fit anywhere on the table: tap another tile."), { tile: tile.replace("-", "|") });
          } else {
            st.pick = { tile: tile, placements: ps, chosen: null, g: data };
            st.pick.z = fitZoom(data);
          }
        } else {
          data.hand = hand; data.plays = plays;
          st.layoutG = data;
        }
        save(); renderAll();
        return h;
      }).catch(function (err) {
        pendingTile = null;
        if (!tile) st.layoutG = null;  // no playable tiles of an older position: every tile is offered
        st.moveError = navigator.onLine ? moveProblem(err && err.res) : gettext("No connection: the table is drawn by the server. Use the quick tally for this hand, or wait for the connection.");
        st.pick = null; save(); renderAll();
      });
  }

  // The drawn table keeps its size through a long hand: it is drawn at a fixed scale (CSS px per
  // tile half, so a tile's short side is never under ZOOM_MIN px) in a pane of fixed height that
  // pans (one finger, or scroll) and zooms (pinch, or the − and + buttons). After each render the
  // pane shows the last tile placed and, while a tile is picked, every place it may go.
  var ZOOM_MIN = 20, ZOOM_MAX = 64, ZOOM_STEP = 1.25, ZOOM_DEFAULT = 32;
  var TARGET_PX = 48;  // a legal place's tap target, in CSS px at any zoom (at least 44)
  function baseZoom() {
    var z = typeof st.zoom === "number" ? st.zoom : ZOOM_DEFAULT;
    return Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, z));
  }
  /** The zoom in use: while a tile is picked, the pick's own (see fitZoom), else the players'. */
  function zoom() {
    var z = st.pick && typeof st.pick.z === "number" ? st.pick.z : baseZoom();
    return Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, z));
  }
  /** The zoom that shows every legal place of a picked tile in the pane at once: the players'
   *  zoom, or less (never under ZOOM_MIN) when the places lie further apart than the pane. */
  function fitZoom(g) {
    var z = baseZoom();
    var pts = (g.placements || []).filter(function (p) { return p.x !== undefined && p.x !== null; });
    if (pts.length < 2) return z;
    var pane = document.getElementById("layout");
    var pw = (pane ? pane.clientWidth : entry.clientWidth) - 8;
    var ph = (pane ? pane.clientHeight : 272) - 8;
    var xs = pts.map(function (p) { return p.x; }), ys = pts.map(function (p) { return p.y; });
    var sx = Math.max.apply(null, xs) - Math.min.apply(null, xs);
    var sy = Math.max.apply(null, ys) - Math.min.apply(null, ys);
    if (sx > 0) z = Math.min(z, (pw - TARGET_PX) / sx);
    if (sy > 0) z = Math.min(z, (ph - TARGET_PX) / sy);
    return Math.max(ZOOM_MIN, Math.floor(z));
  }
  function lastPlayed() {
    var h = lastHand();
    if (!h || !h.moves) return null;
    for (var i = h.moves.length - 1; i >= 0; i--) if (h.moves[i].play) return h.moves[i].play;
    return null;
  }

  /** The pane around the drawing: always the same height, so nothing below it moves. */
  function tablePane(g, picking, head) {
    var inner = drawLayout(g, picking);
    // The zoom buttons sit beside the line above the pane (never over the drawing); the row has
    // their height whether they are shown or not.
    var tools = g && g.tiles && g.tiles.length
      ? "<div class=\"zoom-tools\" role=\"group\" aria-label=\"" + esc(gettext("Zoom the table")) + "\">" +
        btn("zoom", "−", { "data-dir": "out", "aria-label": gettext("Zoom out"), "class": "secondary",
          disabled: zoom() <= ZOOM_MIN ? "disabled" : null }) +
        btn("zoom", "+", { "data-dir": "in", "aria-label": gettext("Zoom in"), "class": "secondary",
          disabled: zoom() >= ZOOM_MAX ? "disabled" : null }) + "</div>"
      : "";
    return "<div class=\"table-frame\"><div class=\"pane-head\">" + head + tools + "</div><div id=\"layout\" class=\"layout table-pane\">" + inner + "</div></div>";
  }

  /** The engine's geometry drawn as SVG: tiles on a grid (one unit per half), counted ends as
   *  filled numbers, open ports that are not counted as hollow dots (as seed 000 draws them), and
   *  the chosen tile's legal places as tap targets. The SVG's size in CSS px is the drawing's
   *  size times the zoom; ``data-focus`` is the box the pane brings into view (the last tile
   *  placed and the legal places), in the SVG's px. */
  function drawLayout(g, picking) {
    if (!g || !g.tiles || !g.tiles.length) {
      var h = lastHand();
      var played = h ? h.moves.filter(function (m) { return m.play; }).length : 0;
      if (!played) return "<p class=\"muted pane-note\">" + esc(gettext("The table is empty: the first tile opens the hand.")) + "</p>";
      if (!g) return "<p class=\"muted pane-note\">" + esc(gettext("Drawing the table…")) + "</p>";
      return "<p class=\"muted pane-note\">" + esc(fmt(ngettext("%(n)s tile on the table, ends total %(total)s (no drawing available).",
        "%(n)s tiles on the table, ends total %(total)s (no drawing available).", played), { n: played, total: g ? g.total : "?" })) + "</p>";
    }
    var z = zoom();
    var half = Math.max(0.5, TARGET_PX / z / 2);  // half a target's side, in units
    var pad = Math.max(1.2, half + 0.3);
    var minx = Infinity, miny = Infinity, maxx = -Infinity, maxy = -Infinity;
    function grow(x, y, w, hh) {
      minx = Math.min(minx, x - w / 2); maxx = Math.max(maxx, x + w / 2);
      miny = Math.min(miny, y - hh / 2); maxy = Math.max(maxy, y + hh / 2);
    }
    g.tiles.forEach(function (t) { grow(t.x, t.y, t.w, t.h); });
    var targets = picking ? (g.placements || []).filter(function (p) { return p.x !== undefined && p.x !== null; }) : [];
    targets.forEach(function (p) { grow(p.x, p.y, 1, 1); });
    var x0v = minx - pad, y0v = miny - pad, wv = maxx - minx + 2 * pad, hv = maxy - miny + 2 * pad;
    // The focus: the legal places while a tile is picked, else the last tile placed.
    var fb = null;
    function focus(x, y, w, hh) {
      if (!fb) fb = [x - w / 2, y - hh / 2, x + w / 2, y + hh / 2];
      else fb = [Math.min(fb[0], x - w / 2), Math.min(fb[1], y - hh / 2), Math.max(fb[2], x + w / 2), Math.max(fb[3], y + hh / 2)];
    }
    var lastTile = lastPlayed();
    if (!targets.length) g.tiles.forEach(function (t) { if (t.tile === lastTile) focus(t.x, t.y, t.w, t.h); });
    targets.forEach(function (p) { focus(p.x, p.y, 2 * half, 2 * half); });
    var first = targets.length ? targets[0] : null;
    var px = function (v) { return (v * z).toFixed(1); };
    var focusAttr = fb ? px(fb[0] - x0v) + " " + px(fb[1] - y0v) + " " + px(fb[2] - x0v) + " " + px(fb[3] - y0v) : "";
    var firstAttr = first ? px(first.x - half - x0v) + " " + px(first.y - half - y0v) + " " + px(first.x + half - x0v) + " " + px(first.y + half - y0v) : "";
    var vb = [x0v, y0v, wv, hv].map(function (n) { return n.toFixed(2); }).join(" ");
    var out = "<svg class=\"table-svg\" viewBox=\"" + vb + "\" width=\"" + px(wv) + "\" height=\"" + px(hv) +
      "\" data-zoom=\"" + z + "\" data-focus=\"" + focusAttr + "\" data-first=\"" + firstAttr + "\" role=\"img\" aria-label=\"" +
      esc(fmt(ngettext("The table: %(n)s tile, ends total %(total)s", "The table: %(n)s tiles, ends total %(total)s", g.tiles.length),
        { n: g.tiles.length, total: g.total })) + "\">";
    g.tiles.forEach(function (t) {
      var x0 = t.x - t.w / 2, y0 = t.y - t.h / 2;
      var horiz = t.w >= t.h;
      out += "<g class=\"tile" + (t.spinner ? " spinner" : "") + (t.tile === lastTile ? " last" : "") + "\" data-tile=\"" + esc(t.tile) + "\"><rect x=\"" + x0 + "\" y=\"" + y0 + "\" width=\"" + t.w + "\" height=\"" + t.h + "\" rx=\".12\"/>";
      if (horiz) {
        out += "<line x1=\"" + t.x + "\" y1=\"" + (y0 + .1) + "\" x2=\"" + t.x + "\" y2=\"" + (y0 + t.h - .1) + "\"/>" +
          "<text x=\"" + (t.x - t.w / 4) + "\" y=\"" + t.y + "\">" + t.a + "</text><text x=\"" + (t.x + t.w / 4) + "\" y=\"" + t.y + "\">" + t.b + "</text>";
      } else {
        out += "<line x1=\"" + (x0 + .1) + "\" y1=\"" + t.y + "\" x2=\"" + (x0 + t.w - .1) + "\" y2=\"" + t.y + "\"/>" +
          "<text x=\"" + t.x + "\" y=\"" + (t.y - t.h / 4) + "\">" + t.a + "</text><text x=\"" + t.x + "\" y=\"" + (t.y + t.h / 4) + "\">" + t.b + "</text>";
      }
      out += "</g>";
    });
    (g.ports || []).forEach(function (p) {
      out += "<circle class=\"port\" cx=\"" + p.x + "\" cy=\"" + p.y + "\" r=\".22\"><title>" + esc(gettext("open, not counted")) + "</title></circle>";
    });
    (g.counted || []).forEach(function (c) {
      out += "<circle class=\"end-count\" cx=\"" + c.x + "\" cy=\"" + c.y + "\" r=\".3\"/><text class=\"end-count-text\" x=\"" + c.x + "\" y=\"" + c.y + "\">" + c.value + "</text>";
    });
    (g.placements || []).forEach(function (p, k) {
      if (!picking || p.x === undefined || p.x === null) return;
      out += "<rect class=\"target\" tabindex=\"0\" role=\"button\" data-action=\"place\" data-k=\"" + k + "\" aria-label=\"" + esc(p.on ? fmt(gettext("Place on %(tile)s"), { tile: p.on }) : gettext("Place on the table")) + "\" x=\"" + (p.x - half).toFixed(3) + "\" y=\"" + (p.y - half).toFixed(3) + "\" width=\"" + (2 * half).toFixed(3) + "\" height=\"" + (2 * half).toFixed(3) + "\" rx=\".2\"/>";
    });
    return out + "</svg>";
  }

  /** After a render: bring the focus (the last tile, the legal places) into the pane's view.
   *  A drawing that did not change keeps where the players panned it. */
  var paneKey = null, paneScroll = null;
  /** Move entry: the tiles (or the places) of the play in the page's view, between the scorebar
   *  and the dock, scrolling the page as little as needed (the hand's heading may go under the
   *  scorebar); returns the box of the choices, or null outside move entry. */
  var choicesKey = null;
  function choicesInView() {
    var choices = entry.querySelector(".move-choices");
    if (!choices) { choicesKey = null; return null; }
    // Only for a new play or a new pick: a re-render of the same one (a verdict arriving) never
    // moves the page under a finger.
    var h = lastHand();
    var key = st.hands.length + ":" + (h ? h.moves.length : 0) + ":" +
      (st.pick ? "pick " + st.pick.tile : "tiles " + (st.layoutG ? st.layoutG.plays : ""));
    if (key === choicesKey) return choices.getBoundingClientRect();
    choicesKey = key;
    var bar = document.querySelector(".scorebar");
    var dock = document.getElementById("dock");
    var top = bar ? bar.getBoundingClientRect().bottom : 0;
    var bottom = dock && dock.offsetHeight ? dock.getBoundingClientRect().top : window.innerHeight;
    var c = choices.getBoundingClientRect();
    if (c.top < top) window.scrollBy(0, c.top - top);
    else if (c.bottom > bottom) window.scrollBy(0, Math.min(c.top - top, c.bottom - bottom));
    return choices.getBoundingClientRect();
  }
  function placePane(changed) {
    if (changed) choicesInView();
    var pane = document.getElementById("layout");
    var svg = pane ? pane.querySelector("svg.table-svg") : null;
    if (!svg) { paneKey = null; return; }
    var key = svg.getAttribute("viewBox") + "|" + svg.getAttribute("data-focus") + "|" + svg.getAttribute("data-zoom");
    if (!changed && paneKey === key) return;
    if (paneKey === key && paneScroll) { pane.scrollLeft = paneScroll[0]; pane.scrollTop = paneScroll[1]; return; }
    paneKey = key;
    // The pane and the line above it (who plays) in the page's view, between the scorebar and
    // the dock (the page's scroll-padding keeps clear of both).
    var frame = pane.closest(".table-frame") || pane;
    var r = frame.getBoundingClientRect();
    var bar = document.querySelector(".scorebar");
    var dock = document.getElementById("dock");
    var top = bar ? bar.getBoundingClientRect().bottom : 0;
    var bottom = dock && dock.offsetHeight ? dock.getBoundingClientRect().top : window.innerHeight;
    // In move entry the tiles come first: the page never scrolls them out of view for the pane.
    var keep = choicesInView();
    if (r.top < top && !keep) frame.scrollIntoView({ block: "nearest" });
    else if (r.bottom > bottom) {
      var by = Math.min(r.bottom - bottom, keep ? keep.top - top : Infinity);
      if (by > 0) window.scrollBy(0, by);
    }
    var f = (svg.getAttribute("data-focus") || "").split(" ").map(parseFloat);
    var w = svg.width.baseVal.value, hh = svg.height.baseVal.value;
    var cx = w / 2, cy = hh / 2;
    // Places further apart than the pane (even zoomed out): the first of them, the others a
    // scroll away (and each has its button below the table).
    if (f.length === 4 && (f[2] - f[0] > pane.clientWidth || f[3] - f[1] > pane.clientHeight)) {
      var one = (svg.getAttribute("data-first") || "").split(" ").map(parseFloat);
      if (one.length === 4) f = one;
    }
    if (f.length === 4 && !f.some(isNaN)) { cx = (f[0] + f[2]) / 2; cy = (f[1] + f[3]) / 2; }
    // The SVG is centred in the pane when smaller than it (see .table-pane in phone.css).
    var offX = Math.max(0, (pane.clientWidth - w) / 2), offY = Math.max(0, (pane.clientHeight - hh) / 2);
    pane.scrollLeft = Math.max(0, cx + offX - pane.clientWidth / 2);
    pane.scrollTop = Math.max(0, cy + offY - pane.clientHeight / 2);
    paneScroll = [pane.scrollLeft, pane.scrollTop];
  }
  /** Zoom to ``z`` px a unit, keeping the point at the pane's centre where it is. */
  function setZoom(z) {
    var pane = document.getElementById("layout");
    var svg = pane ? pane.querySelector("svg.table-svg") : null;
    var old = zoom();
    z = Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, z));
    var centre = null;
    if (svg) centre = [(pane.scrollLeft + pane.clientWidth / 2) / old, (pane.scrollTop + pane.clientHeight / 2) / old];
    if (st.pick && typeof st.pick.z === "number") st.pick.z = z; else st.zoom = z;
    save(); renderAll();
    pane = document.getElementById("layout");
    if (centre && pane) {
      pane.scrollLeft = Math.max(0, centre[0] * z - pane.clientWidth / 2);
      pane.scrollTop = Math.max(0, centre[1] * z - pane.clientHeight / 2);
      paneScroll = [pane.scrollLeft, pane.scrollTop];
    }
  }
  app.addEventListener("scroll", function (ev) {
    if (ev.target && ev.target.id === "layout") paneScroll = [ev.target.scrollLeft, ev.target.scrollTop];
  }, true);
  // Pinch: two fingers on the pane zoom the drawing (the browser's own pinch would zoom the page).
  var pinch = null, heldEntry = false;
  function spread(t) { return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY); }
  app.addEventListener("touchstart", function (ev) {
    if (pinch && ev.touches.length < 2) endPinch(ev);  // a pinch whose lift was never told
    var pane = ev.target.closest && ev.target.closest("#layout");
    if (!pane || ev.touches.length !== 2) return;
    pinch = { d: spread(ev.touches), z: zoom() };
  }, { passive: true });
  app.addEventListener("touchmove", function (ev) {
    if (!pinch || ev.touches.length !== 2) return;
    ev.preventDefault();
    var svg = document.querySelector("#layout svg.table-svg");
    var z = Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, pinch.z * spread(ev.touches) / pinch.d));
    pinch.now = z;
    if (svg) {  // live, without a re-render: the drawing's size follows the fingers
      var vb = svg.viewBox.baseVal;
      svg.setAttribute("width", (vb.width * z).toFixed(1));
      svg.setAttribute("height", (vb.height * z).toFixed(1));
    }
  }, { passive: false });
  function endPinch(ev) {
    if (!pinch || (ev.touches && ev.touches.length >= 2)) return;
    var z = pinch.now, held = heldEntry;
    pinch = null; heldEntry = false;
    if (z) setZoom(Math.round(z)); else if (held) renderEntry();
  }
  app.addEventListener("touchend", endPinch);
  app.addEventListener("touchcancel", endPinch);

  // ---------------------------------------------------------------- the outbox (exactly once)
  function outbox() {
    try { return JSON.parse(localStorage.getItem(OUTBOX)) || []; } catch (e) { return []; }
  }
  function setOutbox(items) { localStorage.setItem(OUTBOX, JSON.stringify(items)); showNet(); }
  function newKey() {
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }
  /** The version of a side's current claim on the server (shown by the status fragment), which
   *  a new submission of that side changes (If-Match); null when the side has none. */
  function claimVersion(letter) {
    var el = document.getElementById("claim-versions");
    var v = el ? el.getAttribute("data-" + letter.toLowerCase()) : null;
    return v ? v : null;
  }
  /** Queue one submission; its Idempotency-Key is made here, once, and stored with it. */
  function enqueue(item) {
    item.key = newKey();
    item.attempts = 0;
    var items = outbox();
    items.push(item);
    setOutbox(items);
    flush();
  }
  var flushing = false;
  var retryTimer = null;
  /** Send the outbox's first item; delivered (2xx) or refused for good (4xx), it leaves the
   *  outbox; else it stays, with the same Idempotency-Key (and If-Match), for a retry. */
  function flush() {
    clearTimeout(retryTimer);
    if (flushing) return;
    var items = outbox();
    if (!items.length) { retrying = false; showNet(); return; }
    flushing = true;
    var item = items[0];
    var headers = { "Idempotency-Key": item.key };
    if (item.ifMatch !== undefined && item.ifMatch !== null) headers["If-Match"] = String(item.ifMatch);
    post(item.url, item.body, headers).then(function (res) {
      if (retryable(res)) { sendAgain(item, res); return; }
      setOutbox(outbox().filter(function (x) { return x.key !== item.key; }));
      flushing = false;
      retrying = false;
      delivered(item, res);
      flush();
    }, function () { sendAgain(item, null); });
  }
  function sendAgain(item, res) {
    flushing = false;
    retrying = true;
    var left = outbox();
    var n = 1;
    left.forEach(function (x) { if (x.key === item.key) n = x.attempts = (x.attempts || 0) + 1; });
    setOutbox(left);
    // Offline, the "online" event sends it; the timer is there too, in case that event never comes.
    retryTimer = setTimeout(flush, retryDelay(n, retryAfterMs(res)));
  }
  function delivered(item, res) {
    var state = res.data && res.data.match ? res.data.match.state : null;
    if (res.ok) {
      var claim = res.data && res.data.claim ? res.data.claim : null;
      if (item.kind === "submit") st.submitted = { side: item.side, claim: claim ? claim.id : null };
      if (state === "conflict" || state === "confirmed") st.notice = st.entryNotice = "";  // the claim status says it
      else if (item.kind === "confirm") st.notice = gettext("Confirmed.");
      else if (claim && claim.status === "draft") {
        st.notice = gettext("Sent, but kept as a draft: the rules engine found a mistake or the game is not over. Fix it and send it again.");
        st.submitted = null;
      } else if (MANY) st.notice = gettext("Sent: the other players now check and confirm it, each on their own phone.");
      else st.notice = fmt(gettext("Sent: %(team)s now checks and confirms it."), { team: sideName(otherSide(item.side)) });
    } else {
      var d = res.data || {};
      st.notice = fmt(gettext("Not accepted: %(reason)s"), { reason: d.message || fmt(gettext("error %(status)s"), { status: res.status }) }) +
        (d.code ? " (" + d.code + ")" : "");
      if (item.kind === "submit") st.submitted = null;
      // A refused final score: the reason beside the fields, what was typed kept.
      if (item.kind === "submit" && st.finalOnly && d.message) st.finalError = d.message;
    }
    save(); renderAll();
    document.body.dispatchEvent(new CustomEvent("spinner:refresh"));
  }

  // ---------------------------------------------------------------- the round clock and time called
  /* The server says the clock's state and the seconds left (cfg.clock, then every CLOCK_POLL ms
   * from cfg.urls.clock); clock.js counts them down in #clock-time and fires "spinner:clock"
   * when they run out. Once time is up the scorebar asks the table to record "Time called" in
   * the hand in play (before that, the button asks first: the director may call time aloud).
   * The sheet then carries time: {called_in_hand, policy}; where the match ends is the engine's
   * (the verify answer's time_last_hand, and its verdict). */
  var CLOCK_KEY = "spinner.clock." + cfg.token;
  var CLOCK_POLL = 15000;
  var clockBar = document.getElementById("clock-bar");
  var clockTime = document.getElementById("clock-time");
  var clockLabel = document.getElementById("clock-label");
  var clock = { state: "not_started", left: null };
  var LABELS = { running: gettext("Time left"), paused: gettext("Clock paused"), expired: gettext("Time is up"),
                 not_started: gettext("No clock yet") };

  /** Show a clock answer the server gave ``got`` ms-since-epoch ago (by this phone's clock). */
  function applyClock(c, got) {
    if (!c || !LABELS[c.state]) return;
    var state = c.state;
    var left = typeof c.seconds_left === "number" ? c.seconds_left : null;
    if (state === "running" && left !== null) {
      left = Math.max(0, left - Math.max(0, Date.now() - got) / 1000);
      if (left <= 0) state = "expired";
    }
    clock = { state: state, left: left };
    if (clockTime) {
      clockTime.setAttribute("data-clock-state", state);
      clockTime.setAttribute("data-clock-left", left === null ? "" : String(Math.ceil(left)));
      if (left === null) clockTime.textContent = "";
      else if (window.SpinnerClock) window.SpinnerClock.tick();
    }
    renderClock();
  }
  function keepClock(c) {
    try { localStorage.setItem(CLOCK_KEY, JSON.stringify({ c: c, got: Date.now() })); } catch (e) { /* full */ }
  }
  /** The newer of the page's clock and the last one this phone kept (an offline reload shows a
   *  page kept from earlier). */
  function firstClock() {
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(CLOCK_KEY)); } catch (e) { kept = null; }
    var mine = cfg.clock;
    if (kept && kept.c && mine && Date.parse(kept.c.as_of) > Date.parse(mine.as_of)) {
      applyClock(kept.c, kept.got);
    } else if (mine) {
      keepClock(mine); applyClock(mine, Date.now());
    }
  }
  function pollClock() {
    if (!cfg.urls.clock) return;
    fetch(cfg.urls.clock, { headers: { "Accept": "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (c) {
        if (!c || !c.state) return;
        var was = clock.state;
        keepClock(c); applyClock(c, Date.now());
        if (was !== clock.state) renderEntry();
      })
      .catch(function () { /* offline: the count goes on from the last answer */ });
  }
  if (clockTime) {
    clockTime.addEventListener("spinner:clock", function () {
      clock.state = "expired"; clock.left = 0; renderClock(); renderEntry();
    });
  }

  /** The index of the hand in play (entered, not ended, the match not over), or null. */
  function handInPlay() {
    var h = lastHand();
    if (st.finalOnly || !h || h.end || finished()) return null;
    return st.hands.length - 1;
  }

  function renderClock() {
    if (!clockBar) return;
    var cls = "clock-bar clock-" + clock.state + (st.time ? " called" : "");
    if (clockBar.className !== cls) clockBar.className = cls;
    var label = st.time ? fmt(gettext("Time called in hand %(hand)s"), { hand: st.time.hand + 1 }) : LABELS[clock.state];
    if (clockLabel.textContent !== label) clockLabel.textContent = label;
  }
  /** "Time called…" beside the hand's other actions while the clock runs (it asks first: the
   *  director may call time aloud); once time is up, the hand's time note asks instead. */
  function timeButton() {
    if (st.time || clock.state === "expired" || handInPlay() === null || st.submitted) return "";
    return btn("time-called-hand", esc(gettext("Time called…")), { "class": "secondary" });
  }

  /** In the hand screens, once time is called: where the match ends, as the engine says. */
  function timeNote() {
    if (!st.time) {
      if (clock.state !== "expired" || handInPlay() === null || st.submitted) return "";
      return "<div class=\"time-note\" id=\"time-up\" role=\"status\"><p>" +
        esc(fmt(gettext("Time is up: record it in hand %(hand)s, the hand in play."), { hand: handInPlay() + 1 })) + "</p>" +
        btn("time-called-hand", esc(gettext("Time called")), { "class": "time-up" }) + "</div>";
    }
    var i = st.hands.length - 1;  // the hand being entered
    var last = st.timeLast;
    var values = { hand: st.time.hand + 1, last: (typeof last === "number" ? last : 0) + 1 };
    var text;
    if (st.unchecked || typeof last !== "number") {
      text = gettext("Time was called in hand %(hand)s. The rules engine says where the match ends once the sheet is checked.");
    } else if (last === i) {
      text = gettext("Time was called in hand %(hand)s: the match ends when this hand is settled.");
    } else if (last > i) {
      text = last === i + 1 ? gettext("Time was called in hand %(hand)s: the match ends after hand %(last)s, the next hand.")
        : gettext("Time was called in hand %(hand)s: the match ends after hand %(last)s.");
    } else {
      text = gettext("Time was called in hand %(hand)s.");
    }
    text = fmt(text, values);
    var undo = st.time.hand === i && !st.submitted ? btn("time-undo", esc(gettext("Undo time called")), { "class": "secondary" }) : "";
    return "<div class=\"time-note\" id=\"time-note\" role=\"status\"><p>" + esc(text) + "</p>" + undo + "</div>";
  }

  // ---------------------------------------------------------------- actions
  function newHand(leader) {
    // A hand is entered in the form the one before it was (move by move stays move by move).
    var before = lastHand();
    var form = before && before.form === "moves" ? "moves" : "tally";
    st.hands.push({ leader: leader, form: form, tally: [], moves: [], end: null, finisher: null, remaining: null });
    st.ending = null; st.pick = null; st.layoutG = null; st.notice = ""; st.other = false; st.moveError = "";
    if (form === "moves") setTimeout(function () { fetchPosition(null); }, 0);
  }
  function changed() { save(); renderAll(); verifySoon(); }
  /** Undo and reopen work on the sheet's last hand: an empty hand started after it goes first. */
  function dropEmptyTail() {
    if (st.hands.length > 1 && emptyHand(lastHand())) st.hands.pop();
    // Time called in a hand that is gone was not called: the players record it again.
    if (st.time && st.time.hand >= st.hands.length) { st.time = null; st.timeLast = null; }
    return lastHand();
  }

  /** The pips typed, checked against what hands can hold (the server's bounds): each seat's
   *  count, or null with the problems put next to the fields. */
  function readPips() {
    var e = st.ending;
    var pips = [];
    var errors = {};
    var total = 0;
    for (var s = 0; s < N; s++) {
      if (e.kind === "domino" && e.finisher === s) { pips.push(0); continue; }
      var raw = (st.drafts["pips-" + s] || "").trim();
      if (!/^\d+$/.test(raw)) { errors[s] = raw === "" ? gettext("Type the pips left (0 if none).") : gettext("Whole pips only."); pips.push(null); continue; }
      var n = parseInt(raw, 10);
      if (n > cfg.max_pips_left.hand) errors[s] = fmt(gettext("No hand can hold %(n)s pips (at most %(most)s)."), { n: n, most: cfg.max_pips_left.hand });
      total += n;
      pips.push(n);
    }
    st.pipErrors = errors;
    st.endError = "";
    if (!Object.keys(errors).length && total > cfg.max_pips_left.all) {
      st.endError = fmt(gettext("%(n)s pips left in all: more than the set holds (%(most)s). Check the counts."), { n: total, most: cfg.max_pips_left.all });
    }
    return Object.keys(errors).length || st.endError ? null : pips;
  }
  /** Live plausibility of one pip count, next to its field (no re-render while typing). */
  function checkPipField(input) {
    var s = input.getAttribute("data-pips");
    var msg = "";
    var raw = input.value.trim();
    if (raw !== "" && !/^\d+$/.test(raw)) msg = gettext("Whole pips only.");
    else if (raw !== "" && parseInt(raw, 10) > cfg.max_pips_left.hand) msg = fmt(gettext("No hand can hold %(n)s pips (at most %(most)s)."), { n: raw, most: cfg.max_pips_left.hand });
    st.pipErrors = st.pipErrors || {};
    if (msg) st.pipErrors[s] = msg; else delete st.pipErrors[s];
    var out = document.getElementById("pips-error-" + s);
    if (out) out.textContent = msg;
    if (msg) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }

  function settle() {
    var h = lastHand();
    var e = st.ending;
    if (!e || !e.kind) return;
    var pips = readPips();
    if (!pips) {
      save(); renderAll();
      var bad = entry.querySelector("[aria-invalid=\"true\"]") || document.getElementById("end-error");
      if (bad) { bad.scrollIntoView({ block: "center" }); if (bad.focus) bad.focus(); }
      return;
    }
    h.end = e.kind; h.finisher = e.kind === "domino" ? e.finisher : null; h.remaining = pips;
    st.ending = null; st.pipErrors = {}; st.endError = "";
    for (var s = 0; s < N; s++) delete st.drafts["pips-" + s];
    // After a domino the one who went out leads: the next hand starts at once (it stays off the
    // sheet until something is entered in it, so a match that is over is not spoiled by it).
    if (h.end === "domino") newHand(h.finisher);
    if (document.activeElement && entry.contains(document.activeElement)) document.activeElement.blur();
    changed();
    window.scrollTo(0, 0);  // the next hand's buttons, where the thumb starts
  }

  function addTally(who, raw) {
    var h = lastHand();
    var t = st.by === "entity" ? { entity: who, score: raw } : { seat: who, score: raw };
    h.tally.push(t); st.notice = ""; changed();
  }

  function disagree() {
    // With a finished sheet of its own, this phone sends it: the two sheets then conflict and the
    // director settles it. Without one, the players enter their own sheet first.
    var box = document.querySelector("#claim-status [data-claim-detail]");
    var mine = box && !MANY ? otherSide(box.getAttribute("data-side")) : SIDE;
    if (finished() && !st.submitted && mine) {
      enqueue({ kind: "submit", side: mine, url: cfg.urls.submit, ifMatch: claimVersion(mine),
                body: asSide(mine, { sheet: buildSheet({ result: true }) }) });
      st.submitted = { side: mine, claim: null };
      save(); renderAll();
      return;
    }
    st.showEntry = true;
    st.entryNotice = MANY ? gettext("Enter your own sheet below and send it: the director then sees the sheets and settles it.")
      : gettext("Enter your own sheet below and send it: the director then sees both sheets and settles it.");
    save(); entry.classList.remove("hidden");
    var t = document.getElementById("show-entry");
    if (t) t.remove();
    renderAll();
    entry.scrollIntoView({ block: "start" });
  }

  function act(el) {
    var a = el.getAttribute("data-action");
    var h = lastHand();
    var seat = el.hasAttribute("data-seat") ? parseInt(el.getAttribute("data-seat"), 10) : null;
    switch (a) {
      case "first-leader": newHand(seat); changed(); break;
      case "next-hand": newHand(seat); changed(); window.scrollTo(0, 0); break;
      case "form":
        h.form = el.getAttribute("data-form"); st.pick = null; st.ending = null; changed();
        if (h.form === "moves") { window.scrollTo(0, 0); fetchPosition(null); }
        break;
      case "by": st.by = el.getAttribute("data-by"); save(); renderAll(); break;
      case "other": st.other = !st.other; st.otherError = ""; save(); renderAll();
        if (st.other) { var o = document.getElementById("other-raw"); if (o) o.focus(); }
        break;
      case "tally": addTally(parseInt(el.getAttribute("data-who"), 10), parseInt(el.getAttribute("data-raw"), 10)); break;
      case "tally-other": {
        var v = (st.drafts["other-raw"] || "").trim();
        if (!/^\d+$/.test(v) || parseInt(v, 10) <= 0) { st.otherError = gettext("Type the points scored, e.g. 8."); save(); renderAll(); return; }
        delete st.drafts["other-raw"]; st.otherError = ""; st.other = false;
        addTally(parseInt(el.getAttribute("data-who"), 10), parseInt(v, 10) * cfg.divisor);
        break;
      }
      case "undo":
        h = dropEmptyTail();
        if (h.end) { h.end = null; h.finisher = null; h.remaining = null; delete st.settled[st.hands.length - 1]; }
        else if (h.form === "moves") { h.moves.pop(); st.pick = null; fetchPosition(null); }
        else h.tally.pop();
        st.submitted = null; changed();
        break;
      case "end":
        st.ending = { kind: null, finisher: null }; st.pick = null; save(); renderAll(); break;
      case "end-kind": {
        var kind = el.getAttribute("data-kind");
        if (st.ending && st.ending.kind === kind && st.ending.finisher === seat) {
          st.ending = h.form === "moves" ? { kind: null, finisher: null } : null;  // tapped again: not yet
        } else {
          st.ending = { kind: kind, finisher: seat };
        }
        st.pipErrors = {}; st.endError = "";
        save(); renderAll();
        var first = entry.querySelector("[data-pips]");
        if (first && st.ending) first.focus();
        break;
      }
      case "end-cancel": st.ending = null; save(); renderAll(); break;
      case "settle": settle(); break;
      case "reopen":
        h = dropEmptyTail();
        h.end = null; h.finisher = null; h.remaining = null;
        delete st.settled[st.hands.length - 1];
        st.submitted = null; changed();
        break;
      case "pick": if (!pendingTile) fetchPosition(el.getAttribute("data-tile")); break;
      case "zoom": setZoom(el.getAttribute("data-dir") === "in" ? zoom() * ZOOM_STEP : zoom() / ZOOM_STEP); break;
      case "pick-cancel": st.pick = null; st.moveError = ""; save(); renderAll(); break;
      case "place": placeMove(h, st.pick.tile, st.pick.placements[parseInt(el.getAttribute("data-k"), 10)]); break;
      case "draw": {
        var ns = nextSeat(h);
        var last = h.moves[h.moves.length - 1];
        if (last && last.draw !== undefined && last.seat === ns) last.draw += 1;
        else h.moves.push({ seat: ns, draw: 1 });
        changed();
        break;
      }
      case "pass": h.moves.push({ seat: nextSeat(h), pass: true }); changed(); break;
      case "submit": {
        var letter = el.getAttribute("data-side");
        enqueue({ kind: "submit", side: letter, url: cfg.urls.submit, ifMatch: claimVersion(letter),
                  body: asSide(letter, { sheet: buildSheet({ result: true }) }) });
        st.submitted = { side: letter, claim: null };
        save(); renderAll();
        break;
      }
      case "time-called-hand": {
        var at = handInPlay();
        if (at === null || st.time) break;
        if (clock.state !== "expired" && !window.confirm(fmt(gettext("The round's clock has not run out. Did the director call time during hand %(hand)s?"), { hand: at + 1 }))) break;
        st.time = { hand: at }; st.timeLast = null; changed();
        break;
      }
      case "time-undo": st.time = null; st.timeLast = null; changed(); break;
      case "final-only": st.finalOnly = true; save(); renderAll(); break;
      case "final-off": st.finalOnly = false; save(); renderAll(); break;
      case "time-called": st.timeCalled = !!el.checked; st.finalError = ""; save(); renderAll(); return "native";
      case "submit-final": {
        var values = cfg.entities.map(function (ent, e) { return (st.drafts["final-" + e] || "").trim(); });
        var problem = values.some(function (x) { return x === ""; })
          ? (MANY ? gettext("Enter every player's final score.") : gettext("Enter both final scores.")) : finalProblem(values);
        if (problem) {
          st.finalError = problem; save(); renderAll();
          var fe = document.getElementById("final-error");
          if (fe) fe.scrollIntoView({ block: "center" });
          return;
        }
        var scores = values.map(function (x) { return finalNumber(x) * cfg.divisor; });
        var side = el.getAttribute("data-side");
        enqueue({ kind: "submit", side: side, url: cfg.urls.submit, ifMatch: claimVersion(side),
                  body: asSide(side, { final_score: { scores: scores } }) });
        st.finalError = "";
        st.submitted = { side: side, claim: null }; save(); renderAll();
        break;
      }
      case "confirm": {
        // At a table of many: whose claim is confirmed (its seat), the one this phone shows.
        var body = asSide(el.getAttribute("data-side"));
        if (el.hasAttribute("data-of-side")) body.of_side = sideIndex(el.getAttribute("data-of-side"));
        enqueue({ kind: "confirm", side: el.getAttribute("data-side"), url: el.getAttribute("data-url"),
                  ifMatch: el.getAttribute("data-version"), body: body });
        el.disabled = true;
        el.textContent = gettext("Confirming…");
        break;
      }
      case "disagree": disagree(); break;
      case "unlead":
        // Only an empty hand: its leader was chosen by mistake.
        if (emptyHand(h)) {
          st.hands.pop(); st.pick = null; st.ending = null;
          if (st.time && st.time.hand >= st.hands.length) { st.time = null; st.timeLast = null; }
          changed();
        }
        break;
      case "show-entry":
        st.showEntry = true; save(); entry.classList.remove("hidden");
        var t = document.getElementById("show-entry");
        if (t) t.remove();
        break;
      case "reset":
        if (window.confirm(gettext("Clear this scoresheet on this phone?"))) { st = blank(); save(); renderAll(); }
        break;
      default: return "native";
    }
    return null;
  }

  app.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-action]");
    if (!el || el.disabled) return;
    if (el.tagName === "INPUT") { act(el); return; }  // a checkbox keeps its own click
    ev.preventDefault();
    act(el);
  });
  app.addEventListener("keydown", function (ev) {
    var el = ev.target.closest("svg [data-action]");
    if (el && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); act(el); return; }
    // Enter in a pip count moves to the next count; in the last one it settles the hand.
    if (ev.key === "Enter" && ev.target.matches("[data-pips]")) {
      ev.preventDefault();
      var all = Array.prototype.slice.call(entry.querySelectorAll("[data-pips]"));
      var k = all.indexOf(ev.target);
      if (k >= 0 && k < all.length - 1) all[k + 1].focus();
      else settle();
    } else if (ev.key === "Enter" && ev.target.matches("[data-final]")) {
      ev.preventDefault();
      var next = entry.querySelector("[data-final=\"" + (parseInt(ev.target.getAttribute("data-final"), 10) + 1) + "\"]");
      if (next) next.focus();
    }
  });
  // Every keystroke is kept in the state (and in the browser's storage): a re-render, a reload or
  // a late answer from the server writes it back.
  app.addEventListener("input", function (ev) {
    var el = ev.target;
    if (!el.matches || !el.matches("[data-draft]")) return;
    st.drafts[el.id] = el.value;
    save();
    if (el.matches("[data-pips]")) { checkPipField(el); renderVerdict(); }
    if (el.matches("[data-final]")) {
      var values = cfg.entities.map(function (ent, e) { return (st.drafts["final-" + e] || "").trim(); });
      var out = document.getElementById("final-error");
      st.finalError = "";
      if (out) out.textContent = values.every(function (x) { return x !== ""; }) ? (finalProblem(values) || "") : "";
    }
  });

  function renderAll() {
    renderClock();
    renderBoard();
    renderVerdict();
    renderEntry();
    renderDockMoves();
    showNet();
    if (detailFor && detailFor.sheet) fillClaimDetail();
  }

  // The claim status (htmx swaps it in): on a phone that has entered nothing, a claim to
  // confirm or a confirmed result is what matters, so the empty entry panel steps aside. One
  // state, one message: the fragment speaks for the match, so this phone's own notice about its
  // last send goes once the fragment shows a conflict or a confirmed result.
  var statusEl = document.getElementById("claim-status");
  document.body.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.target !== statusEl) return;
    var claimShown = !!statusEl.querySelector(".claim");
    var idle = !st.hands.length && !st.finalOnly;
    entry.classList.toggle("hidden", claimShown && idle && !st.showEntry);
    var toggle = document.getElementById("show-entry");
    var settledHere = MANY && !!statusEl.querySelector("#claim-confirmed, #waiting-for-other");
    if (claimShown && idle && !st.showEntry && !toggle && !settledHere && !statusEl.querySelector(".claim-actions")) {
      statusEl.insertAdjacentHTML("beforeend", "<p id=\"show-entry\">" +
        btn("show-entry", esc(MANY ? gettext("Enter my own scoresheet instead") : gettext("Enter our own scoresheet instead")), { "class": "secondary" }) + "</p>");
    }
    // A side-bound phone confirms only the other side's claim.
    statusEl.querySelectorAll("[data-action=confirm]").forEach(function (b) {
      if (SIDE && b.getAttribute("data-side") !== SIDE) b.closest(".claim-actions").remove();
    });
    if ((statusEl.querySelector("#claim-confirmed") || statusEl.querySelector("#claim-conflict")) && st.notice) {
      st.notice = ""; st.entryNotice = ""; save(); renderEntry(); showNet();
    }
    document.body.classList.toggle("has-actions", !!statusEl.querySelector(".claim-actions"));
    // A conflict or a confirmed result is the match's state: the dock's tick about this phone's
    // own sheet steps aside, so that the page says one thing.
    document.body.classList.toggle("has-outcome", !!statusEl.querySelector("#claim-conflict, #claim-confirmed"));
    renderBoard();
    fillClaimDetail();
  });

  window.addEventListener("online", function () {
    pollClock();
    showNet();
    flush();
    if (st.unchecked || (st.hands.length && !st.verdict)) verifyNow();
  });
  window.addEventListener("offline", showNet);

  // Offline reloads: a service worker (scope /t/) keeps this page and its assets. It needs a
  // secure context (https, or localhost); elsewhere the page still keeps the sheet and the
  // outbox, but a reload needs the connection.
  function offlineReady() { document.documentElement.setAttribute("data-offline-ready", "1"); }
  if ("serviceWorker" in navigator && window.isSecureContext && cfg.urls.sw) {
    navigator.serviceWorker.register(cfg.urls.sw, { scope: "/t/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function () { return caches.open("spinner-phone-v1"); })
      .then(function (cache) {
        var assets = [location.pathname, cfg.urls.status];
        document.querySelectorAll("link[rel=stylesheet][href], script[src]").forEach(function (el) {
          assets.push(el.getAttribute("href") || el.getAttribute("src"));
        });
        return cache.addAll(assets);
      })
      .then(offlineReady)
      .catch(function () { /* no offline reload on this browser: the outbox still works */ });
  }

  // The sheet review (phone_sheet_review.js: a disagreement in view, reopening a hand of a sent
  // sheet, the phone's device id) works on this page's state through these few calls.
  window.SpinnerPhone = { cfg: cfg, state: function () { return st; }, changed: changed, act: act,
                          render: renderAll, sheet: buildSheet, finished: finished };

  firstClock();
  setInterval(pollClock, CLOCK_POLL);
  renderAll();
  if (st.hands.length) verifyNow();
  flush();
})();
