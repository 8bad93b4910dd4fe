/* Spinner: the scoresheet entry page at the table (issue 7).
 *
 * What this script does, and what it does not:
 *  - it BUILDS a fives-scoresheet/1 sheet from what the players tap (tally form by default, move
 *    form for a hand where they want it), KEEPS it in localStorage under the table's token (a
 *    reload loses nothing), and RENDERS it;
 *  - it never judges the sheet: every check is the server's engine. The sheet-so-far is posted
 *    (debounced) to the verify endpoint and the verdict is shown: the scores on the board, the
 *    faults in plain words with the engine's own message;
 *  - it SENDS through a small outbox kept in localStorage: each submission gets one
 *    Idempotency-Key when it is made, stored with it, so retries (the "online" event, then a
 *    backoff) deliver it exactly once.
 * Plain JS, no build step.
 */
(function () {
  "use strict";

  var app = document.getElementById("phone-app");
  if (!app) return;
  var cfg = JSON.parse(document.getElementById("phone-config").textContent);
  var KEY = "spinner.sheet." + cfg.token;
  var OUTBOX = "spinner.outbox." + cfg.token;
  var entry = document.getElementById("entry");
  var boardEl = document.getElementById("board");
  var verdictEl = document.getElementById("verdict");
  var netEl = document.getElementById("net-status");
  var N = cfg.players;

  // ---------------------------------------------------------------- state, kept in the browser
  function blank() {
    return { v: 1, hands: [], by: "seat", who: null, finalOnly: false, ending: null,
             verdict: null, settled: {}, pick: null, notice: "" };
  }
  function load() {
    try {
      var s = JSON.parse(localStorage.getItem(KEY));
      if (s && s.v === 1 && Array.isArray(s.hands)) return s;
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
  function shown(raw) {
    var v = raw / cfg.divisor;
    return Math.round(v * 100) / 100;
  }
  function seatLabel(s) {
    var seat = cfg.seats[s];
    return "Seat " + s + (seat && seat.player ? " · " + seat.player : "") + " (" + seat.side + ")";
  }
  function seatShort(s) {
    var seat = cfg.seats[s];
    return (seat && seat.player ? seat.player : "Seat " + s) + " (" + seat.side + ")";
  }
  /** The API numbers sides: 0 is side A (the match's first entry), 1 side B. */
  function sideIndex(letter) { return letter === "B" ? 1 : 0; }
  function entityLabel(e) { return cfg.entities[e].label; }
  function entityOfSeat(s) { return cfg.entity_of[s]; }
  function points(raw) {
    return cfg.divisor === 1 ? raw + " pts" : shown(raw) + (shown(raw) === 1 ? " point" : " points");
  }
  function lastHand() { return st.hands.length ? st.hands[st.hands.length - 1] : null; }

  // ---------------------------------------------------------------- the sheet (built, not judged)
  /** The fives-scoresheet/1 sheet of what has been entered. ``openLast``: leave out the end of
   *  the last hand (to learn the scores before its settlement); ``result``: add the engine's
   *  figures as the claimed result, once it has said the match is over. */
  function buildSheet(opts) {
    opts = opts || {};
    var s = JSON.parse(JSON.stringify(cfg.header));
    s.hands = st.hands.map(function (h, i) {
      var o = { leader: h.leader };
      if (h.form === "moves") o.moves = h.moves.slice(); else o.tally = h.tally.slice();
      var open = opts.openLast && i === st.hands.length - 1;
      if (h.end && !open) {
        o.end = h.end;
        if (h.end === "domino") o.finisher = h.finisher;
        o.remaining = h.remaining.slice();
      }
      return o;
    });
    if (opts.result && st.verdict && !st.unchecked && st.verdict.finished) {
      s.result = { scores: st.verdict.scores.slice(), winner: st.verdict.winner };
    }
    return s;
  }

  // ---------------------------------------------------------------- network
  function post(url, body, headers) {
    // The table link's token is the API credential ("Authorization: Table <token>").
    var h = { "Content-Type": "application/json", "Accept": "application/json",
              "X-CSRFToken": cfg.csrf, "Authorization": "Table " + cfg.token };
    Object.keys(headers || {}).forEach(function (k) { h[k] = headers[k]; });
    return fetch(url, { method: "POST", headers: h, body: JSON.stringify(body),
                        credentials: "same-origin" })
      .then(function (r) {
        return r.text().then(function (t) {
          var data = null;
          try { data = t ? JSON.parse(t) : null; } catch (e) { data = null; }
          return { status: r.status, ok: r.ok, data: data, headers: r.headers };
        });
      });
  }

  function showNet() {
    var pending = outbox().length;
    if (!navigator.onLine) {
      netEl.className = "status-line offline";
      netEl.textContent = "No connection: everything is kept on this phone" +
        (pending ? " and will be sent when the connection returns." : ".");
    } else if (pending) {
      netEl.className = "status-line";
      netEl.textContent = "Sending… (" + pending + " waiting)";
    } else {
      netEl.className = "status-line";
      netEl.textContent = "";
    }
  }

  // ---------------------------------------------------------------- verification (the engine's)
  var PLAIN = {
    format: "Something on the sheet is missing or is not a proper number.",
    tile: "A tile is entered twice, or could not have been in that player's hand.",
    turn: "The wrong player is down here. Play goes clockwise, and whoever dominoed leads the next hand.",
    draw: "A draw or pass breaks the rules: you may draw only when you cannot play, and you stop at the first tile that plays.",
    placement: "That tile cannot go there: it must match an open end, and a spinner's sides open only once both of its ends are covered.",
    score: "A score is wrong: a play scores the total of the ends only when that total is a multiple of five (5, 10, 15…).",
    end: "How the hand ended does not fit: a hand ends when someone plays their last tile (domino) or when nobody can play (blocked).",
    settlement: "The count at the end of the hand does not add up: check the pips left in each hand.",
    result: "The match was already over at this point (the target was reached), so nothing more can be scored."
  };
  function where(err) {
    if (err.hand === null || err.hand === undefined) return "The sheet";
    var h = st.hands[err.hand];
    var text = "Hand " + (err.hand + 1);
    if (err.move !== null && err.move !== undefined) {
      text += (h && h.form === "moves") ? ", turn " + (err.move + 1) : ", score " + (err.move + 1);
    }
    return text;
  }

  var verifySeq = 0;
  var verifyTimer = null;
  function verifySoon() {
    clearTimeout(verifyTimer);
    verifyTimer = setTimeout(verifyNow, 350);
  }
  function callVerify(sheet) {
    return post(cfg.urls.verify, { sheet: sheet }).then(function (res) {
      if (res.status >= 400 && res.status < 500 && res.status !== 429 && res.data && res.data.code) {
        var refused = new Error(res.data.message);
        refused.refused = res.data;
        throw refused;
      }
      if (!res.ok || !res.data) throw new Error("verify " + res.status);
      return res.data.verdict || res.data;
    });
  }
  function verifyNow() {
    clearTimeout(verifyTimer);
    var seq = ++verifySeq;
    if (!st.hands.length) { st.verdict = null; save(); renderAll(); return Promise.resolve(null); }
    verdictEl.classList.add("checking");
    return callVerify(buildSheet()).then(function (v) {
      if (seq !== verifySeq) return v;
      st.verdict = v; st.unchecked = false; st.refused = null; save(); renderAll();
      return v;
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

  function renderVerdict() {
    var v = st.verdict;
    verdictEl.classList.remove("checking");
    if (st.finalOnly || !st.hands.length) { verdictEl.className = "verdict hidden"; return; }
    if (st.refused) {
      verdictEl.className = "verdict bad";
      verdictEl.innerHTML = "<strong>The server cannot check this sheet:</strong> " + esc(st.refused.message) +
        " <span class=\"engine\">(" + esc(st.refused.code) + ")</span>";
      return;
    }
    if (st.unchecked) {
      verdictEl.className = "verdict checking";
      verdictEl.innerHTML = "<strong>Not checked yet.</strong> The sheet is kept on this phone; it is checked as soon as " +
        (navigator.onLine ? "the server answers (trying again)." : "the connection returns.");
      return;
    }
    if (!v) { verdictEl.className = "verdict checking"; verdictEl.textContent = "Checking…"; return; }
    if (v.valid) {
      verdictEl.className = "verdict ok";
      verdictEl.innerHTML = "<strong>✓ Checked by the rules engine:</strong> no mistake so far." +
        (v.finished ? " The match is over." : "");
      return;
    }
    var h = lastHand();
    if (v.errors.length === 1 && v.errors[0].code === "end" && v.errors[0].hand === st.hands.length - 1 &&
        (v.errors[0].move === null || v.errors[0].move === undefined) && h && !h.end) {
      // The engine says the hand in play is over (a seat has played its last tile): not a
      // mistake yet, the next step.
      verdictEl.className = "verdict ok";
      verdictEl.innerHTML = "<strong>The rules engine says this hand is over:</strong> tap “End the hand”. <span class=\"engine\">(" + esc(v.errors[0].message) + ")</span>";
      return;
    }
    verdictEl.className = "verdict bad";
    var items = v.errors.map(function (e) {
      return "<li><span class=\"where\">" + esc(where(e)) + ":</span> " +
        esc(PLAIN[e.code] || "This does not follow the rules.") +
        " <span class=\"engine\">(" + esc(e.code) + ": " + esc(e.message) + ")</span></li>";
    }).join("");
    verdictEl.innerHTML = "<strong>✗ The rules engine found a mistake. Fix it before you submit.</strong><ul>" + items + "</ul>";
  }

  // ---------------------------------------------------------------- the board
  function renderBoard() {
    var scores = (st.verdict && st.verdict.scores && st.verdict.scores.length)
      ? st.verdict.scores : cfg.entities.map(function () { return 0; });
    var goal = Math.ceil(cfg.target / cfg.divisor);
    var html = cfg.entities.map(function (ent, e) {
      var raw = scores[e] || 0;
      var pegged = Math.max(0, Math.min(goal, Math.floor(raw / cfg.divisor)));
      // One hole per displayed point to the target, in groups of five, as on a cribbage board
      // (all-fives: one hole per five raw points).
      var per = cfg.divisor === 1 ? 5 : 1;
      var holes = Math.ceil(goal / per);
      var filled = Math.floor(pegged / per);
      // Rows of twenty holes in groups of five, like the streets of a cribbage board.
      var dots = "";
      var perRow = Math.min(20, holes);
      for (var i = 0; i < holes; i++) {
        var col = i % 20;
        var x = 1 + col * 1.5 + Math.floor(col / 5) * 0.8;
        var y = 1.2 + Math.floor(i / 20) * 1.6;
        var cls = "hole" + (i < filled ? " on-" + ent.side : "") + (i === holes - 1 ? " goal" : "");
        dots += "<circle class=\"" + cls + "\" cx=\"" + x.toFixed(2) + "\" cy=\"" + y.toFixed(2) + "\" r=\"0.55\"/>";
      }
      var width = 1.2 + (perRow - 1) * 1.5 + Math.floor((perRow - 1) / 5) * 0.8 + 1;
      var height = 2.4 + Math.floor((holes - 1) / 20) * 1.6;
      return "<div class=\"row\"><span class=\"name\">" + esc(ent.label) + "</span>" +
        "<span class=\"score\" data-entity=\"" + e + "\" aria-label=\"" + esc(ent.label) + ": " +
        esc(String(shown(raw))) + " of " + goal + "\">" + esc(String(shown(raw))) + "</span>" +
        "<svg class=\"track\" style=\"max-width: " + (width * 0.8).toFixed(1) + "rem\" viewBox=\"0 0 " + width.toFixed(2) + " " + height.toFixed(2) + "\" aria-hidden=\"true\" focusable=\"false\">" +
        dots + "</svg></div>";
    }).join("");
    boardEl.innerHTML = html;
  }

  // ---------------------------------------------------------------- rendering the entry panel
  function btn(action, label, extra) {
    extra = extra || {};
    var attrs = "";
    Object.keys(extra).forEach(function (k) { attrs += " " + k + "=\"" + esc(extra[k]) + "\""; });
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

  function handsSummary() {
    if (!st.hands.length) return "";
    var rows = st.hands.map(function (h, i) {
      // What was entered (as entered: the board shows the engine's figures).
      var sums = cfg.entities.map(function () { return 0; });
      if (h.form === "moves") {
        h.moves.forEach(function (m) { if (m.play) sums[entityOfSeat(m.seat)] += m.score; });
      } else {
        h.tally.forEach(function (t) {
          var e = t.entity !== undefined ? t.entity : entityOfSeat(t.seat);
          if (typeof t.score === "number") sums[e] += t.score;
        });
      }
      var end = !h.end ? "in play" : h.end === "blocked" ? "blocked" : "domino: seat " + h.finisher;
      var settle = st.settled[i] ? st.settled[i].map(function (d) { return shown(d); }).join(" / ") : "";
      return "<tr><td>" + (i + 1) + "</td><td>" + h.leader + "</td><td>" + (h.form === "moves" ? "moves" : "tally") +
        "</td><td>" + sums.map(function (x) { return shown(x); }).join(" / ") + "</td><td>" + esc(end) +
        "</td><td>" + esc(settle) + "</td></tr>";
    }).join("");
    return "<details class=\"hands-summary\"><summary>Hands so far (" + st.hands.length + ")</summary>" +
      "<div class=\"table-wrap\"><table><thead><tr><th>#</th><th>Led</th><th>Form</th><th>Scored " +
      cfg.entities.map(function (e) { return esc(e.side); }).join("/") +
      "</th><th>End</th><th>Settled</th></tr></thead><tbody>" + rows + "</tbody></table></div></details>";
  }

  function finished() { return !!(st.verdict && st.verdict.finished && st.verdict.valid); }

  function renderEntry() {
    var html = "";
    var h = lastHand();
    if (st.notice) html += "<p class=\"muted\" role=\"status\">" + esc(st.notice) + "</p>";
    if (st.finalOnly) {
      html += renderFinalOnly();
    } else if (!h) {
      var drawn = cfg.first_leader;
      html += "<h2>Who leads the first hand?</h2>" + (drawn === null || drawn === undefined
        ? "<p class=\"muted\">Chosen by lot at the table.</p>"
        : "<p id=\"drawn-leader\">Drawn by lot for this round: <strong>" + esc(seatLabel(drawn)) + "</strong>.</p>") +
        "<div class=\"choices\">" + seatButtons("first-leader", null) + "</div>";
      if (cfg.allow_final_only) {
        html += "<p>" + btn("final-only", "Enter the final score only (unverified)", { "class": "secondary" }) + "</p>";
      }
    } else if (finished()) {
      html += renderFinished();
    } else if (!h.end) {
      html += st.ending ? renderEnding(h) : (h.form === "moves" ? renderMoves(h) : renderTally(h));
    } else {
      html += renderBetweenHands(h);
    }
    html += handsSummary();
    if (st.hands.length || st.finalOnly) {
      html += "<p>" + btn("reset", "Start the sheet again", { "class": "secondary" }) + "</p>";
    }
    entry.innerHTML = html;
  }

  function handHead(h) {
    var i = st.hands.length;
    var head = "<h2>Hand " + i + " · " + esc(seatShort(h.leader)) + " led</h2>";
    var empty = !h.tally.length && !h.moves.length;
    if (empty) {
      head += "<p>" + btn("unlead", "Wrong leader? Choose again", { "class": "link" }) + "</p>";
      head += "<div class=\"row-actions\">" +
        btn("form", "Quick tally", { "data-form": "tally", "aria-pressed": h.form !== "moves" ? "true" : "false", "class": "secondary" }) +
        btn("form", "Move by move", { "data-form": "moves", "aria-pressed": h.form === "moves" ? "true" : "false", "class": "secondary" }) +
        "</div>";
    }
    return head;
  }

  function renderTally(h) {
    var html = handHead(h);
    html += "<fieldset><legend>Who scored?</legend><div class=\"row-actions\">" +
      btn("by", "By player", { "data-by": "seat", "aria-pressed": st.by === "seat" ? "true" : "false", "class": "secondary" }) +
      btn("by", "By side", { "data-by": "entity", "aria-pressed": st.by === "entity" ? "true" : "false", "class": "secondary" }) +
      "</div><div class=\"choices\">";
    if (st.by === "entity") {
      cfg.entities.forEach(function (ent, e) {
        html += btn("who", esc(ent.label), { "data-who": e, "class": "seat-btn side-" + ent.side,
          "aria-pressed": st.who === e ? "true" : "false" });
      });
    } else {
      for (var s = 0; s < N; s++) {
        html += btn("who", esc(seatLabel(s)), { "data-who": s, "class": "seat-btn side-" + cfg.seats[s].side,
          "aria-pressed": st.who === s ? "true" : "false" });
      }
    }
    html += "</div></fieldset>";
    html += "<fieldset><legend>Points scored" + (cfg.divisor === 5 ? " (5 pips = 1 point)" : " (pips)") +
      "</legend><div class=\"choices values\">";
    cfg.tally_values.forEach(function (raw) {
      html += btn("tally", esc(String(shown(raw))), { "data-raw": raw, "aria-label": "Score " + points(raw) });
    });
    html += "</div><div class=\"other\"><div><label for=\"other-raw\">Other total, in pips</label>" +
      "<input id=\"other-raw\" type=\"number\" inputmode=\"numeric\" min=\"0\" step=\"1\"></div>" +
      btn("tally-other", "Add") + "</div></fieldset>";
    if (h.tally.length) {
      html += "<h3>This hand</h3><ol class=\"entries\">" + h.tally.map(function (t) {
        var who = t.entity !== undefined ? entityLabel(t.entity) : seatShort(t.seat);
        return "<li>" + esc(who) + ": " + esc(points(t.score)) + "</li>";
      }).join("") + "</ol>";
    }
    html += "<div class=\"row-actions\">" +
      btn("undo", "Undo last", { "class": "secondary", disabled: h.tally.length ? null : "disabled" }) +
      btn("end", "End the hand") + "</div>";
    return html.replace(/ disabled="null"/g, "");
  }

  function renderEnding(h) {
    var e = st.ending;
    var html = "<h2>End of hand " + st.hands.length + "</h2><fieldset><legend>How did it end?</legend><div class=\"choices\">";
    for (var s = 0; s < N; s++) {
      html += btn("end-kind", esc(seatShort(s)) + " dominoed", { "data-kind": "domino", "data-seat": s,
        "class": "seat-btn side-" + cfg.seats[s].side,
        "aria-pressed": e.kind === "domino" && e.finisher === s ? "true" : "false" });
    }
    html += btn("end-kind", "Blocked (nobody can play)", { "data-kind": "blocked",
      "aria-pressed": e.kind === "blocked" ? "true" : "false", "class": "secondary" });
    html += "</div></fieldset>";
    if (e.kind) {
      html += "<fieldset><legend>Pips left in each hand</legend><div class=\"pips\">";
      for (var p = 0; p < N; p++) {
        var fin = e.kind === "domino" && e.finisher === p;
        html += "<div class=\"pip-row\"><label for=\"pips-" + p + "\">" + esc(seatLabel(p)) + "</label>" +
          "<input id=\"pips-" + p + "\" data-pips=\"" + p + "\" type=\"number\" inputmode=\"numeric\" min=\"0\" max=\"168\" step=\"1\" value=\"" +
          (fin ? "0" : (e.pips[p] === undefined || e.pips[p] === null ? "" : esc(e.pips[p]))) + "\"" +
          (fin ? " readonly aria-readonly=\"true\"" : "") + "></div>";
      }
      html += "</div></fieldset>";
    }
    html += "<p class=\"error\" id=\"end-error\" role=\"alert\"></p><div class=\"row-actions\">" +
      btn("end-cancel", "Back", { "class": "secondary" }) +
      btn("settle", "Settle the hand") + "</div>";
    return html;
  }

  function renderBetweenHands(h) {
    var i = st.hands.length - 1;
    var html = "<h2>Hand " + (i + 1) + " settled</h2>";
    var d = st.settled[i];
    if (d) {
      html += "<p id=\"settlement\">Settlement: " + cfg.entities.map(function (ent, e) {
        return esc(ent.label) + " " + (d[e] > 0 ? "+" : "") + esc(String(shown(d[e])));
      }).join(", ") + ".</p>";
    }
    if (st.verdict && !st.verdict.valid) {
      html += "<p>Fix the mistake above: reopen the hand.</p>";
    } else if (h.end === "domino") {
      html += "<p>" + esc(seatShort(h.finisher)) + " dominoed and leads the next hand.</p>" +
        "<div class=\"row-actions\">" + btn("next-hand", "Start hand " + (i + 2), { "data-seat": h.finisher }) + "</div>";
    } else {
      html += "<h3>The hand was blocked: who leads hand " + (i + 2) + "?</h3><p class=\"muted\">Chosen by lot at the table.</p>" +
        "<div class=\"choices\">" + seatButtons("next-hand", null) + "</div>";
    }
    if (st.unchecked) {
      // No connection, so no verdict yet: if the game is over the players may still submit; the
      // sheet is verified when it arrives (an invalid one is kept as a draft, never lost).
      html += submitButtons("Is the game over? You can submit now: the sheet is sent and checked when the connection returns.");
    }
    html += "<div class=\"row-actions\">" + btn("reopen", "Reopen hand " + (i + 1), { "class": "secondary" }) + "</div>";
    return html;
  }

  function submitButtons(intro) {
    if (st.submitted) {
      return "<p class=\"ok\" id=\"submitted\">Submitted as side " + esc(st.submitted.side) +
        (outbox().length ? " (waiting for the connection)." : ".") + "</p>";
    }
    var html = "<p>" + esc(intro) + "</p><div class=\"choices\">";
    cfg.entities.forEach(function (ent) {
      html += btn("submit", "Submit as side " + esc(ent.side), { "data-side": ent.side });
    });
    return html + "</div>";
  }

  function renderFinished() {
    var v = st.verdict;
    var html = "<h2>Match over</h2><p id=\"winner\">" +
      (v.winner === null ? "Drawn match." : esc(cfg.entities[v.winner].label) + " wins, " +
        cfg.entities.map(function (ent, e) { return esc(String(shown(v.scores[e]))); }).join(" to ") + ".") + "</p>";
    html += submitButtons("Which side are you? Submit the sheet; the other side then confirms it.");
    if (!st.submitted) {
      var h = lastHand();
      if (h) html += "<div class=\"row-actions\">" + btn(h.end ? "reopen" : "undo", "Undo the last entry", { "class": "secondary" }) + "</div>";
    }
    return html;
  }

  function renderFinalOnly() {
    var html = "<h2>Final score only</h2><p class=\"unverified\">Marked unverified: the rules engine cannot check a final score.</p><div class=\"pips\">";
    cfg.entities.forEach(function (ent, e) {
      html += "<div class=\"pip-row\"><label for=\"final-" + e + "\">" + esc(ent.label) + (cfg.divisor === 5 ? " (points)" : " (pips)") + "</label>" +
        "<input id=\"final-" + e + "\" data-final=\"" + e + "\" type=\"number\" inputmode=\"numeric\" step=\"1\"></div>";
    });
    html += "</div><p class=\"error\" id=\"final-error\" role=\"alert\"></p>";
    if (st.submitted) {
      html += "<p class=\"ok\">Submitted as side " + esc(st.submitted.side) + ".</p>";
    } else {
      html += "<div class=\"choices\">";
      cfg.entities.forEach(function (ent) {
        html += btn("submit-final", "Submit as side " + esc(ent.side), { "data-side": ent.side });
      });
      html += "</div><div class=\"row-actions\">" + btn("final-off", "Back to the scoresheet", { "class": "secondary" }) + "</div>";
    }
    return html;
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

  function renderMoves(h) {
    var html = handHead(h);
    var seat = nextSeat(h);
    var last = h.moves[h.moves.length - 1];
    var afterDraw = last && last.draw !== undefined;
    html += "<p><strong>" + esc(seatLabel(seat)) + "</strong> to play" + (afterDraw ? " (after drawing " + last.draw + ")" : "") + ".</p>";
    html += "<div id=\"layout\" class=\"layout\">" + (st.pick && st.pick.svg ? st.pick.svg : (st.layoutSvg || "")) + "</div>";
    if (st.pick && st.pick.placements) {
      html += "<fieldset><legend>Where does " + esc(st.pick.tile.replace("-", "|")) + " go?</legend><div class=\"choices\">";
      st.pick.placements.forEach(function (p, k) {
        html += btn("place", (p.on ? "On " + esc(p.on.replace("-", "|")) : "Open the hand") + " → " + esc(points(p.score)),
          { "data-k": k, "aria-pressed": st.pick.chosen === k ? "true" : "false", "class": "secondary" });
      });
      html += "</div>";
      if (!st.pick.placements.length) html += "<p class=\"error\">That tile does not fit anywhere on the table.</p>";
      if (st.pick.chosen !== null && st.pick.chosen !== undefined) {
        var p = st.pick.placements[st.pick.chosen];
        html += "<p id=\"move-score\">The rules engine counts <strong>" + esc(String(p.total)) + "</strong> on the ends: this play scores <strong>" +
          esc(points(p.score)) + "</strong>.</p>" + btn("confirm-move", "Confirm: " + esc(seatShort(seat)) + " scores " + esc(points(p.score)));
      }
      html += "<div class=\"row-actions\">" + btn("pick-cancel", "Another tile", { "class": "secondary" }) + "</div></fieldset>";
    } else {
      var used = onTable(h);
      html += "<fieldset><legend>Which tile did " + esc(seatShort(seat)) + " play?</legend><div class=\"choices tiles\">";
      TILES.forEach(function (t) {
        html += btn("pick", esc(t.replace("-", "|")), { "data-tile": t, "aria-label": "Tile " + t,
          disabled: used[t] ? "disabled" : null });
      });
      html = html.replace(/ disabled="null"/g, "");
      html += "</div></fieldset><div class=\"row-actions\">" +
        btn("draw", afterDraw ? "Drew one more" : "Drew from the boneyard", { "class": "secondary" }) +
        btn("pass", "Passed", { "class": "secondary" }) + "</div>";
    }
    if (h.moves.length) {
      html += "<h3>This hand</h3><ol class=\"entries\">" + h.moves.map(function (m) {
        if (m.play) return "<li>" + esc(seatShort(m.seat)) + ": " + esc(m.play.replace("-", "|")) +
          (m.on ? " on " + esc(m.on.replace("-", "|")) : " to open") + (m.score ? " — " + esc(points(m.score)) : "") + "</li>";
        if (m.draw !== undefined) return "<li>" + esc(seatShort(m.seat)) + ": drew " + m.draw + "</li>";
        return "<li>" + esc(seatShort(m.seat)) + ": passed</li>";
      }).join("") + "</ol>";
    }
    html += "<div class=\"row-actions\">" +
      btn("undo", "Undo last", { "class": "secondary", disabled: h.moves.length ? null : "disabled" }) +
      btn("end", "End the hand") + "</div>";
    return html.replace(/ disabled="null"/g, "");
  }

  function fetchPosition(tile) {
    var h = lastHand();
    var sheet = buildSheet();
    return post(cfg.urls.position, { sheet: sheet, hand: st.hands.length - 1, tile: tile || null })
      .then(function (res) {
        if (!res.ok || !res.data) {
          var msg = res.data && res.data.message ? res.data.message : "The table could not be drawn.";
          throw new Error(msg);
        }
        return res.data;
      }).then(function (data) {
        var svg = drawLayout(data);
        if (tile) {
          st.pick = { tile: tile, placements: data.placements || [], chosen: null, svg: svg };
        } else {
          st.layoutSvg = svg;
        }
        save(); renderAll();
        return h;
      }).catch(function (err) {
        st.notice = navigator.onLine ? String(err.message || err) : "No connection: the table is drawn by the server. Use the quick tally for this hand, or wait for the connection.";
        st.pick = null; save(); renderAll();
      });
  }

  /** The engine's geometry drawn as SVG: tiles on a grid (one unit per half), counted ends as
   *  filled numbers, open ports that are not counted as hollow dots (as seed 000 draws them), and
   *  the chosen tile's legal places as tap targets. */
  function drawLayout(g) {
    if (!g || !g.tiles || !g.tiles.length) {
      var h = lastHand();
      var played = h ? h.moves.filter(function (m) { return m.play; }).length : 0;
      if (!played) return "<p class=\"muted\">The table is empty: the first tile opens the hand.</p>";
      return "<p class=\"muted\">" + played + " tile" + (played === 1 ? "" : "s") +
        " on the table, ends total " + esc(String(g ? g.total : "?")) + " (no drawing available).</p>";
    }
    var pad = 1.2;
    var minx = Infinity, miny = Infinity, maxx = -Infinity, maxy = -Infinity;
    function grow(x, y, w, hh) {
      minx = Math.min(minx, x - w / 2); maxx = Math.max(maxx, x + w / 2);
      miny = Math.min(miny, y - hh / 2); maxy = Math.max(maxy, y + hh / 2);
    }
    g.tiles.forEach(function (t) { grow(t.x, t.y, t.w, t.h); });
    (g.placements || []).forEach(function (p) { if (p.x !== undefined && p.x !== null) grow(p.x, p.y, 1, 1); });
    var vb = [minx - pad, miny - pad, maxx - minx + 2 * pad, maxy - miny + 2 * pad].map(function (n) { return n.toFixed(2); }).join(" ");
    var out = "<svg class=\"table-svg\" viewBox=\"" + vb + "\" role=\"img\" aria-label=\"The table: " + g.tiles.length + " tiles, ends total " + esc(String(g.total)) + "\">";
    g.tiles.forEach(function (t) {
      var x0 = t.x - t.w / 2, y0 = t.y - t.h / 2;
      var horiz = t.w >= t.h;
      out += "<g class=\"tile" + (t.spinner ? " spinner" : "") + "\"><rect x=\"" + x0 + "\" y=\"" + y0 + "\" width=\"" + t.w + "\" height=\"" + t.h + "\" rx=\".12\"/>";
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
      out += "<circle class=\"port\" cx=\"" + p.x + "\" cy=\"" + p.y + "\" r=\".22\"><title>open, not counted</title></circle>";
    });
    (g.counted || []).forEach(function (c) {
      out += "<circle class=\"end-count\" cx=\"" + c.x + "\" cy=\"" + c.y + "\" r=\".3\"/><text class=\"end-count-text\" x=\"" + c.x + "\" y=\"" + c.y + "\">" + c.value + "</text>";
    });
    (g.placements || []).forEach(function (p, k) {
      if (p.x === undefined || p.x === null) return;
      out += "<rect class=\"target\" tabindex=\"0\" role=\"button\" data-action=\"place\" data-k=\"" + k + "\" aria-label=\"Place on " + esc(p.on || "the table") + "\" x=\"" + (p.x - .5) + "\" y=\"" + (p.y - .5) + "\" width=\"1\" height=\"1\" rx=\".15\"/>";
    });
    return out + "</svg>";
  }

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
  function flush() {
    clearTimeout(retryTimer);
    if (flushing) return;
    var items = outbox();
    if (!items.length) { showNet(); return; }
    flushing = true;
    var item = items[0];
    var headers = { "Idempotency-Key": item.key };
    if (item.ifMatch !== undefined && item.ifMatch !== null) headers["If-Match"] = String(item.ifMatch);
    post(item.url, item.body, headers).then(function (res) {
      if (res.status >= 500 || res.status === 429 || res.status === 0) throw new Error("retry " + res.status);
      // Delivered (2xx) or refused for good (4xx): either way it leaves the outbox.
      setOutbox(outbox().filter(function (x) { return x.key !== item.key; }));
      flushing = false;
      delivered(item, res);
      flush();
    }).catch(function () {
      flushing = false;
      var left = outbox();
      left.forEach(function (x) { if (x.key === item.key) x.attempts = (x.attempts || 0) + 1; });
      setOutbox(left);
      var n = 1;
      left.forEach(function (x) { if (x.key === item.key) n = x.attempts; });
      var delay = Math.min(30000, 1000 * Math.pow(2, Math.min(n, 5)));
      retryTimer = setTimeout(flush, delay);
    });
  }
  function delivered(item, res) {
    if (res.ok) {
      var claim = res.data && res.data.claim ? res.data.claim : null;
      if (item.kind === "submit") st.submitted = { side: item.side, claim: claim ? claim.id : null };
      if (item.kind === "confirm") st.notice = "Confirmed.";
      else if (claim && claim.status === "draft") {
        st.notice = "Sent, but kept as a draft: the rules engine found a mistake or the game is not over. Fix it and submit again.";
        st.submitted = null;
      } else st.notice = "Sent: the other side now confirms it.";
    } else {
      var d = res.data || {};
      st.notice = "Not accepted: " + (d.message || ("error " + res.status)) + (d.code ? " (" + d.code + ")" : "");
      if (item.kind === "submit") st.submitted = null;
    }
    save(); renderAll();
    document.body.dispatchEvent(new CustomEvent("spinner:refresh"));
  }

  // ---------------------------------------------------------------- actions
  function newHand(leader) {
    st.hands.push({ leader: leader, form: "tally", tally: [], moves: [], end: null, finisher: null, remaining: null });
    st.who = null; st.ending = null; st.pick = null; st.layoutSvg = ""; st.notice = "";
  }
  function changed() { save(); renderAll(); verifySoon(); }

  function readPips() {
    var e = st.ending;
    var pips = [];
    var bad = false;
    for (var s = 0; s < N; s++) {
      if (e.kind === "domino" && e.finisher === s) { pips.push(0); continue; }
      var input = entry.querySelector("[data-pips=\"" + s + "\"]");
      var raw = input ? input.value.trim() : "";
      if (!/^\d+$/.test(raw)) { bad = true; pips.push(null); } else pips.push(parseInt(raw, 10));
    }
    return bad ? null : pips;
  }

  function settle() {
    var h = lastHand();
    var e = st.ending;
    var err = document.getElementById("end-error");
    if (!e.kind) { err.textContent = "Say how the hand ended."; return; }
    var pips = readPips();
    if (!pips) { err.textContent = "Enter the pips left in every hand (0 if none)."; return; }
    h.end = e.kind; h.finisher = e.kind === "domino" ? e.finisher : null; h.remaining = pips;
    st.ending = null;
    save(); renderAll();
    var i = st.hands.length - 1;
    // The settlement is the engine's: the scores with the hand settled less the scores before.
    Promise.all([callVerify(buildSheet({ openLast: true })), verifyNow()]).then(function (vs) {
      var before = vs[0], after = vs[1];
      if (before && after && before.scores && after.scores && before.scores.length === after.scores.length) {
        st.settled[i] = after.scores.map(function (x, k) { return x - before.scores[k]; });
        save(); renderAll();
      }
    }).catch(function () { /* offline: shown once checked */ });
  }

  function act(el) {
    var a = el.getAttribute("data-action");
    var h = lastHand();
    var seat = el.hasAttribute("data-seat") ? parseInt(el.getAttribute("data-seat"), 10) : null;
    switch (a) {
      case "first-leader": newHand(seat); changed(); break;
      case "next-hand": newHand(seat); changed(); break;
      case "form":
        h.form = el.getAttribute("data-form"); st.pick = null; changed();
        if (h.form === "moves") fetchPosition(null);
        break;
      case "by": st.by = el.getAttribute("data-by"); st.who = null; save(); renderAll(); break;
      case "who": st.who = parseInt(el.getAttribute("data-who"), 10); st.notice = ""; save(); renderAll(); break;
      case "tally":
      case "tally-other": {
        var raw;
        if (a === "tally") raw = parseInt(el.getAttribute("data-raw"), 10);
        else {
          var v = document.getElementById("other-raw").value.trim();
          if (!/^-?\d+$/.test(v)) { st.notice = "Type the total in pips, e.g. 40."; save(); renderAll(); return; }
          raw = parseInt(v, 10);
        }
        if (st.who === null || st.who === undefined) { st.notice = "First tap who scored."; save(); renderAll(); return; }
        var t = st.by === "entity" ? { entity: st.who, score: raw } : { seat: st.who, score: raw };
        h.tally.push(t); st.notice = ""; changed();
        break;
      }
      case "undo":
        if (h.form === "moves") { h.moves.pop(); st.pick = null; fetchPosition(null); }
        else h.tally.pop();
        changed();
        break;
      case "end": st.ending = { kind: null, finisher: null, pips: {} }; st.pick = null; save(); renderAll(); break;
      case "end-kind": {
        var keep = {};
        for (var s = 0; s < N; s++) {
          var input = entry.querySelector("[data-pips=\"" + s + "\"]");
          if (input) keep[s] = input.value;
        }
        st.ending = { kind: el.getAttribute("data-kind"), finisher: seat, pips: keep };
        save(); renderAll();
        var first = entry.querySelector("[data-pips]:not([readonly])");
        if (first) first.focus();
        break;
      }
      case "end-cancel": st.ending = null; save(); renderAll(); break;
      case "settle": settle(); break;
      case "reopen":
        h.end = null; h.finisher = null; h.remaining = null;
        delete st.settled[st.hands.length - 1];
        st.submitted = null; changed();
        break;
      case "pick": fetchPosition(el.getAttribute("data-tile")); break;
      case "pick-cancel": st.pick = null; save(); renderAll(); break;
      case "place": st.pick.chosen = parseInt(el.getAttribute("data-k"), 10); save(); renderAll(); break;
      case "confirm-move": {
        var p = st.pick.placements[st.pick.chosen];
        var m = { seat: nextSeat(h), play: st.pick.tile, score: p.score };
        if (p.on) m.on = p.on;
        h.moves.push(m); st.pick = null; changed(); fetchPosition(null);
        break;
      }
      case "draw": {
        var ns = nextSeat(h);
        var last = h.moves[h.moves.length - 1];
        if (last && last.draw !== undefined && last.seat === ns) last.draw += 1;
        else h.moves.push({ seat: ns, draw: 1 });
        changed();
        break;
      }
      case "pass": h.moves.push({ seat: nextSeat(h), pass: true }); changed(); break;
      case "submit":
        enqueue({ kind: "submit", side: el.getAttribute("data-side"), url: cfg.urls.submit,
                  ifMatch: claimVersion(el.getAttribute("data-side")),
                  body: { side: sideIndex(el.getAttribute("data-side")), sheet: buildSheet({ result: true }) } });
        st.submitted = { side: el.getAttribute("data-side"), claim: null };
        save(); renderAll();
        break;
      case "final-only": st.finalOnly = true; save(); renderAll(); break;
      case "final-off": st.finalOnly = false; save(); renderAll(); break;
      case "submit-final": {
        var scores = [];
        var ok = true;
        cfg.entities.forEach(function (ent, e) {
          var val = entry.querySelector("[data-final=\"" + e + "\"]").value.trim();
          if (!/^-?\d+$/.test(val)) ok = false;
          scores.push(parseInt(val, 10) * cfg.divisor);
        });
        if (!ok) { document.getElementById("final-error").textContent = "Enter both final scores."; return; }
        var side = el.getAttribute("data-side");
        enqueue({ kind: "submit", side: side, url: cfg.urls.submit, ifMatch: claimVersion(side),
                  body: { side: sideIndex(side), final_score: { scores: scores } } });
        st.submitted = { side: side, claim: null }; save(); renderAll();
        break;
      }
      case "confirm": {
        enqueue({ kind: "confirm", side: el.getAttribute("data-side"), url: el.getAttribute("data-url"),
                  ifMatch: el.getAttribute("data-version"),
                  body: { side: sideIndex(el.getAttribute("data-side")) } });
        el.disabled = true;
        el.textContent = "Confirming…";
        break;
      }
      case "unlead":
        // Only an empty hand: its leader was chosen by mistake.
        if (h && !h.tally.length && !h.moves.length && !h.end) { st.hands.pop(); st.pick = null; changed(); }
        break;
      case "show-entry":
        st.showEntry = true; save(); entry.classList.remove("hidden");
        var t = document.getElementById("show-entry");
        if (t) t.remove();
        break;
      case "reset":
        if (window.confirm("Clear this scoresheet on this phone?")) { st = blank(); save(); renderAll(); }
        break;
      default: return;
    }
  }

  app.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-action]");
    if (!el || el.disabled) return;
    ev.preventDefault();
    act(el);
  });
  app.addEventListener("keydown", function (ev) {
    var el = ev.target.closest("svg [data-action]");
    if (el && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); act(el); }
  });

  function renderAll() {
    renderBoard();
    renderVerdict();
    renderEntry();
    showNet();
  }

  // The claim status (htmx swaps it in): on a phone that has entered nothing, a claim to
  // confirm or a confirmed result is what matters, so the empty entry panel steps aside.
  var statusEl = document.getElementById("claim-status");
  document.body.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.target !== statusEl) return;
    var claimShown = !!statusEl.querySelector(".claim");
    var idle = !st.hands.length && !st.finalOnly;
    entry.classList.toggle("hidden", claimShown && idle && !st.showEntry);
    var toggle = document.getElementById("show-entry");
    if (claimShown && idle && !st.showEntry && !toggle) {
      statusEl.insertAdjacentHTML("beforeend", "<p id=\"show-entry\">" +
        btn("show-entry", "Enter our own scoresheet instead", { "class": "secondary" }) + "</p>");
    }
    if (statusEl.querySelector("#claim-confirmed") && st.notice) { st.notice = ""; save(); renderEntry(); }
  });

  window.addEventListener("online", function () {
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

  renderAll();
  if (st.hands.length) verifyNow();
  flush();
})();
