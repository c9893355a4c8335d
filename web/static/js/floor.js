/* Floor staff page: every table (live or offline, hand, level, players and stacks,
 * open alerts, time since the last hand), the room's alerts, the tournament's
 * controls. Reads /api/tables and /api/tournament every second. */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };
  var token = "";
  var h4hActive = false;
  var timer = null;
  var status = DP.statusBanner($("conn"));

  function say(text, kind) { var m = $("msg"); m.textContent = text; m.className = "msg " + (kind || ""); }

  function ago(ms, now) {
    if (!ms) return "–";
    var s = Math.max(0, Math.round((now - ms) / 1000));
    return s < 60 ? s + " s" : Math.floor(s / 60) + " min " + (s % 60) + " s";
  }

  function renderTournament(t) {
    var c = t.clock || {}, cur = c.current || null;
    var left = c.remaining_ms === null || c.remaining_ms === undefined ? "" : " · " + DP.clockText(Math.ceil(c.remaining_ms / 1000));
    $("t-clock").textContent = !c.level ? "No levels" : (cur && cur["break"] ? "Break" : "Level " + c.level + " · " +
      DP.chips(cur.small_blind) + "/" + DP.chips(cur.big_blind) + (cur.ante ? " ante " + DP.chips(cur.ante) : "")) + left +
      (c.running ? "" : " (paused)");
    $("t-facts").textContent = t.players_left + " of " + t.entrants + " left · avg " + DP.chips(t.average_stack) +
      " · " + t.tables_in_play + " tables";
    var h = t.hand_for_hand || {};
    h4hActive = !!h.active;
    $("t-h4h").hidden = !h.active;
    $("t-h4h").textContent = "Hand for hand, round " + h.round + (h.playing && h.playing.length ? ": waiting for " + h.playing.join(", ") : "");
    $("h4h-toggle").textContent = h.active ? "End hand for hand" : "Hand for hand";
  }

  function tableCard(t, now) {
    var card = DP.el("article", "fl-table " + (t.broken ? "broken" : t.status));
    card.dataset.table = t.table;
    var head = DP.el("header", "fl-table-head");
    head.appendChild(DP.el("b", "fl-table-name", "Table " + t.table));
    head.appendChild(DP.el("span", "pill " + (t.broken ? "broken" : t.status),
      t.broken ? "broken" : !t.in_play ? "not in play" : t.status === "online" ? "live" : t.status));
    card.appendChild(head);
    var facts = t.hand === null ? "no hand yet" : "Hand " + t.hand + (t.running ? " · playing" : " · between hands");
    if (t.blinds && t.blinds.length) facts += " · " + DP.chips(t.blinds[0]) + "/" + DP.chips(t.blinds[1]);
    card.appendChild(DP.el("div", "fl-facts", facts));
    card.appendChild(DP.el("div", "fl-since", "Last hand ended " + (t.last_hand_ended_ms ? ago(t.last_hand_ended_ms, now) + " ago" : "–")));
    var ul = DP.el("ul", "fl-players");
    (t.players || []).forEach(function (p) {
      var li = DP.el("li");
      li.appendChild(DP.el("span", "seat num", p.seat));
      li.appendChild(DP.el("span", "name", p.name));
      li.appendChild(DP.el("span", "stack num", DP.chips(p.stack)));
      ul.appendChild(li);
    });
    card.appendChild(ul);
    (t.alerts || []).forEach(function (a) {
      card.appendChild(DP.el("div", "fl-alert " + a.verdict, a.rule + ": " + a.remedy));
    });
    (t.orders || []).forEach(function (o) {
      card.appendChild(DP.el("div", "fl-order", o.kind.replace("_", " ") + (o.player ? ": " + o.player : "")));
    });
    return card;
  }

  function renderTables(d) {
    var now = d.server_time_ms || Date.now();
    var grid = $("tables");
    grid.textContent = "";
    d.tables.forEach(function (t) { grid.appendChild(tableCard(t, now)); });
    var list = $("alerts");
    list.textContent = "";
    $("alert-count").textContent = d.alerts.length;
    if (!d.alerts.length) list.appendChild(DP.el("li", "muted", "None"));
    d.alerts.forEach(function (a) {
      var li = DP.el("li", "fl-alert " + a.verdict);
      li.appendChild(DP.el("b", "", "Table " + a.table));
      li.appendChild(DP.el("span", "rule", a.rule));
      li.appendChild(DP.el("span", "", a.remedy));
      list.appendChild(li);
    });
    var log = $("log");
    log.textContent = "";
    (d.log || []).slice(0, 15).forEach(function (l) { log.appendChild(DP.el("li", "", l.text)); });
    var names = $("player-names");
    names.textContent = "";
    (d.players || []).forEach(function (p) { var o = DP.el("option"); o.value = p.name; names.appendChild(o); });
  }

  function poll(refused) {
    Promise.all([DP.api("GET", DP.API + "/tables", token), DP.api("GET", DP.API + "/tournament", token)]).then(function (r) {
      status("Live", true);
      renderTables(r[0]);
      renderTournament(r[1]);
    }, function (err) {
      if (err.status === 401 || err.status === 403) { clearInterval(timer); refused(err); return; }
      status("Reconnecting\u2026", false);
    });
  }

  function command(name, body) {
    return DP.api("POST", DP.API + "/tournament/" + name.replace(/_/g, "-"), token, body || {}).then(function () {
      say("Done: " + name.replace(/_/g, " "), "ok");
      poll(function () {});
    }, function (err) { say(err.message || "Refused", "bad"); });
  }

  document.querySelectorAll("button[data-cmd]").forEach(function (b) {
    b.addEventListener("click", function () {
      var cmd = b.dataset.cmd;
      var body = cmd === "clock" ? { action: b.dataset.action } : cmd === "hand_for_hand" ? { active: !h4hActive } : {};
      command(cmd, body);
    });
  });

  function form(id, cmd, build) {
    $(id).addEventListener("submit", function (ev) {
      ev.preventDefault();
      var f = new FormData($(id));
      command(cmd, build(f)).then(function () { $(id).reset(); });
    });
  }
  form("f-register", "register", function (f) { return { name: f.get("name") }; });
  form("f-penalty", "penalty", function (f) {
    var b = { player: f.get("player"), kind: f.get("kind"), reason: f.get("reason") || "" };
    if (b.kind === "away") b.minutes = Number(f.get("minutes"));
    return b;
  });
  form("f-purchase", "purchase", function (f) { return { player: f.get("player"), kind: f.get("kind") }; });

  DP.withToken("floor", function (t, refused) {
    token = t;
    poll(refused);
    clearInterval(timer);
    timer = setInterval(function () { poll(refused); }, 1000);
  });
})();
