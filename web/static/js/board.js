/* Public tournament board for a TV: clock, blinds, next break, players left,
 * average stack, chips in play, payouts. No token; reads /api/tournament. */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };
  var status = DP.statusBanner($("conn"));
  var t = null, at = 0;

  function blindsText(l) {
    if (!l) return "–";
    if (l["break"]) return "Break";
    return DP.chips(l.small_blind) + " / " + DP.chips(l.big_blind) + (l.ante ? "  ante " + DP.chips(l.ante) : "");
  }

  function left(ms, running) {
    if (ms === null || ms === undefined) return null;
    return Math.max(0, Number(ms) - (running ? Date.now() - at : 0));
  }

  function money(v) { return (t && t.currency || "") + DP.chips(v); }

  function draw() {
    if (!t) return;
    var c = t.clock || {}, cur = c.current || null;
    $("b-level").textContent = !c.level ? "Waiting for the clock" : cur && cur["break"] ? "BREAK" : "LEVEL " + c.level;
    var l = left(c.remaining_ms, c.running);
    $("b-time").textContent = l === null ? "--:--" : DP.clockText(Math.ceil(l / 1000));
    document.body.classList.toggle("paused", !!c.level && !c.running);
    $("b-blinds").textContent = blindsText(cur);
    $("b-next").textContent = c.next ? "Next: " + blindsText(c.next) : "";
    var br = left(c.next_break_ms, c.running);
    $("b-break").textContent = br === null ? "" : cur && cur["break"] ? "" : "Next break in " + DP.clockText(Math.ceil(br / 1000));
    $("b-left").textContent = t.players_left + " / " + t.entrants;
    $("b-avg").textContent = DP.chips(t.average_stack);
    $("b-chips").textContent = DP.chips(t.chips_in_play);
    $("b-pool").textContent = money(t.prize_pool);
    $("b-h4h").hidden = !(t.hand_for_hand && t.hand_for_hand.active);
    var body = $("b-payouts");
    body.textContent = "";
    (t.payouts || []).forEach(function (p) {
      var tr = DP.el("tr");
      tr.appendChild(DP.el("td", "place", "#" + p.place));
      tr.appendChild(DP.el("td", "amount num", money(p.amount)));
      tr.appendChild(DP.el("td", "who", p.player || ""));
      body.appendChild(tr);
    });
  }

  function poll() {
    DP.api("GET", DP.API + "/tournament", "").then(function (d) {
      t = d; at = Date.now();
      status("Live", true);
      draw();
    }, function () { status("Reconnecting\u2026", false); });
  }

  poll();
  setInterval(poll, 2000);
  setInterval(draw, 1000);
})();
