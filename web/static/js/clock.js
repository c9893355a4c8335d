/* Tournament clock (TABLE-LEVELS): level, blinds and ante, time left, next level.
 * Anyone may read it; the controls appear when this browser holds the dealer
 * token (entered once on /dealer or with /clock?token=...). The page counts
 * down locally from remaining_ms and resynchronises on every server event. */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };
  var token = DP.takeToken("dealer");
  var clock = null;
  var receivedAt = 0;

  function levelText(l) {
    if (!l) return "–";
    if (l["break"]) return "Break";
    return DP.chips(l.small_blind) + " / " + DP.chips(l.big_blind);
  }

  function remaining() {
    if (!clock || clock.remaining_ms === null || clock.remaining_ms === undefined) return null;
    var left = Number(clock.remaining_ms);
    if (clock.running) left -= Date.now() - receivedAt;
    return Math.max(0, left);
  }

  function setClock(c) {
    if (!c || typeof c !== "object") return;
    clock = c;
    receivedAt = Date.now();
    draw();
  }

  function draw() {
    var c = clock || {};
    var cur = c.current || null;
    var lvl = Number(c.level) || 0;
    $("level").textContent = lvl ? (cur && cur["break"] ? "Break" : "Level " + lvl) : "No schedule";
    document.body.classList.toggle("on-break", !!(cur && cur["break"]));
    $("blinds").textContent = cur ? levelText(cur) : "–";
    var ante = cur ? Number(cur.ante) || 0 : 0;
    $("ante").textContent = ante ? DP.chips(ante) : "–";
    $("ante-box").classList.toggle("none", !ante);
    var nx = c.next || null;
    $("next").textContent = nx ? levelText(nx) + (nx.ante ? "  ante " + DP.chips(nx.ante) : "") + (nx.minutes ? "  · " + nx.minutes + " min" : "") : "Last level";
    var left = remaining();
    $("time").textContent = left === null ? "--:--" : DP.clockText(Math.ceil(left / 1000));
    var total = cur && cur.minutes ? cur.minutes * 60000 : 0;
    $("fill").style.width = total && left !== null ? Math.max(0, Math.min(100, 100 * (1 - left / total))) + "%" : "0%";
    var state = !lvl ? "Set the levels on /setup" : c.running ? (c.pending ? "New level from the next hand" : "") : "Paused";
    $("state").textContent = state;
    document.body.classList.toggle("paused", lvl > 0 && !c.running);
    document.body.classList.toggle("low", left !== null && left < 60000 && !!c.running);
    $("toggle").textContent = c.running ? "Pause" : (left !== null && total && left < total ? "Resume" : "Start");

    var sc = c.shot_clock;
    var shot = $("shot");
    if (sc && sc.remaining_ms !== undefined) {
      var sleft = Math.max(0, Number(sc.remaining_ms) - (Date.now() - receivedAt));
      shot.hidden = false;
      shot.textContent = "Shot clock  " + (sc.seat ? "Seat " + sc.seat + "  " : "") + Math.ceil(sleft / 1000) + "s";
      shot.classList.toggle("expired", sleft <= 0);
    } else {
      shot.hidden = true;
    }
  }

  function fetchClock() {
    return DP.api("GET", DP.API + "/clock", "").then(setClock, function () { /* the stream shows the state */ });
  }

  function control(action) {
    var body = { action: action };
    if (action === "toggle") body.action = clock && clock.running ? "pause" : (clock && clock.remaining_ms !== null && clock.current && clock.remaining_ms < clock.current.minutes * 60000 ? "resume" : "start");
    DP.api("POST", DP.API + "/clock", token, body).then(function (c) {
      $("msg").textContent = "";
      setClock(c);
    }, function (err) {
      $("msg").textContent = err.message;
      if (err.status === 401 || err.status === 403) { DP.forgetToken("dealer"); $("controls").hidden = true; }
    });
  }

  if (token) {
    $("controls").hidden = false;
    document.querySelectorAll("[data-clock]").forEach(function (b) {
      b.addEventListener("click", function () { control(b.dataset.clock); });
    });
  }

  // With the dealer token the stream is the live one; the public stream is
  // delayed, so without a token the clock is also polled (it is tiny).
  DP.connect({
    token: token,
    statePath: DP.API + "/state" + (token ? "" : "?view=public"),
    eventsPath: DP.API + "/events" + (token ? "" : "?view=public"),
    onState: function () { fetchClock(); },
    onEvent: function (data, ev) { if (ev.type === "clock") setClock(data); },
    onStatus: DP.statusBanner($("conn")),
    onAuthError: function () { DP.forgetToken("dealer"); window.location.reload(); }
  });
  setInterval(draw, 250);
  setInterval(fetchClock, token ? 30000 : 5000);
})();
