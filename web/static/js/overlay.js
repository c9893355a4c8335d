/* Stream overlay, 1920x1080 on a transparent page (an OBS browser source).
 * /overlay: the public view, delayed by the server (no token).
 * /overlay/live: the producer's view (producer token), hole cards at once.
 * The page draws only what the server sends: the delay and the hole-card
 * filter are the server's job, never this page's; equities arrive with the
 * hole cards they come from (state.broadcast.equity), the ticker with the
 * actions (state.broadcast.ticker).
 * /overlay/<element> and /overlay/live/<element> (bars, board, ticker,
 * scoreboard) show one element alone; URL parameters (see the README):
 * x, y (px from the top left), scale, accent, bg, text (CSS colours without
 * '#': ffcc00 or a name), bb=1 (stacks in big blinds), equity=0 (hide). */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };
  var stage = $("stage");
  var live = stage.dataset.live === "true" || /\/live(\/|$)/.test(location.pathname);
  var params = new URLSearchParams(location.search);
  var inBigBlinds = params.get("bb") === "1";
  var showEquity = params.get("equity") !== "0";

  // Position, size and colours from the URL, for a browser source placed anywhere.
  (function applyParams() {
    var colour = function (v) { return /^[0-9a-fA-F]{3,8}$/.test(v) ? "#" + v : (/^[a-zA-Z]{3,20}$/.test(v) ? v : null); };
    var px = function (v) { var n = Number(v); return isFinite(n) ? n + "px" : null; };
    var set = function (name, value) { if (value) stage.style.setProperty(name, value); };
    set("--el-x", px(params.get("x")));
    set("--el-y", px(params.get("y")));
    var scale = Number(params.get("scale"));
    if (isFinite(scale) && scale > 0.2 && scale < 5) set("--el-scale", String(scale));
    set("--accent", colour(params.get("accent") || ""));
    set("--panel", colour(params.get("bg") || ""));
    set("--ink", colour(params.get("text") || ""));
  })();

  function stackText(n, v) {
    if (n === null || n === undefined) return "";
    if (inBigBlinds && Number(v.bigBlind) > 0) return (Math.round(Number(n) / Number(v.bigBlind) * 10) / 10) + " BB";
    return DP.chips(n);
  }

  function pct(x) { return (Math.round(Number(x) * 1000) / 10).toFixed(1) + "%"; }

  function actionText(s, v) {
    if (s.folded) return "FOLD";
    if (!v.inProgress) return "";
    if (s.allIn) return "ALL-IN";
    if (v.toAct === s.seat && v.inProgress) return "TO ACT";
    return s.lastAction;  // the snapshot's, so a reload mid-street shows it too
  }

  function equityFor(snap, seat) {
    var b = snap && snap.broadcast;
    var eq = b && b.equity;
    return eq && eq.seats ? eq.seats[String(seat)] || null : null;
  }

  function renderPlayers(v, snap) {
    var box = $("players");
    box.textContent = "";
    var winners = {};
    v.awards.forEach(function (w) { w.shares.forEach(function (x) { if (x.amount > 0) winners[x.seat] = (winners[x.seat] || 0) + x.amount; }); });
    v.seats.filter(function (s) { return !s.sittingOut && (s.name || s.stack !== null); }).forEach(function (s) {
      var bar = DP.el("div", "pbar");
      bar.dataset.seat = s.seat;
      if (s.folded) bar.classList.add("folded");
      if (s.allIn) bar.classList.add("allin");
      if (v.toAct === s.seat && v.inProgress) bar.classList.add("to-act");
      if (winners[s.seat]) bar.classList.add("won");

      var cards = DP.el("div", "pcards");
      // Shown hands are public; otherwise the hole cards the server let this view have.
      var faces = s.shown.length ? s.shown : s.hole.filter(function (c) { return DP.parseCard(c); });
      var count = s.holeCount !== null && s.holeCount !== undefined ? Number(s.holeCount) : (v.inProgress ? 2 : 0);
      if (!s.folded && faces.length) {
        faces.forEach(function (c) { cards.appendChild(DP.cardEl(c, "ov")); });
      } else if (!s.folded && count > 0) {
        for (var i = 0; i < Math.min(count, 2); i++) cards.appendChild(DP.cardEl(null, "ov"));
      }
      bar.appendChild(cards);

      var main = DP.el("div", "pmain");
      var top = DP.el("div", "pname");
      top.appendChild(DP.el("span", "pseat", s.seat));
      top.appendChild(DP.el("span", "pname-text", s.name || "Seat " + s.seat));
      if (v.button === s.seat) top.appendChild(DP.el("span", "badge btn", "D"));
      if (v.sbSeat === s.seat) top.appendChild(DP.el("span", "badge sb", "SB"));
      if (v.bbSeat === s.seat) top.appendChild(DP.el("span", "badge bb", "BB"));
      main.appendChild(top);
      var act = actionText(s, v);
      var eq = showEquity && !s.folded ? equityFor(snap, s.seat) : null;
      var shownName = eq && eq.name && (s.shown.length || !v.inProgress) ? eq.name : "";
      var sub = DP.el("div", "paction", winners[s.seat] ? "WINS " + DP.chips(winners[s.seat]) : act);
      main.appendChild(sub);
      if (shownName) main.appendChild(DP.el("div", "phand", shownName));
      bar.appendChild(main);

      var right = DP.el("div", "pright");
      right.appendChild(DP.el("div", "pstack num", stackText(s.stack, v)));
      if (Number(s.bet) > 0) right.appendChild(DP.el("div", "pbet num", stackText(s.bet, v)));
      bar.appendChild(right);
      if (eq) {
        var e = DP.el("div", "pequity num", pct(eq.equity));
        e.dataset.equity = eq.equity;
        // A tie share matters when it is a real part of the hand's chances.
        if (Number(eq.tie) >= 0.005) e.appendChild(DP.el("small", "ptie", "TIE " + pct(eq.tie)));
        bar.appendChild(e);
        bar.classList.add("has-equity");
      }
      box.appendChild(bar);
    });
  }

  function renderCenter(v) {
    var board = $("board");
    board.textContent = "";
    $("center").hidden = !(v.board.length > 0 || v.inProgress || v.awards.length);
    board.hidden = !v.board.length;  // no empty frame preflop
    for (var i = 0; i < 5 && v.board.length; i++) {
      board.appendChild(v.board[i] ? DP.cardEl(v.board[i], "board") : DP.cardSlot("board"));
    }
    var pots = $("pots");
    pots.textContent = "";
    var sidePots = v.pots.filter(function (p) { return Number(p.amount) > 0; });
    var main = DP.el("div", "pot-total");
    main.appendChild(DP.el("span", "pot-label", "POT"));
    main.appendChild(DP.el("span", "pot-amt num", DP.chips(v.potTotal || v.awards.reduce(function (t, w) { return t + (Number(w.amount) || 0); }, 0))));
    pots.appendChild(main);
    if (sidePots.length > 1) {
      sidePots.forEach(function (p, k) {
        var e = DP.el("div", "pot-chip" + (k ? " side" : ""));
        e.appendChild(DP.el("span", "pot-label", k ? "SIDE " + k : "MAIN"));
        e.appendChild(DP.el("span", "pot-amt num", DP.chips(p.amount)));
        pots.appendChild(e);
      });
    }
  }

  function renderWinner(v) {
    var w = $("winner");
    w.textContent = "";
    if (!v.awards.length) { w.hidden = true; return; }
    v.awards.forEach(function (a) {
      var row = DP.el("div", "win-row");
      var names = a.shares.filter(function (x) { return x.amount > 0; })
        .map(function (x) { return DP.seatName(v, x.seat); });
      row.appendChild(DP.el("span", "win-pot", a.pot ? "SIDE POT " + a.pot : (v.awards.length > 1 ? "MAIN POT" : "POT")));
      row.appendChild(DP.el("span", "win-name", names.join(" & ") + (names.length > 1 ? " split" : " wins")));
      row.appendChild(DP.el("span", "win-amt num", DP.chips(a.amount)));
      if (a.description) row.appendChild(DP.el("span", "win-hand", a.description));
      w.appendChild(row);
    });
    w.hidden = false;
  }

  var levelTick = DP.levelTicker($("level"));  // TABLE-LEVELS: the level and its time left

  // Open alerts as the stream may see them (the server redacted them for this view):
  // a misdeal, or a hand under review. Never the remedy: that is the dealer's.
  function renderBanner(v) {
    var banner = $("banner");
    var open = v.alerts.filter(function (a) { return a.status === "open" || !a.status; });
    var misdeal = open.some(function (a) { return a.verdict === "misdeal"; }) || !!(v.root.hand && v.root.hand.misdeal);
    if (!open.length && !misdeal) { banner.hidden = true; return; }
    banner.hidden = false;
    banner.classList.toggle("misdeal", misdeal);
    $("banner-title").textContent = misdeal ? "MISDEAL" : "HAND UNDER REVIEW";
    var rules = open.map(function (a) { return a.rule; }).filter(Boolean);
    $("banner-text").textContent = (misdeal ? "The hand will be dealt again" : "The floor is checking the deal")
      + (rules.length ? " \u00b7 " + rules.join(", ") : "");
  }

  function renderTicker(snap) {
    var box = $("ticker");
    box.textContent = "";
    var lines = (snap && snap.broadcast && snap.broadcast.ticker) || [];
    lines.slice(-5).forEach(function (l, i, all) {
      var e = DP.el("div", "tick" + (i === all.length - 1 ? " latest" : ""), l.text);
      e.dataset.kind = l.kind || "";
      box.appendChild(e);
    });
    box.hidden = !lines.length;
  }

  function renderScoreboard(v) {
    var box = $("scoreboard");
    box.textContent = "";
    var rows = v.seats.filter(function (s) { return s.name || Number(s.stack) > 0; })
      .sort(function (a, b) { return Number(b.stack) - Number(a.stack); });
    var head = DP.el("div", "sb-head");
    head.appendChild(DP.el("span", "", "CHIP COUNTS"));
    if (v.bigBlind) head.appendChild(DP.el("span", "sb-blinds", "BLINDS " + DP.chips(v.smallBlind) + "/" + DP.chips(v.bigBlind)));
    box.appendChild(head);
    rows.forEach(function (s, i) {
      var r = DP.el("div", "sb-row");
      r.appendChild(DP.el("span", "sb-rank", i + 1));
      r.appendChild(DP.el("span", "sb-name", s.name || "Seat " + s.seat));
      r.appendChild(DP.el("span", "sb-stack num", stackText(s.stack, v)));
      box.appendChild(r);
    });
  }

  function render(snap) {
    var v = DP.view(snap);
    $("table-name").textContent = v.tableName || $("table-name").textContent;
    $("hand-no").textContent = v.handNo === null ? "–" : v.handNo;
    $("street").textContent = v.handNo !== null ? String(v.stage).toUpperCase() : "";
    var blinds = v.smallBlind !== null && v.bigBlind !== null ? "BLINDS " + DP.chips(v.smallBlind) + " / " + DP.chips(v.bigBlind) : "";
    if (v.ante) blinds += " ANTE " + DP.chips(v.ante);
    $("blinds").textContent = blinds;
    var mode = $("mode");
    if (live) mode.textContent = "LIVE";
    else {
      var d = Number(v.delay !== null ? v.delay : stage.dataset.delay) || 0;
      mode.textContent = d ? "DELAY " + DP.clockText(d) : "DELAYED";
    }
    levelTick(v.clock);
    renderPlayers(v, snap);
    renderCenter(v);
    renderWinner(v);
    renderBanner(v);
    renderTicker(snap);
    renderScoreboard(v);
    var empty = !v.seats.length;
    $("waiting").hidden = !empty;
    $("waiting").textContent = empty ? (live ? "Waiting for the table…" : "The stream view starts after the delay") : "";
    document.body.dataset.street = v.phase || "";
  }

  function start(token, refused) {
    var conn = DP.connect({
      token: token,
      statePath: DP.API + "/state" + (live ? "" : "?view=public"),
      eventsPath: DP.API + "/events" + (live ? "" : "?view=public"),
      onState: function (snap) {
        // A token of another role (the dealer's) gets another view: not this page's.
        if (live && snap && snap.view && snap.view !== "live") {
          conn.close();
          DP.forgetToken("producer");
          DP.askToken("producer", start, "That token gives the " + snap.view + " view and was refused here: enter the producer token.");
          return;
        }
        render(snap);
      },
      onStatus: DP.statusBanner($("conn")),
      onAuthError: refused
    });
  }

  if (live) DP.withToken("producer", start);
  else start("", function () { /* the public view needs no token */ });
})();
