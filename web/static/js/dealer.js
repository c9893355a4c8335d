/* Dealer tablet: table view, action entry, alerts, device status.
 * Hole cards are secrets: this page never draws a hole card, whatever the
 * snapshot holds; seats only ever show card backs. */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };

  var token = "";
  var view = null;
  var amount = null;        // chosen "raise to" total
  var amountFor = null;     // the decision point the amount belongs to
  var busy = false;

  /* ---------- posting ---------- */

  function post(obs, okText) {
    // One entry at a time, so a double tap is not entered twice; a tap while the last entry is
    // still on its way is said to be dropped, never dropped silently.
    if (busy) { say("Still sending the last entry: tap again", "bad"); return Promise.resolve(); }
    busy = true;
    document.body.classList.add("busy");
    obs.source = obs.source || "tablet";
    return DP.api("POST", DP.API + "/observations", token, obs).then(function () {
      say(okText || "", "ok");
      if (conn) conn.refresh();
    }, function (err) {
      say(noCards(err.message || "Refused"), "bad");
      if (err.status === 401 || err.status === 403) refusedToken(err);
    }).then(function () {
      busy = false;
      document.body.classList.remove("busy");
    });
  }

  // A refusal or a notice may name a card (a hole card or a burn during a hand): the tablet never
  // repeats one. A card code is a rank (2-9, T, J, Q, K, A or 10) and a suit: "Kd", "10h", "QS";
  // words such as "as" or "ad" are not cards (a rank is a capital).
  function noCards(text) {
    return String(text).replace(/\b(10|[2-9TJQKA])[cdhsCDHS]\b/g, "a card");
  }

  function say(text, kind) {
    var m = $("msg");
    m.textContent = text;
    m.className = "msg " + (kind || "");
  }

  /* ---------- amounts ---------- */

  function num(v) {
    if (v === null || v === undefined || v === "") return null;
    var n = Number(v);
    return isFinite(n) ? n : null;
  }

  // The pot a pot-sized raise is measured on: the chips collected in the
  // middle, the bets in front of the players, and the call (BET-PL-MAX wording).
  function sizingPot(v) {
    var pot = num(v.sizingPot);
    if (pot === null) pot = (v.collected || 0) + (v.betsOut || 0);
    return pot + (num(v.toCall) || 0);
  }

  function quick(size, v) {
    var minTo = num(v.minTo), maxTo = num(v.maxTo);
    var cur = num(v.currentBet) || 0;
    var target;
    if (size === "min") target = minTo;
    else {
      var frac = size === "half" ? 0.5 : 1;
      target = cur + Math.floor(sizingPot(v) * frac);
    }
    if (target === null) return null;
    if (minTo !== null) target = Math.max(target, minTo);
    if (maxTo !== null) target = Math.min(target, maxTo);
    return target;
  }

  function amountProblem(a, v) {
    var minTo = num(v.minTo), maxTo = num(v.maxTo);
    if (a === null || a === undefined) return "Choose an amount";
    if (minTo !== null && a < minTo && !(maxTo !== null && a === maxTo)) return "Below the minimum " + DP.chips(minTo) + " (BET-NL-MIN)";
    if (maxTo !== null && a > maxTo) return "Above the maximum " + DP.chips(maxTo);
    return "";
  }

  /* ---------- drawing ---------- */

  function render(v) {
    view = v;
    $("table-name").textContent = v.tableName || $("table-name").textContent;
    $("hand-no").textContent = v.handNo === null ? "–" : v.handNo;
    $("phase").textContent = v.stage;
    // the blinds of the hand being dealt; the tournament clock's level may change them from the next hand
    var blinds = v.smallBlind !== null && v.bigBlind !== null ? "Blinds " + DP.chips(v.smallBlind) + " / " + DP.chips(v.bigBlind) : "Blinds –";
    if (v.ante) blinds += " · Ante " + DP.chips(v.ante);
    $("blinds").textContent = blinds;
    renderDevices(v.devices || {});
    renderAlerts(v.alerts);
    renderProcedures((v.root && v.root.procedures) || []);
    renderTable(v);
    renderPanel(v);
    if (!clock) setClock(v.clock);
    refreshClock();  // a snapshot's clock may be minutes old: ask for the clock as it is now
    renderFloor((v.raw || {}).floor || null);
  }

  /* ---------- the floor (tournament orders, hand-for-hand, deck change) ---------- */

  function renderFloor(f) {
    var box = $("floor");
    box.hidden = !f;
    if (!f) return;
    var link = f.link || {};
    $("floor-link").textContent = link.connected ? "connected" : "offline (the table plays on; the floor catches up)";
    $("floor-link").className = "floor-link " + (link.connected ? "ok" : "down");
    var h = f.hand_for_hand || {};
    var h4h = $("floor-h4h");
    h4h.hidden = !h.active;
    if (h.active) {
      var others = (h.playing || []).filter(function (t) { return t !== f.table; });
      h4h.textContent = "Hand for hand: " + (h.may_deal ? "deal your hand" :
        others.length ? "wait, still playing: " + others.join(", ") : "wait for the next round");
      h4h.className = "floor-h4h " + (h.may_deal ? "go" : "wait");
    }
    var deck = f.deck_change;
    $("floor-deck").hidden = !deck;
    if (deck) $("floor-deck-text").textContent = "New deck (TABLE-DECK-CHANGE): " + deck.reason +
      ". Register it with the shoe and the camera before the next hand.";
    fillList($("floor-orders"), (f.orders || []).map(function (o) {
      return { text: o.text + (o.state === "waiting" ? " (sits out this hand)" : o.state === "next hand" ? " (after this hand)" : ""), cls: "order" };
    }).concat((f.notes || []).map(function (n) { return { text: n, cls: "note" }; })));
    fillList($("floor-recent"), (f.recent || []).slice(0, 3).map(function (r) {
      return { text: "Done: " + r.text + (r.refused ? " (refused: " + r.refused + ")" : ""), cls: "done" };
    }));
  }

  function fillList(ul, items) {
    ul.textContent = "";
    items.forEach(function (it) { ul.appendChild(DP.el("li", it.cls, it.text)); });
  }

  function deckRegistered() {
    DP.api("POST", DP.API + "/floor/deck-registered", token, {}).then(function () {
      say("New deck registered", "ok");
      if (conn) conn.refresh();
    }, function (err) { say(err.message || "Refused", "bad"); });
  }

  function devState(el, state, text) {
    el.dataset.state = state;
    el.querySelector("b").textContent = text;
  }

  function renderDevices(d) {
    var shoe = d.shoe || {};
    if (typeof shoe === "string") shoe = { state: shoe };
    var shoeState = String(DP.pick(shoe, ["state", "status", "connection"], shoe.connected === true ? "connected" : shoe.connected === false ? "disconnected" : "none"));
    var shoeOk = /^(connected|ok|ready|live)$/i.test(shoeState);
    var shoeOff = /^(none|off|disabled|absent)$/i.test(shoeState);
    devState($("dev-shoe"), shoeOk ? "ok" : shoeOff ? "off" : "bad", shoeState);

    var cam = d.camera || {};
    if (typeof cam === "string") cam = { state: cam };
    // The live frame rate is the vision's: the frames it looks at (a camera it cannot keep up with drops the rest).
    var fps = num(cam.vision_fps !== undefined ? cam.vision_fps : DP.pick(cam, ["fps", "frames_per_second"], null));
    var camState = String(DP.pick(cam, ["state", "status"], fps !== null ? "running" : "none"));
    var camOff = /^(none|off|disabled|absent)$/i.test(camState) || /^(none|)$/i.test(String(DP.pick(cam, ["source"], "x")));
    if (camOff && !/^(none|off|disabled|absent)$/i.test(camState)) camState = "none";
    // A camera that runs but cannot see the face-down cards is no more use than a stalled one.
    var blind = !camOff && typeof cam.picture === "string" && cam.picture !== "ok";
    devState($("dev-camera"), camOff ? "off" : fps !== null && fps > 0 && !blind ? "ok" : "bad",
      camOff ? camState : blind ? cam.picture : (fps !== null ? fps.toFixed(1) + " fps" : camState));
    $("dev-camera").title = camOff ? "" : (blind && cam.picture_detail ? cam.picture_detail + ". " : "") +
      (cam.source || "camera") + ": camera " + (num(cam.fps) || 0).toFixed(1) +
      " fps, vision " + (num(cam.vision_fps) || 0).toFixed(1) + " fps, " + (cam.dropped || 0) + " frames dropped";

    var cal = DP.pick(d, ["calibration"], null) || DP.pick(cam, ["calibration", "calibrated"], null);
    if (cal && typeof cal === "object") cal = DP.pick(cal, ["state", "status"], "unknown");
    if (cal === true) cal = "ok";
    if (cal === false) cal = "needed";
    cal = cal === null ? (camOff ? "n/a" : "unknown") : String(cal);
    devState($("dev-calibration"), /^(n\/a|none|off)$/i.test(cal) ? "off" : /(fail|moved|need|lost|error|unknown)/i.test(cal) ? "bad" : "ok", cal);
  }

  var OPEN = /^(open|pending|new|active|raised|undecided|)$/i;

  function renderAlerts(alerts) {
    var box = $("alerts");
    box.textContent = "";
    var open = alerts.filter(function (a) { return OPEN.test(String(a.status || "")); });
    $("alerts-count").hidden = open.length < 2;
    $("alerts-count").textContent = open.length + " open alerts, oldest first";
    open.forEach(function (a) {
      var verdict = String(a.verdict || "information").toLowerCase();
      var card = DP.el("article", "alert v-" + verdict);
      card.dataset.alertId = a.id;
      card.dataset.rule = a.rule;
      var head = DP.el("div", "alert-head");
      head.appendChild(DP.el("span", "verdict", verdict));
      head.appendChild(ruleButton(a.rule));
      if (a.message) head.appendChild(DP.el("span", "alert-msg", a.message));
      card.appendChild(head);
      if (a.remedy) {
        var r = DP.el("p", "remedy");
        r.appendChild(DP.el("b", null, "Remedy: "));
        r.appendChild(document.createTextNode(a.remedy));
        card.appendChild(r);
      }
      var btns = DP.el("div", "alert-btns");
      var ok = DP.el("button", "alert-btn confirm", "Confirm");
      ok.type = "button";
      ok.onclick = function () { post({ type: "decision", alert_id: a.id, decision: "confirm" }, a.rule + " confirmed"); };
      var no = DP.el("button", "alert-btn dismiss", "Dismiss");
      no.type = "button";
      no.onclick = function () { post({ type: "decision", alert_id: a.id, decision: "dismiss" }, a.rule + " dismissed"); };
      btns.appendChild(ok);
      btns.appendChild(no);
      card.appendChild(btns);
      box.appendChild(card);
    });
    document.body.classList.toggle("has-alerts", box.childElementCount > 0);
    var notices = $("notices");
    if (notices.scrollHeight > notices.clientHeight) $("alerts-count").textContent += " · scroll for more";
  }

  // Corrections the monitor is tracking to their end (e.g. the exposed card
  // coming back as the burn under Robert's rules).
  var PROCEDURES = {
    "replace-exposed": "the exposed card is replaced after the deal and becomes the burn",
    "extra-to-burn": "the extra card goes back on top and becomes the burn",
    "redeal-street": "take the cards back, reshuffle, burn and deal the street again",
    "turn-early": "the early turn is out of play; burn and turn after the betting",
    "river-early": "reshuffle and deal the river after the betting"
  };

  function renderProcedures(procs) {
    var box = $("procedures");
    box.textContent = "";
    procs.forEach(function (p) {
      var line = DP.el("div", "procedure");
      line.dataset.rule = p.rule || "";
      line.appendChild(DP.el("span", "proc-tag", "In progress"));
      if (p.rule) line.appendChild(ruleButton(p.rule));
      line.appendChild(DP.el("span", null, PROCEDURES[p.kind] || String(p.kind || "")));
      box.appendChild(line);
    });
  }

  // Seats around an oval, as the dealer sees the table: seat 1 on the
  // dealer's left, clockwise to the last seat on the dealer's right.
  function seatCount(v) {
    var n = num(v.raw && v.raw.table && v.raw.table.seats);
    var hi = v.seats.reduce(function (m, s) { return Math.max(m, s.seat); }, 0);
    return Math.max(n || 0, hi, 2);
  }

  function renderTable(v) {
    var board = $("board");
    board.textContent = "";
    for (var i = 0; i < 5; i++) {
      board.appendChild(v.board[i] ? DP.cardEl(v.board[i], "md") : DP.cardSlot("md"));
    }
    var pot = $("pot");
    pot.textContent = "";
    if (v.awards.length) {
      v.awards.forEach(function (w) {
        var who = w.shares.map(function (x) { return DP.seatName(v, x.seat) + " " + DP.chips(x.amount); }).join(", ");
        var t = DP.el("span", "pot-award", (w.pot ? "Side pot " + w.pot : "Main pot") + " → " + who);
        if (w.description) t.title = w.description;
        pot.appendChild(t);
      });
    } else {
      var pots = v.pots.filter(function (p) { return Number(p.amount) > 0; });
      pot.appendChild(DP.el("span", "pot-main", "Pot " + DP.chips(v.potTotal || 0)));
      if (pots.length > 1) {
        var subs = DP.el("div", "pot-subs");
        pots.forEach(function (p, i) { subs.appendChild(DP.el("span", i ? "pot-side" : "pot-sub", p.name + " " + DP.chips(p.amount))); });
        pot.appendChild(subs);
      }
    }

    var seats = $("seats");
    seats.textContent = "";
    var n = seatCount(v);
    var bySeat = {};
    v.seats.forEach(function (s) { bySeat[s.seat] = s; });
    var gap = 26;
    for (var k = 1; k <= n; k++) {
      var s = bySeat[k];
      var ang = (90 + gap + (360 - 2 * gap) * (k - 1) / Math.max(1, n - 1)) * Math.PI / 180;
      var x = 50 + 40 * Math.cos(ang), y = 50 + 40 * Math.sin(ang);
      var box = DP.el("div", "seat");
      box.style.left = x + "%";
      box.style.top = y + "%";
      box.dataset.seat = k;
      if (!s || !s.name && s.stack === null) {
        box.classList.add("empty");
        box.appendChild(DP.el("div", "seat-no", k));
        box.appendChild(DP.el("div", "seat-name", "empty"));
        seats.appendChild(box);
        continue;
      }
      if (s.folded) box.classList.add("folded");
      if (s.allIn) box.classList.add("allin");
      if (s.sittingOut) box.classList.add("out");
      if (v.toAct === k && v.inProgress) box.classList.add("to-act");
      var top = DP.el("div", "seat-top");
      if (s.name) top.appendChild(DP.el("span", "seat-no", k));
      if (v.button === k) top.appendChild(DP.el("span", "badge btn", "D"));
      if (v.sbSeat === k) top.appendChild(DP.el("span", "badge sb", "SB"));
      if (v.bbSeat === k) top.appendChild(DP.el("span", "badge bb", "BB"));
      box.appendChild(top);
      box.appendChild(DP.el("div", "seat-name", s.name || "Seat " + k));
      box.appendChild(DP.el("div", "seat-stack num", DP.chips(s.stack)));
      var state = s.sittingOut ? "out" : s.folded ? "folded" : s.allIn ? "all-in" : (s.lastAction || "");
      box.appendChild(DP.el("div", "seat-state", state));
      // Face-down backs only: never the card identities (hole cards are secret here).
      if (v.inProgress && !s.folded && s.inHand !== false) {
        var backs = DP.el("div", "seat-backs");
        // as many backs as cards lie at the seat: none before the deal, one mid-deal, three when a
        // seat got an extra card (DEAL-HOLE-COUNT)
        var count = num(s.holeCount);
        if (count === null) count = s.hole.length || 2;
        for (var c = 0; c < Math.min(count, 4); c++) backs.appendChild(DP.cardEl(null, "xs"));
        box.appendChild(backs);
      }
      if (Number(s.bet) > 0) {
        var bet = DP.el("div", "seat-bet num", DP.chips(s.bet));
        // the bet sits between the seat and the middle of the felt
        bet.style.left = (50 + 27 * Math.cos(ang)) + "%";
        bet.style.top = (50 + 22 * Math.sin(ang)) + "%";
        bet.dataset.seat = k;
        seats.appendChild(bet);
      }
      if (s.won) box.appendChild(DP.el("div", "seat-won num", "+" + DP.chips(s.won)));
      seats.appendChild(box);
    }
  }

  function can(v, action) {
    if (!v.inProgress || v.toAct === null) return false;
    if (v.legal.length) {
      if (action === "raise") return v.legal.indexOf("raise") >= 0 || v.legal.indexOf("bet") >= 0;
      if (action === "all-in") return v.legal.indexOf("all-in") >= 0 || v.legal.indexOf("all_in") >= 0;
      return v.legal.indexOf(action) >= 0;
    }
    var toCall = num(v.toCall) || 0;
    if (action === "check") return toCall === 0;
    if (action === "call") return toCall > 0;
    return true;
  }

  function renderPanel(v) {
    var acting = v.inProgress && v.toAct !== null;
    var actor = v.seats.filter(function (s) { return s.seat === v.toAct; })[0];
    var waiting = !!(v.raw && v.raw.awaiting_setup);
    // While the hole cards are dealt nobody acts; with no card sensor the dealer says when they are out.
    var holeDeal = v.inProgress && /dealing/i.test(v.status) && /preflop/i.test(v.phase);
    $("cards-out").hidden = !holeDeal;
    $("no-table").hidden = !waiting;
    var idle = waiting ? "No table yet" : !v.inProgress ? "Between hands" : /showdown/i.test(v.status) ? "Showdown: hands up" :
      holeDeal ? "Dealing hole cards…" : /deal/i.test(v.status) ? "Dealing…" : "–";
    $("turn-name").textContent = acting ? "Seat " + v.toAct + (actor && actor.name ? " · " + actor.name : "") : idle;
    $("to-call").textContent = acting && v.toCall !== null ? DP.chips(v.toCall) : "–";
    $("min-to").textContent = acting && v.minTo !== null ? DP.chips(v.minTo) : "–";
    $("max-to").textContent = acting && v.maxTo !== null ? DP.chips(v.maxTo) : "–";

    var betting = can(v, "raise");
    var isBet = v.isBet !== null ? v.isBet : (num(v.currentBet) || 0) === 0 && v.legal.indexOf("raise") < 0;
    var word = isBet ? "Bet" : "Raise to";
    $("raise-word").textContent = acting ? word : "Bet / raise";
    $("amount-label").textContent = acting ? word : "Amount";
    $("new-hand").classList.toggle("next", !v.inProgress);
    $("keypad-label").textContent = word;

    var point = [v.handNo, v.phase, v.toAct, v.minTo, v.maxTo].join("|");
    if (point !== amountFor) { amountFor = point; amount = betting ? quick("min", v) : null; }
    showAmount();

    document.querySelectorAll(".act[data-action]").forEach(function (b) {
      b.disabled = !can(v, b.dataset.action);
    });
    document.querySelectorAll(".size, #keypad-open").forEach(function (b) { b.disabled = !betting; });
    $("call-amt").textContent = can(v, "call") && v.toCall ? DP.chips(v.toCall) : "";
    var me = null;
    v.seats.forEach(function (s) { if (s.seat === v.toAct) me = s; });
    var allInTo = v.allInTo !== null && v.allInTo !== undefined ? v.allInTo : (me && me.stack !== null ? (num(me.stack) || 0) + (num(me.bet) || 0) : null);
    $("allin-amt").textContent = acting && allInTo !== null ? DP.chips(allInTo) : "";
    $("undo").disabled = false;
    $("chips-open").disabled = !acting;
    // A hand is killed only while the betting is live (not while the cards are dealt, nor at the showdown).
    var live = killable(v);
    $("kill-open").disabled = !live;
    $("award-open").hidden = !awardable(v);
    if (!$("award").hidden && !awardable(v)) $("award").hidden = true;
    if (!$("kill").hidden) {
      if (live) fillKillSeats(v);
      else $("kill").hidden = true;
    }
    if (!$("chips").hidden && $("chips-second").checked) fillSecondSeats(v);
  }

  function showAmount() {
    var v = view;
    var out = $("amount");
    var raiseBtn = $("raise-btn");
    if (!v || amount === null || !can(v, "raise")) {
      out.textContent = "–";
      $("raise-amt").textContent = "";
      return;
    }
    out.textContent = DP.chips(amount);
    $("raise-amt").textContent = DP.chips(amount);
    var problem = amountProblem(amount, v);
    out.classList.toggle("bad", !!problem);
    raiseBtn.disabled = !!problem;
    if (problem) say(problem, "bad");
  }

  /* ---------- rules: an ID opens its text from the catalogue ---------- */

  function ruleButton(id) {
    var b = DP.el("button", "rule rule-link", id);
    b.type = "button";
    b.dataset.rule = id;
    b.title = "What " + id + " says";
    b.addEventListener("click", function () { openRule(id); });
    return b;
  }

  var rules = {};           // rule ID -> the catalogue's entry, once fetched

  function showRule(r) {
    $("rule-family").textContent = r.family || "";
    $("rule-text").textContent = r.text || "";
    var list = $("rule-sources");
    list.textContent = "";
    (r.sources || []).forEach(function (src) {
      var li = DP.el("li");
      li.appendChild(DP.el("b", null, src.ref));
      if (src.title) li.appendChild(document.createTextNode(" · " + src.title));
      list.appendChild(li);
    });
  }

  function openRule(id) {
    $("rule-id").textContent = id;
    $("rule-family").textContent = "";
    $("rule-text").textContent = "Looking it up…";
    $("rule-sources").textContent = "";
    $("rule-more").href = "/rules#" + encodeURIComponent(id);
    $("rule-sheet").hidden = false;
    var got = rules[id] ? Promise.resolve(rules[id]) : DP.api("GET", DP.API + "/rules/" + encodeURIComponent(id), token);
    got.then(function (r) {
      rules[id] = r;
      if ($("rule-id").textContent === id) showRule(r);
    }, function (err) {
      if ($("rule-id").textContent === id) $("rule-text").textContent = err.message || "This rule could not be looked up";
    });
  }

  /* ---------- the shot clock (BET-CLOCK) and the tournament clock's level (TABLE-LEVELS) ---------- */

  var clock = null;         // /api/clock as last received
  var clockAt = 0;          // when it was received (Date.now())
  var clockAsked = 0;
  var clockTimer = null;

  function setClock(c) {
    if (!c || typeof c !== "object") return;
    if (clock && Number(c.server_time_ms) < Number(clock.server_time_ms)) return;  // a late, older answer
    clock = c;
    clockAt = Date.now();
    drawClock();
  }

  // At most one request a second, however many snapshots arrive.
  function refreshClock() {
    if (clockTimer) return;
    clockTimer = setTimeout(function () {
      clockTimer = null;
      clockAsked = Date.now();
      DP.api("GET", DP.API + "/clock", token).then(setClock, function () { /* the next snapshot asks again */ });
    }, Math.max(0, 1000 - (Date.now() - clockAsked)));
  }

  function since(ms) { return Math.max(0, Number(ms) - (Date.now() - clockAt)); }

  function drawClock() {
    drawShot();
    drawLevel();
  }

  function drawShot() {
    var shot = clock && clock.shot_clock;
    var el = $("shot");
    $("shot-clock").textContent = shot ? "Stop shot clock" : "Shot clock";
    if (!shot) { el.hidden = true; return; }
    var left = Math.ceil(since(shot.remaining_ms) / 1000);
    el.hidden = false;
    $("shot-left").textContent = (shot.seat ? "Seat " + shot.seat + " " : "") + left + "s";
    el.classList.toggle("expired", left <= 0);
  }

  function drawLevel() {
    var c = clock;
    var box = $("level");
    box.hidden = !(c && c.level);
    if (box.hidden) return;
    var now = DP.levelNow(c, clockAt);
    var cur = now.current, left = now.left;
    $("level-name").textContent = now.name;
    $("level-left").textContent = left === null ? "" : DP.clockText(Math.ceil(left / 1000)) + (c.running ? " left" : " paused");
    box.classList.toggle("pending", !!c.pending);
    box.title = c.pending && !cur["break"] ? "Blinds " + DP.chips(cur.small_blind) + " / " + DP.chips(cur.big_blind) +
      (cur.ante ? " · Ante " + DP.chips(cur.ante) : "") + " from the next hand (TABLE-LEVELS)" : "";
    if (c.running && left === 0 && c.next) refreshClock();  // the level is over: the server has the next one
  }

  function shotClock() {
    var shot = clock && clock.shot_clock;
    var body = shot ? { action: "shot_clock_stop" } : { action: "shot_clock" };
    if (!shot && view && view.toAct !== null) body.seat = view.toAct;
    DP.api("POST", DP.API + "/clock", token, body).then(function (c) {
      setClock(c);
      var now = c && c.shot_clock;
      say(now ? "Shot clock called on seat " + (now.seat || "?") + " (BET-CLOCK)" : "Shot clock stopped", "ok");
    }, function (err) { say(err.message, "bad"); });
  }

  /* ---------- keypad ---------- */

  var keyValue = "";
  function openKeypad() {
    if (!view) return;
    keyValue = "";
    $("keypad-value").textContent = "0";
    $("keypad-hint").textContent = "min " + DP.chips(view.minTo) + " · max " + DP.chips(view.maxTo);
    $("keypad").hidden = false;
  }
  function key(k) {
    if (k === "C") keyValue = "";
    else if (k === "⌫") keyValue = keyValue.slice(0, -1);
    else if (keyValue.length < 9) keyValue = (keyValue + k).replace(/^0+/, "");
    $("keypad-value").textContent = DP.chips(keyValue || "0");
    var problem = keyValue ? amountProblem(Number(keyValue), view) : "";
    $("keypad-hint").textContent = problem || "min " + DP.chips(view.minTo) + " · max " + DP.chips(view.maxTo);
    $("keypad-hint").classList.toggle("bad", !!problem);
  }

  /* ---------- chips pushed (the engine decides what they mean) ---------- */

  var lastChipsSeat = null;  // the seat whose chips this tablet entered last: the one a second motion is likely from

  function liveSeats(v) {
    return v.seats.filter(function (s) { return s.inHand && !s.folded && !s.sittingOut; });
  }

  // A second forward motion comes from a seat that has just pushed chips, so no longer the seat to act.
  function fillSecondSeats(v) {
    var pick = $("chips-second-seat");
    var was = pick.value ? Number(pick.value) : lastChipsSeat;
    pick.textContent = "";
    liveSeats(v).forEach(function (s) {
      pick.appendChild(new Option("Seat " + s.seat + (s.name ? " · " + s.name : ""), String(s.seat)));
    });
    var seats = liveSeats(v).map(function (s) { return s.seat; });
    pick.value = String(seats.indexOf(was) >= 0 ? was : seats.indexOf(v.toAct) >= 0 ? v.toAct : seats[0]);
    chipsSeat();
  }

  function chipsSeat() {
    var second = $("chips-second").checked;
    var seat = second ? Number($("chips-second-seat").value) : view.toAct;
    $("chips-seat").textContent = DP.seatName(view, seat);
    $("chips-seat").dataset.seat = seat;
  }

  function secondMotion() {
    var second = $("chips-second").checked;
    $("chips-second-seat-row").hidden = !second;
    $("chips-single-row").hidden = second;
    $("chips-declared-row").hidden = second;
    $("chips-declared-amount-row").hidden = second || ["bet", "raise"].indexOf($("chips-declared").value) < 0;
    if (second) fillSecondSeats(view);
    else chipsSeat();
    var hint = $("chips-hint");
    hint.classList.remove("bad");
    hint.textContent = second ? "Dismissed and its chips go back (BET-STRING), unless the player said “raise” without an amount " +
      "just before: then it completes that raise." : "";
  }

  function openChips() {
    var v = view;
    if (!v || v.toAct === null || !v.inProgress) { say("Nobody is to act", "bad"); return; }
    $("chips-seat").textContent = DP.seatName(v, v.toAct);
    $("chips-seat").dataset.seat = v.toAct;
    $("chips-amount").value = "";
    $("chips-single").checked = false;
    $("chips-declared").value = "";
    $("chips-declared-amount").value = "";
    $("chips-declared-amount-row").hidden = true;
    $("chips-second").checked = false;
    $("chips-second-seat").value = "";
    $("chips-second-seat-row").hidden = true;
    $("chips-single-row").hidden = false;
    $("chips-declared-row").hidden = false;
    $("chips-hint").textContent = "";
    $("chips-hint").classList.remove("bad");
    $("chips").hidden = false;
    $("chips-amount").focus();
  }
  function chipsObservation() {
    var amountIn = Number($("chips-amount").value);
    if (!(amountIn >= 1) || Math.floor(amountIn) !== amountIn) return "Enter the chips put forward (a whole number)";
    var seat = Number($("chips-seat").dataset.seat);
    if ($("chips-second").checked) {
      if (!(seat >= 1)) return "Choose the seat that pushed again";
      return { type: "chips", seat: seat, amount: amountIn, second_motion: true };
    }
    var obs = { type: "chips", seat: seat, amount: amountIn, single_chip: $("chips-single").checked };
    var said = $("chips-declared").value;
    if (said) {
      obs.declared = said;
      var to = $("chips-declared-amount").value;
      if (to !== "" && !$("chips-declared-amount-row").hidden) {
        if (!(Number(to) >= 1)) return "The amount said must be a whole number of at least 1";
        obs.declared_amount = Number(to);
      }
    }
    return obs;
  }

  /* ---------- a dead hand (POT-DEAD-HAND): the dealer kills the hand of a seat still in it ---------- */

  function killable(v) {
    return !!(v && v.inProgress && v.toAct !== null && !/deal|showdown/i.test(v.status));
  }

  function killSeat() {
    var c = document.querySelector('input[name="kill-seat"]:checked');
    return c ? Number(c.value) : null;
  }

  function fillKillSeats(v) {
    var box = $("kill-seats");
    var was = killSeat();
    var seats = liveSeats(v);
    // redrawn only when the seats in the hand or the turn change: not under the dealer's finger
    var key = seats.map(function (s) { return s.seat + ":" + s.name; }).join(",") + "|" + v.toAct;
    if (box.dataset.key === key && was !== null) return;
    box.dataset.key = key;
    if (!seats.some(function (s) { return s.seat === was; })) was = v.toAct;
    box.textContent = "";
    seats.forEach(function (s) {
      var text = DP.el("span", null, "Seat " + s.seat + (s.name ? " · " + s.name : ""));
      if (s.seat === v.toAct) text.appendChild(DP.el("small", "choice-tag", "to act"));
      box.appendChild(choice("radio", "kill-seat", s.seat, s.seat === was, text));
    });
  }

  // One finger-sized choice of a sheet: a radio button or a check box with its words.
  function choice(type, name, value, checked, text) {
    var label = DP.el("label", "choice");
    var input = document.createElement("input");
    input.type = type;
    input.name = name;
    input.value = String(value);
    input.checked = checked;
    label.appendChild(input);
    label.appendChild(text);
    return label;
  }

  function openKill() {
    var v = view;
    if (!killable(v)) { say("No hand is in its betting", "bad"); return; }
    $("kill-seats").dataset.key = "";
    document.querySelectorAll('input[name="kill-seat"]').forEach(function (r) { r.checked = false; });
    fillKillSeats(v);
    // Only the reasons this table's rules accept (a card shown on purpose kills a hand only under 002 §6.8).
    var allowed = v.killReasons || [];
    document.querySelectorAll('input[name="kill-reason"]').forEach(function (r) {
      r.checked = false;
      r.closest("label").hidden = allowed.indexOf(r.value) < 0;
    });
    $("kill-hint").textContent = "";
    $("kill-hint").classList.remove("bad");
    $("kill").hidden = false;
    var first = document.querySelector('input[name="kill-seat"]:checked') || document.querySelector('input[name="kill-seat"]');
    if (first) first.focus();
  }

  function submitKill(e) {
    e.preventDefault();
    var seat = killSeat();
    var reason = document.querySelector('input[name="kill-reason"]:checked');
    var problem = seat === null ? "Choose whose hand it is" : !reason ? "Choose why the hand is dead" : "";
    if (problem) { $("kill-hint").textContent = problem; $("kill-hint").classList.add("bad"); return; }
    var rule = reason.dataset.rule, words = reason.dataset.words;
    var who = DP.seatName(view, seat);
    $("kill").hidden = true;
    confirmThen("Kill the hand of seat " + seat + " (" + who + ")? " + words + " (" + rule + "). " +
      "The hand is folded and a raise nobody called goes back; only Undo takes it back.", function () {
        post({ type: "kill", seat: seat, reason: reason.value }, who + "'s hand is dead: " + words.toLowerCase() + " (" + rule + ")");
      }, "Kill the hand");
  }

  /* ---------- the showdown, where no sensor read a tabled hand: the dealer names the winners ---------- */

  function awardable(v) {
    return !!(v && v.inProgress && /showdown/i.test(v.status) && openPots(v).length);
  }

  // The pots still to pay (those with chips in them), with their place in the engine's list.
  function openPots(v) {
    var paid = v.awards || [];
    return v.pots.map(function (p, i) { return { pot: p, index: i }; }).filter(function (p) {
      return Number(p.pot.amount) > 0 && !paid.some(function (a) { return a.pot === p.index; });
    });
  }

  function fillAwardSeats(v) {
    var chosen = document.querySelector('input[name="award-pot"]:checked');
    var pot = chosen ? v.pots[Number(chosen.value)] : null;
    var eligible = pot ? pot.eligible.map(Number) : [];
    var box = $("award-seats");
    box.textContent = "";
    liveSeats(v).filter(function (s) { return eligible.indexOf(s.seat) >= 0; }).forEach(function (s) {
      box.appendChild(choice("checkbox", "award-seat", s.seat, false, DP.el("span", null, "Seat " + s.seat + (s.name ? " · " + s.name : ""))));
    });
  }

  function openAward() {
    var v = view;
    if (!awardable(v)) { say("No pot waits at a showdown", "bad"); return; }
    var box = $("award-pots");
    box.textContent = "";
    openPots(v).forEach(function (p, k) {
      var label = choice("radio", "award-pot", p.index, k === 0, DP.el("span", "num", p.pot.name + " " + DP.chips(p.pot.amount)));
      label.querySelector("input").addEventListener("change", function () { fillAwardSeats(view); });
      box.appendChild(label);
    });
    fillAwardSeats(v);
    $("award-hint").textContent = "";
    $("award-hint").classList.remove("bad");
    $("award").hidden = false;
  }

  function submitAward(e) {
    e.preventDefault();
    var pot = document.querySelector('input[name="award-pot"]:checked');
    var seats = Array.prototype.map.call(document.querySelectorAll('input[name="award-seat"]:checked'),
      function (c) { return Number(c.value); });
    var problem = !pot ? "Choose the pot" : !seats.length ? "Choose who wins it" : "";
    if (problem) { $("award-hint").textContent = problem; $("award-hint").classList.add("bad"); return; }
    var name = view.pots[Number(pot.value)].name;
    var who = seats.map(function (s) { return "seat " + s; }).join(" and ");
    $("award").hidden = true;
    post({ type: "winners", pot: Number(pot.value), seats: seats }, name + " to " + who + " (POT-CARDS-SPEAK)");
  }

  /* ---------- the camera's reads: the dealer confirms or corrects, the reader learns ---------- */

  var CARD_NAMES = (function () {
    var out = [];
    "AKQJT98765432".split("").forEach(function (r) { "shdc".split("").forEach(function (s) { out.push(r + s); }); });
    return out;
  }());
  var reads = [];

  function loadReads() {
    if (!token) return Promise.resolve();
    return DP.api("GET", DP.API + "/camera/reads", token).then(function (body) {
      reads = body.reads || [];
      $("reads-open").hidden = reads.length === 0 && $("reads").hidden;
      $("reads-count").textContent = reads.length ? "(" + reads.length + ")" : "";
      if (!$("reads").hidden) renderReads();
    }, function () { /* no camera, or offline: nothing to ask */ });
  }

  function answerRead(id, card) {
    DP.api("POST", DP.API + "/camera/reads/" + id, token, { card: card }).then(function (body) {
      reads = body.reads || [];
      say("Thanks: the reader will learn that card", "ok");
      renderReads();
      loadReads();
    }, function (err) { say(err.message || "Refused", "bad"); });
  }

  function renderReads() {
    var list = $("reads-list");
    list.textContent = "";
    if (!reads.length) list.appendChild(DP.el("li", null, "Nothing waits for you."));
    reads.forEach(function (r) {
      var li = DP.el("li", "read");
      li.dataset.readId = r.id;
      var img = document.createElement("img");
      img.alt = "the camera's picture";
      img.src = DP.API + "/camera/reads/" + r.id + "/picture?token=" + encodeURIComponent(token);
      li.appendChild(img);
      var box = DP.el("div");
      box.appendChild(DP.el("div", null, (r.zone === "board" ? "Board" : r.zone) + ": " + (r.read ? "read as " + r.read : "not read")));
      var btns = DP.el("div", "read-btns");
      if (r.read) {
        var ok = DP.el("button", "sec read-right", "Right");
        ok.type = "button";
        ok.addEventListener("click", function () { answerRead(r.id, r.read); });
        btns.appendChild(ok);
      }
      var pick = document.createElement("select");
      pick.className = "read-pick";
      pick.appendChild(new Option(r.read ? "It is…" : "Which card?", ""));
      CARD_NAMES.forEach(function (c) { pick.appendChild(new Option(c, c)); });
      pick.addEventListener("change", function () { if (pick.value) answerRead(r.id, pick.value); });
      btns.appendChild(pick);
      box.appendChild(btns);
      li.appendChild(box);
      list.appendChild(li);
    });
  }

  /* ---------- confirmation for the big, irreversible buttons ---------- */

  function confirmThen(text, fn, yes) {
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes || "Yes";
    $("confirm").hidden = false;
    $("confirm-yes").onclick = function () { $("confirm").hidden = true; fn(); };
    $("confirm-no").onclick = function () { $("confirm").hidden = true; };
  }

  /* ---------- wiring ---------- */

  function act(action) {
    var v = view;
    if (!v || v.toAct === null) return;
    var obs = { type: "action", seat: v.toAct, action: action };
    var label = DP.seatName(v, v.toAct) + ": " + action;
    if (action === "raise") {
      obs.action = (v.isBet !== null ? v.isBet : (num(v.currentBet) || 0) === 0 && v.legal.indexOf("raise") < 0) ? "bet" : "raise";
      obs.amount = amount;
      label = DP.seatName(v, v.toAct) + ": " + obs.action + " " + DP.chips(amount);
    }
    post(obs, label);
  }

  var conn = null;
  function refusedToken(err) {
    if (conn) conn.close();
    DP.forgetToken("dealer");
    DP.askToken("dealer", start, "The server refused this token (" + err.status + ").");
  }

  function start(t, refused) {
    token = t;
    conn = DP.connect({
      token: token,
      onState: function (snap) { render(DP.view(snap)); },
      onStatus: DP.statusBanner($("conn")),
      // refused device input (a shoe or camera report the rules reject): say it, it was not recorded
      onNotice: function (n) {
        // A refused shoe or camera report may name the card it was about: during a hand that
        // can be a hole card or a burn, so the tablet never repeats a card name from a notice.
        var text = noCards(n.message || "input refused");
        say((n.source ? n.source + ": " : "") + (n.rule ? n.rule + " – " : "") + text, "bad");
      },
      onAuthError: refused || refusedToken
    });
  }

  document.querySelectorAll(".act[data-action]").forEach(function (b) {
    b.addEventListener("click", function () { act(b.dataset.action); });
  });
  document.querySelectorAll(".size[data-size]").forEach(function (b) {
    b.addEventListener("click", function () {
      if (!view) return;
      amount = quick(b.dataset.size, view);
      say("", "");
      showAmount();
    });
  });
  $("keypad-open").addEventListener("click", openKeypad);
  document.querySelectorAll(".key").forEach(function (b) {
    b.addEventListener("click", function () { key(b.dataset.key); });
  });
  $("keypad-cancel").addEventListener("click", function () { $("keypad").hidden = true; });
  $("keypad-ok").addEventListener("click", function () {
    if (!keyValue) return;
    var a = Number(keyValue);
    var problem = amountProblem(a, view);
    if (problem) { $("keypad-hint").textContent = problem; $("keypad-hint").classList.add("bad"); return; }
    amount = a;
    $("keypad").hidden = true;
    say("", "");
    showAmount();
  });
  $("shot-clock").addEventListener("click", shotClock);
  $("floor-deck-done").addEventListener("click", deckRegistered);
  $("chips-open").addEventListener("click", openChips);
  $("chips-cancel").addEventListener("click", function () { $("chips").hidden = true; });
  $("chips-declared").addEventListener("change", function () {
    $("chips-declared-amount-row").hidden = ["bet", "raise"].indexOf($("chips-declared").value) < 0;
  });
  $("chips-second").addEventListener("change", secondMotion);
  $("chips-second-seat").addEventListener("change", chipsSeat);
  $("kill-open").addEventListener("click", openKill);
  $("award-open").addEventListener("click", openAward);
  $("award-cancel").addEventListener("click", function () { $("award").hidden = true; });
  $("award-form").addEventListener("submit", submitAward);
  $("kill-cancel").addEventListener("click", function () { $("kill").hidden = true; });
  $("kill-form").addEventListener("submit", submitKill);
  $("chips-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var obs = chipsObservation();
    if (typeof obs === "string") { $("chips-hint").textContent = obs; $("chips-hint").classList.add("bad"); return; }
    $("chips").hidden = true;
    var label = DP.seatName(view, obs.seat) + ": " + DP.chips(obs.amount) +
      (obs.second_motion ? " more in a second motion" : obs.single_chip ? " in one chip" : " in chips") +
      (obs.declared ? ", said " + obs.declared + (obs.declared_amount ? " " + DP.chips(obs.declared_amount) : "") : "");
    if (!obs.second_motion) lastChipsSeat = obs.seat;
    post(obs, label);
  });
  setInterval(drawClock, 500);
  $("rule-close").addEventListener("click", function () { $("rule-sheet").hidden = true; });
  $("rule-sheet").addEventListener("click", function (e) { if (e.target === $("rule-sheet")) $("rule-sheet").hidden = true; });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") $("rule-sheet").hidden = true; });
  $("undo").addEventListener("click", function () { post({ type: "dealer", declare: "undo" }, "Last entry undone"); });
  $("cards-out").addEventListener("click", function () { post({ type: "dealer", declare: "cards out" }, "Cards are out: betting open"); });
  $("misdeal").addEventListener("click", function () {
    confirmThen("Declare a misdeal? The hand is void: stacks and blinds are restored and the button stays (DEAL-MISDEAL-REMEDY).", function () {
      post({ type: "dealer", declare: "misdeal" }, "Misdeal declared");
    });
  });
  $("new-hand").addEventListener("click", function () {
    var v = view;
    var run = function () { post({ type: "dealer", declare: "new hand" }, "New hand"); };
    if (v && v.inProgress) confirmThen("Start a new hand while this one is still running?", run);
    else run();
  });
  $("reads-open").addEventListener("click", function () { $("reads").hidden = false; renderReads(); loadReads(); });
  $("reads-close").addEventListener("click", function () { $("reads").hidden = true; loadReads(); });
  setInterval(loadReads, 5000);

  $("forget-token").addEventListener("click", function () {
    if (conn) conn.close();
    DP.forgetToken("dealer");
    DP.askToken("dealer", start);
  });

  DP.withToken("dealer", start);
})();
