/* Lower-third player stats (GET /api/stats, refreshed every 30 s). The
 * public role counts only hands older than the stream delay: the server
 * decides, this page only draws. */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var every = Math.max(3, Number(params.get("every")) || 8) * 1000;
  var query = ["session", "from", "to"].filter(function (k) { return params.get(k); })
    .map(function (k) { return k + "=" + encodeURIComponent(params.get(k)); }).join("&");
  var players = [];
  var turn = 0;

  function pct(x) { return x === null || x === undefined ? "\u2013" : Math.round(x * 100) + "%"; }

  function show() {
    var wanted = params.get("player");
    var p = wanted ? players.filter(function (x) { return x.player === wanted; })[0] : players[turn % Math.max(players.length, 1)];
    $("lower-third").hidden = !p;
    if (!p) return;
    $("lt-name").textContent = p.player;
    var box = $("lt-stats");
    box.textContent = "";
    [["HANDS", p.hands], ["VPIP", pct(p.vpip)], ["PFR", pct(p.pfr)], ["3-BET", pct(p.three_bet)],
     ["AF", p.af === null ? "\u2013" : p.af.toFixed(1)], ["WTSD", pct(p.wtsd)], ["W$SD", pct(p.wsd)]]
      .forEach(function (kv) {
        var cell = DP.el("div", "lt-cell");
        cell.appendChild(DP.el("span", "lt-label", kv[0]));
        cell.appendChild(DP.el("span", "lt-value num", kv[1]));
        box.appendChild(cell);
      });
    turn += 1;
  }

  function load() {
    DP.api("GET", DP.API + "/stats" + (query ? "?" + query : ""), "").then(function (data) {
      players = data.players || [];
      show();
    }, function () { /* keep what is shown */ });
  }
  load();
  setInterval(load, 30000);
  setInterval(show, every);
})();
