/* dealer-pi live client: token, snapshot, server-sent events, card drawing.
 *
 * Every page does the same three things: find its token, load /api/state,
 * then follow /api/events. EventSource cannot send an Authorization header,
 * so the token goes in the query string of the event stream; the browser
 * resends Last-Event-ID by itself when it reconnects, so nothing is missed.
 * Any event simply means "the table changed": the page refetches the
 * snapshot (coalesced), so the pages never depend on the shape of a delta and
 * the server's role filter is applied to everything shown.
 */
(function () {
  "use strict";

  var DP = (window.DP = window.DP || {});
  var STORE = "dealer-pi.token.";
  // The API prefix the server rendered into <body data-api>.
  DP.API = (document.body && document.body.dataset.api) || "/api";

  /* ---------- tokens ---------- */

  // A ?token= in the address is stored for next time, then removed from the
  // address bar so it does not end up in a screenshot or a bookmark.
  DP.takeToken = function (role) {
    var url = new URL(window.location.href);
    var fromUrl = url.searchParams.get("token");
    if (fromUrl) {
      try { localStorage.setItem(STORE + role, fromUrl); } catch (e) { /* private mode */ }
      url.searchParams.delete("token");
      window.history.replaceState(null, "", url.pathname + url.search + url.hash);
      return fromUrl;
    }
    try { return localStorage.getItem(STORE + role) || ""; } catch (e) { return ""; }
  };
  DP.saveToken = function (role, token) {
    try { localStorage.setItem(STORE + role, token); } catch (e) { /* ignore */ }
  };
  DP.forgetToken = function (role) {
    try { localStorage.removeItem(STORE + role); } catch (e) { /* ignore */ }
  };

  /* ---------- HTTP ---------- */

  DP.api = function (method, path, token, body) {
    var opts = { method: method, headers: { Accept: "application/json" }, cache: "no-store" };
    if (token) opts.headers.Authorization = "Bearer " + token;
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (resp) {
      return resp.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
        if (!resp.ok) {
          var err = new Error(DP.errorText(data) || resp.status + " " + resp.statusText);
          err.status = resp.status;
          err.data = data;
          throw err;
        }
        return data;
      });
    });
  };

  // The API's JSON errors name the field; show both parts.
  DP.errorText = function (data) {
    if (!data) return "";
    if (typeof data === "string") return data;
    var e = data.error !== undefined ? data.error : data;
    if (typeof e === "string") {
      var where = data.where || data.field;
      var rule = data.rule ? data.rule + ": " : "";
      return rule + (where ? where + ": " : "") + e;
    }
    if (e && typeof e === "object") {
      var parts = [];
      if (e.rule) parts.push(e.rule);
      if (e.where || e.field) parts.push(e.where || e.field);
      parts.push(e.message || e.detail || JSON.stringify(e));
      return parts.join(": ");
    }
    return JSON.stringify(data);
  };

  /* ---------- live connection ---------- */

  // opts: {role, token, onState(state), onStatus(text, ok), onAuthError(err), statePath, eventsPath}
  DP.connect = function (opts) {
    var statePath = opts.statePath || DP.API + "/state";
    var eventsPath = opts.eventsPath || DP.API + "/events";
    var token = opts.token || "";
    var es = null;
    var inFlight = false;
    var again = false;
    var closed = false;
    var retryTimer = null;

    function status(text, ok) { if (opts.onStatus) opts.onStatus(text, ok); }

    function refresh() {
      if (closed) return;
      if (inFlight) { again = true; return; }
      inFlight = true;
      DP.api("GET", statePath, token).then(function (state) {
        inFlight = false;
        if (closed) return;
        apply(state);
        if (again) { again = false; refresh(); }
      }, function (err) {
        inFlight = false;
        again = false;
        if (err.status === 401 || err.status === 403) {
          closed = true;
          if (es) es.close();
          if (opts.onAuthError) opts.onAuthError(err);
          return;
        }
        status("Reconnecting\u2026", false);
        clearTimeout(retryTimer);
        retryTimer = setTimeout(refresh, 2000);
      });
    }

    // A GET answered late can describe an older table than a snapshot the
    // stream has already delivered; never let it overwrite the newer one.
    // A device or clock change adds no journal entry (same seq): rev orders those.
    var lastSeq = -1, lastRev = -1;
    function apply(state) {
      if (state && typeof state.seq === "number") {
        var rev = typeof state.rev === "number" ? state.rev : -1;
        if (state.seq < lastSeq || (state.seq === lastSeq && rev < lastRev)) return;
        lastSeq = state.seq;
        lastRev = rev;
      }
      opts.onState(state);
    }

    function open() {
      var url = eventsPath + (token ? (eventsPath.indexOf("?") < 0 ? "?" : "&") + "token=" + encodeURIComponent(token) : "");
      es = new EventSource(url);
      // A new connection may reach a server whose journal started afresh.
      es.onopen = function () { lastSeq = -1; lastRev = -1; status("Live", true); refresh(); };
      es.onerror = function () {
        // EventSource retries by itself (and sends Last-Event-ID); a closed
        // stream (CLOSED) means the server refused it: retry from scratch.
        status("Reconnecting\u2026", false);
        if (es.readyState === EventSource.CLOSED && !closed) {
          es.close();
          setTimeout(function () { if (!closed) { refresh(); open(); } }, 2000);
        }
      };
      es.onmessage = function (ev) { handle(ev); };
      // Named events reach only their own listeners: listen to the usual names too.
      ["state", "table", "notice", "clock"].forEach(function (name) {
        es.addEventListener(name, handle);
      });
    }

    // 'state' carries the whole snapshot (after every batch); 'table' is one
    // journaled event (the state that follows covers it); 'notice' reports
    // refused device input.
    function handle(ev) {
      if (closed) return;
      var data = null;
      try { data = ev.data ? JSON.parse(ev.data) : null; } catch (e) { data = null; }
      if (ev.type === "state" && data && typeof data === "object") apply(data);
      else if (ev.type === "notice") { if (opts.onNotice && data) opts.onNotice(data); }
      else if (ev.type !== "table") refresh();
      if (opts.onEvent && data) opts.onEvent(data, ev);
    }

    status("Connecting\u2026", false);
    refresh();
    if (window.EventSource) open();
    return {
      refresh: refresh,
      close: function () { closed = true; if (es) es.close(); },
      setToken: function (t) { token = t; }
    };
  };

  /* ---------- small helpers ---------- */

  DP.el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };

  DP.chips = function (n) {
    if (n === null || n === undefined || n === "") return "";
    var v = Number(n);
    if (!isFinite(v)) return String(n);
    return v.toLocaleString("en-US");
  };

  DP.clockText = function (seconds) {
    var s = Math.max(0, Math.floor(Number(seconds) || 0));
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var r = s % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(r).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  };

  // TABLE-LEVELS: "Level 3 · 12:34" (or "Break · 4:10"), counted down locally between snapshots.
  // Returns a function to call with each snapshot's clock.
  // The clock's level as a page shows it: "Level 3" or "Break", and the milliseconds left now
  // (null: the level has no end), counted down from ``at``, when the clock was read.
  DP.levelNow = function (clock, at) {
    var cur = clock.current || {};
    var left = clock.remaining_ms === null || clock.remaining_ms === undefined ? null : Number(clock.remaining_ms);
    if (left !== null && clock.running) left = Math.max(0, left - (Date.now() - at));
    return { name: cur["break"] ? "Break" : "Level " + clock.level, left: left, current: cur };
  };

  DP.levelTicker = function (node) {
    var clock = null, at = 0;
    function draw() {
      if (!node) return;
      if (!(clock && Number(clock.level))) { node.textContent = ""; node.hidden = true; return; }
      var now = DP.levelNow(clock, at);
      node.hidden = false;
      node.textContent = now.name + (now.left === null ? "" : " \u00b7 " + DP.clockText(Math.ceil(now.left / 1000))) +
        (clock.running ? "" : " (paused)");
    }
    setInterval(draw, 1000);
    return function (c) { clock = c && typeof c === "object" ? c : null; at = Date.now(); draw(); };
  };

  /* ---------- cards ---------- */

  var SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  var SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  var RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

  // "Ah" -> {rank:"A", suit:"h"}; anything else (null, "??", "") is a card back.
  DP.parseCard = function (text) {
    if (typeof text !== "string" || text.length !== 2) return null;
    var r = text[0].toUpperCase();
    var s = text[1].toLowerCase();
    if ("23456789TJQKA".indexOf(r) < 0 || !SUITS[s]) return null;
    return { rank: r, suit: s };
  };

  // A card face drawn in HTML/CSS: rank and suit in the corner, a big pip in
  // the middle; red for hearts and diamonds. `null` draws a back.
  DP.cardEl = function (text, size) {
    var c = DP.parseCard(text);
    var e = DP.el("div", "card" + (size ? " card-" + size : ""));
    if (!c) {
      e.classList.add("back");
      e.setAttribute("aria-label", "face-down card");
      return e;
    }
    var red = c.suit === "h" || c.suit === "d";
    e.classList.add(red ? "red" : "black");
    e.dataset.card = c.rank + c.suit;
    e.setAttribute("aria-label", (RANKS[c.rank] || c.rank) + " of " + SUIT_NAMES[c.suit]);
    var idx = DP.el("div", "idx");
    idx.appendChild(DP.el("span", "rank", RANKS[c.rank] || c.rank));
    idx.appendChild(DP.el("span", "suit", SUITS[c.suit]));
    e.appendChild(idx);
    e.appendChild(DP.el("div", "pip", SUITS[c.suit]));
    return e;
  };

  DP.cardSlot = function (size) {
    return DP.el("div", "card slot" + (size ? " card-" + size : ""));
  };

  /* ---------- reading a snapshot ---------- */

  function pick(obj, names, dflt) {
    if (!obj) return dflt;
    for (var i = 0; i < names.length; i++) {
      var v = obj[names[i]];
      if (v !== undefined && v !== null) return v;
    }
    return dflt;
  }
  DP.pick = pick;

  function cardList(v) {
    if (!v) return [];
    if (typeof v === "string") {
      var out = [];
      for (var i = 0; i + 1 < v.length; i += 2) out.push(v.slice(i, i + 2));
      return out;
    }
    return Array.isArray(v) ? v.slice() : [];
  }
  DP.cardList = cardList;

  function seatNo(v) {
    if (v === null || v === undefined || v === "") return null;
    var n = Number(v);
    return isFinite(n) ? n : null;
  }

  function seatList(raw) {
    if (!raw) return [];
    if (Array.isArray(raw)) return raw;
    // {"3": {...}} keyed by seat number
    return Object.keys(raw).map(function (k) {
      var s = raw[k];
      if (typeof s === "number") s = { stack: s };
      var copy = Object.assign({}, s);
      if (copy.seat === undefined) copy.seat = Number(k);
      return copy;
    });
  }

  // The "legal actions of the seat to act", in any of the usual shapes:
  // ["fold","call"], [{action:"raise",min:40,max:990}], {fold:true, call:20, raise:{min,max}}.
  function readLegal(l) {
    var out = { names: [], toCall: null, min: null, max: null, allInTo: null, currentBet: null, pot: null, isBet: null };
    if (!l) return out;
    function one(name, val) {
      if (name === "all_in" || name === "allin") name = "all-in";
      if (val === false || val === null) return;
      out.names.push(name);
      if (val && typeof val === "object") {
        if (name === "call") out.toCall = pick(val, ["amount", "to_call"], out.toCall);
        if (name === "bet" || name === "raise") {
          out.min = pick(val, ["min", "min_to", "minimum"], out.min);
          out.max = pick(val, ["max", "max_to", "maximum"], out.max);
        }
      } else if (typeof val === "number" && name === "call") {
        out.toCall = val;
      }
    }
    if (Array.isArray(l)) {
      l.forEach(function (x) {
        if (typeof x === "string") one(x, true);
        else if (x && typeof x === "object") one(String(pick(x, ["action", "kind", "type"], "")), x);
      });
    } else if (typeof l === "object" && ("can_fold" in l || "can_call" in l || "can_raise" in l)) {
      // the engine's form: {to_call, can_fold, can_check, can_call, can_raise, is_bet, min_to, max_to, all_in_to, current_bet, pot}
      if (l.can_fold) out.names.push("fold");
      if (l.can_check) out.names.push("check");
      if (l.can_call) out.names.push("call");
      if (l.can_raise) out.names.push(l.is_bet ? "bet" : "raise");
      if (l.all_in_to !== undefined && l.all_in_to !== null) out.names.push("all-in");
      out.toCall = pick(l, ["to_call"], null);
      out.min = pick(l, ["min_to"], null);
      out.max = pick(l, ["max_to"], null);
      out.allInTo = pick(l, ["all_in_to"], null);
      out.currentBet = pick(l, ["current_bet"], null);
      out.pot = pick(l, ["pot"], null);
      out.isBet = !!l.is_bet;
    } else if (typeof l === "object") {
      Object.keys(l).forEach(function (k) {
        if (["fold", "check", "call", "bet", "raise", "all-in", "all_in", "allin"].indexOf(k) >= 0) one(k, l[k]);
      });
      out.toCall = pick(l, ["to_call"], out.toCall);
      out.min = pick(l, ["min_raise_to", "min_to", "min"], out.min);
      out.max = pick(l, ["max_raise_to", "max_to", "max"], out.max);
    }
    return out;
  }
  DP.readLegal = readLegal;

  var ENDED = ["idle", "complete", "completed", "ended", "finished", "done", "over", "void", "voided",
    "misdeal", "between", "between hands", "waiting", "none"];

  // One view model for every page. The API snapshot carries the engine's
  // TableSession.snapshot() under "table" (itself with table/hand/pots/alerts)
  // and the hole cards the role may see under "hole_cards".
  DP.view = function (snap) {
    snap = snap || {};
    var root = snap.table && typeof snap.table === "object" && (snap.table.hand || snap.table.table || snap.table.pots)
      ? snap.table : snap;
    var hand = root.hand && typeof root.hand === "object" ? root.hand : {};
    var table = root.table && typeof root.table === "object" ? root.table : (root === snap ? {} : root);
    var lg = readLegal(pick(hand, ["legal", "legal_actions"], null));
    var holeMap = snap.hole_cards && typeof snap.hole_cards === "object" ? snap.hole_cards : {};

    var seats = seatList(pick(table, ["seats", "players"], null) || pick(hand, ["seats", "players"], null))
      .map(function (s) {
        var state = String(pick(s, ["state", "status"], "") || "").toLowerCase();
        var folded = !!pick(s, ["folded"], false) || !!pick(s, ["mucked"], false) || state === "folded" || state === "fold";
        var allIn = !!pick(s, ["all_in", "allin"], false) || state === "all-in" || state === "all_in" || state === "allin";
        var no = seatNo(pick(s, ["seat", "number", "index"], null));
        // hole: ["Ah","Kd"] from the API's hole_cards, or the engine's
        // {secret, count, cards} (cards null when hidden); shown hands are public.
        var rawHole = pick(s, ["hole", "hole_cards"], null);
        var holeObj = rawHole && typeof rawHole === "object" && !Array.isArray(rawHole) ? rawHole : null;
        var hole = holeMap[String(no)] || holeMap[no] || (holeObj ? holeObj.cards : rawHole);
        var shownMap = pick(hand, ["shown"], null);
        var shown = cardList(pick(s, ["shown"], null) || (shownMap && !Array.isArray(shownMap) ? shownMap[String(no)] : null));
        return {
          seat: no,
          name: pick(s, ["name", "player"], ""),
          stack: pick(s, ["stack", "chips"], null),
          bet: pick(s, ["bet", "street_bet", "committed"], 0),
          state: state,
          folded: folded,
          allIn: allIn,
          inHand: !folded && pick(s, ["in_hand"], true) !== false && ["out", "empty", "sitting out", "sitting-out", "busted", "away"].indexOf(state) < 0,
          sittingOut: pick(s, ["in_hand"], true) === false || ["out", "sitting out", "sitting-out", "busted", "away"].indexOf(state) >= 0,
          hole: cardList(hole),
          // how many cards lie at the seat (the server's count, safe for every view)
          holeCount: pick(s, ["hole_count"], null) !== null ? pick(s, ["hole_count"], null)
            : holeObj ? pick(holeObj, ["count"], null) : (hole ? cardList(hole).length : null),
          shown: shown,
          lastAction: DP.actionText(pick(s, ["last_action", "action"], null)),
          won: pick(s, ["won", "winnings"], 0),
          handName: pick(s, ["hand_name", "best_hand"], "")
        };
      })
      .filter(function (s) { return s.seat !== null; })
      .sort(function (a, b) { return a.seat - b.seat; });

    var pots = (pick(root, ["pots"], null) || pick(hand, ["pots"], []) || []).map(function (p, i) {
      if (typeof p === "number") p = { amount: p };
      var winners = pick(p, ["winners", "won_by", "awarded_to", "awards"], []);
      if (!Array.isArray(winners)) {
        winners = typeof winners === "object" ? Object.keys(winners) : [winners];
      }
      return {
        name: pick(p, ["name", "label"], i === 0 ? "Main pot" : "Side pot " + i),
        amount: pick(p, ["amount", "size", "total"], 0),
        eligible: pick(p, ["eligible", "seats", "contenders"], []),
        winners: winners.map(function (w) { return w && typeof w === "object" ? seatNo(pick(w, ["seat"], null)) : seatNo(w); })
          .filter(function (w) { return w !== null; }),
        handName: pick(p, ["hand_name", "hand", "winning_hand"], "")
      };
    });

    // Pots paid out at the end of the hand: [{pot, amount, shares: [[seat, chips]], description}]
    var awards = (pick(hand, ["awards"], null) || pick(root, ["awards"], []) || []).map(function (w) {
      var shares = (pick(w, ["shares"], []) || []).map(function (x) {
        return Array.isArray(x) ? { seat: seatNo(x[0]), amount: x[1] } : { seat: seatNo(pick(x, ["seat"], null)), amount: pick(x, ["amount", "chips"], 0) };
      });
      return { pot: pick(w, ["pot"], 0), amount: pick(w, ["amount"], 0), shares: shares, description: pick(w, ["description", "hand_name"], "") };
    });

    var alerts = (pick(root, ["alerts"], null) || pick(snap, ["alerts"], []) || []).map(function (a) {
      return {
        id: String(pick(a, ["alert_id", "id"], "")),
        rule: pick(a, ["rule", "rule_id"], ""),
        verdict: pick(a, ["verdict", "severity"], "information"),
        remedy: pick(a, ["remedy"], ""),
        message: pick(a, ["message", "summary"], ""),
        seat: seatNo(pick(a, ["seat"], null)),
        status: pick(a, ["status", "decision"], "open"),
        at: pick(a, ["at"], null)
      };
    });

    var phase = String(pick(hand, ["street"], "") || "");
    var status = String(pick(hand, ["status", "phase", "state"], "") || "");
    var board = cardList(pick(hand, ["board", "community"], null));
    var betsOut = seats.reduce(function (t, s) { return t + (Number(s.bet) || 0); }, 0);
    var potTotal = pick(hand, ["pot_total", "pot"], null);
    if (typeof potTotal !== "number") potTotal = pots.reduce(function (t, p) { return t + (Number(p.amount) || 0); }, 0) + betsOut;
    var blinds = pick(table, ["blinds"], null);
    var inProgress = pick(hand, ["in_progress", "running"], null);
    if (inProgress === null) {
      inProgress = !!(root.hand && typeof root.hand === "object") &&
        ENDED.indexOf(status.toLowerCase()) < 0 && ENDED.indexOf(phase.toLowerCase()) < 0;
    }

    return {
      raw: snap,
      root: root,
      viewName: pick(snap, ["view", "role"], ""),
      tableName: pick(table, ["name"], pick(snap, ["table_name"], "")),
      profile: pick(table, ["profile"], ""),
      structure: pick(table, ["structure"], ""),
      killReasons: pick(table, ["kill_reasons"], []) || [],
      smallBlind: Array.isArray(blinds) ? blinds[0] : pick(table, ["small_blind"], null),
      bigBlind: Array.isArray(blinds) ? blinds[1] : pick(table, ["big_blind"], null),
      ante: pick(table, ["ante"], 0),
      seatsTotal: pick(table, ["seat_count", "max_seats"], null),
      handNo: pick(hand, ["number", "hand_number", "hand_id"], pick(table, ["hand_number"], null)),
      phase: phase,
      status: status,
      // what a headline shows: the street while betting, else the hand's phase
      stage: ["showdown", "complete", "misdeal", "void"].indexOf(status.toLowerCase()) >= 0 || !phase ? (status || "waiting") : phase,
      inProgress: !!inProgress,
      button: seatNo(pick(table, ["button"], pick(hand, ["button"], null))),
      sbSeat: seatNo(pick(hand, ["small_blind_seat", "sb_seat"], pick(table, ["small_blind_seat"], null))),
      bbSeat: seatNo(pick(hand, ["big_blind_seat", "bb_seat"], pick(table, ["big_blind_seat"], null))),
      toAct: seatNo(pick(hand, ["to_act", "seat_to_act", "actor"], null)),
      toCall: lg.toCall !== null ? lg.toCall : pick(hand, ["to_call"], null),
      minTo: lg.min !== null ? lg.min : pick(hand, ["min_raise_to", "min_to"], null),
      maxTo: lg.max !== null ? lg.max : pick(hand, ["max_raise_to", "max_to"], null),
      isBet: lg.isBet,
      allInTo: lg.allInTo,
      sizingPot: lg.pot,
      currentBet: lg.currentBet !== null ? lg.currentBet : pick(hand, ["current_bet", "bet_to_match"], seats.reduce(function (m, s) { return Math.max(m, Number(s.bet) || 0); }, 0)),
      legal: lg.names,
      seats: seats,
      board: board,
      pots: pots,
      awards: awards,
      collected: pots.reduce(function (t, p) { return t + (Number(p.amount) || 0); }, 0),
      potTotal: potTotal,
      betsOut: betsOut,
      alerts: alerts,
      devices: pick(snap, ["devices"], {}) || {},
      clock: pick(snap, ["clock"], null),
      delay: pick(snap, ["delay_s"], null),
      asOf: pick(snap, ["as_of_ms"], null),
      lastEventId: pick(snap, ["last_event_id"], null)
    };
  };

  // Blind seats, read from a 'table' message carrying hand_started (each seat's
  // posted blind), for snapshots that do not name them.
  // A seat's last action on this street as the snapshot gives it ({action, to, all_in}):
  // "CALL 30", "RAISE TO 90", "ALL-IN 400", "CHECK", "FOLD"; "" for none.
  DP.actionText = function (la) {
    if (!la) return "";
    if (typeof la !== "object") return String(la).toUpperCase();
    var a = String(pick(la, ["action", "kind"], "") || "").toUpperCase();
    var to = Number(pick(la, ["to", "amount"], 0)) || 0;
    if (la.all_in && to) return "ALL-IN " + DP.chips(to);
    if (to && (a === "CALL" || a === "BET")) return a + " " + DP.chips(to);
    if (to && a === "RAISE") return "RAISE TO " + DP.chips(to);
    return a;
  };

  DP.seatName = function (v, seat) {
    for (var i = 0; i < v.seats.length; i++) {
      if (v.seats[i].seat === seat) return v.seats[i].name || "Seat " + seat;
    }
    return seat ? "Seat " + seat : "";
  };

  /* ---------- token gate ---------- */

  // Shows the one-time token form (#token-gate) until a token is entered;
  // calls start(token). `reason` is shown when a stored token was refused.
  DP.askToken = function (role, start, reason) {
    var gate = document.getElementById("token-gate");
    var form = document.getElementById("token-form");
    var input = document.getElementById("token-input");
    var error = document.getElementById("token-error");
    if (!gate) return;
    gate.hidden = false;
    error.textContent = reason || "";
    input.value = "";
    setTimeout(function () { input.focus(); }, 0);
    form.onsubmit = function (ev) {
      ev.preventDefault();
      var t = input.value.trim();
      if (!t) { error.textContent = "Enter the token first."; return; }
      DP.saveToken(role, t);
      gate.hidden = true;
      start(t);
    };
  };

  // The usual start: token from ?token= or storage, else ask; a refused token
  // is forgotten and asked for again.
  DP.withToken = function (role, start) {
    var token = DP.takeToken(role);
    function run(t) {
      start(t, function refused(err) {
        DP.forgetToken(role);
        DP.askToken(role, run, "The server refused this token (" + (err && err.status) + "). Check it and try again.");
      });
    }
    if (token) run(token); else DP.askToken(role, run);
  };

  /* ---------- connection banner ---------- */

  // "offline" (the loud banner) only once the page has been live: the first
  // connect is "Connecting…", not a lost connection.
  DP.statusBanner = function (node) {
    var wasLive = false;
    return function (text, ok) {
      if (!node) return;
      if (ok) wasLive = true;
      node.textContent = text;
      node.classList.toggle("ok", !!ok);
      node.classList.toggle("down", !ok);
      document.body.classList.toggle("offline", !ok && wasLive);
    };
  };
})();
