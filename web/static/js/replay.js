/* Hand replayer: the list of finished hands this role may see, then one hand
 * step by step (arrow keys or the buttons). The server decides what each
 * role sees: hands older than the stream delay for the public, every hand
 * for the producer (hole cards and equities), the action without unshown
 * hole cards for the dealer. */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var token = params.get("token") || "";
  var steps = [];
  var at = 0;
  var current = null;

  function withToken(path) {
    return token ? path + (path.indexOf("?") < 0 ? "?" : "&") + "token=" + encodeURIComponent(token) : path;
  }

  function pct(x) { return (Math.round(Number(x) * 1000) / 10).toFixed(1) + "%"; }

  function show() {
    var s = steps[at];
    if (!s) return;
    $("step-text").textContent = s.text;
    $("step-no").textContent = (at + 1) + " / " + steps.length;
    $("pot").textContent = DP.chips(s.pot);
    var board = $("board");
    board.textContent = "";
    for (var i = 0; i < 5; i++) board.appendChild(s.board[i] ? DP.cardEl(s.board[i], "board") : DP.cardSlot("board"));
    var seats = $("seats");
    seats.textContent = "";
    s.seats.forEach(function (p) {
      var row = DP.el("div", "seat" + (p.folded ? " folded" : "") + (s.seat === p.seat ? " acting" : ""));
      row.dataset.seat = p.seat;
      var cards = DP.el("div", "cards");
      (p.cards.length ? p.cards : [null, null]).forEach(function (c) { cards.appendChild(DP.cardEl(c, "ov")); });
      row.appendChild(cards);
      row.appendChild(DP.el("span", "name", p.name));
      row.appendChild(DP.el("span", "stack num", DP.chips(p.stack)));
      row.appendChild(DP.el("span", "bet num", p.bet ? DP.chips(p.bet) : ""));
      var eq = s.equity && s.equity.seats && s.equity.seats[String(p.seat)];
      var e = DP.el("span", "equity num", eq && !p.folded ? pct(eq.equity) : "");
      row.appendChild(e);
      if (p.folded) row.appendChild(DP.el("span", "tag", "FOLD"));
      else if (p.all_in) row.appendChild(DP.el("span", "tag allin", "ALL-IN"));
      seats.appendChild(row);
    });
    $("prev").disabled = $("first").disabled = at === 0;
    $("next").disabled = $("last").disabled = at === steps.length - 1;
  }

  function go(n) { at = Math.max(0, Math.min(steps.length - 1, n)); show(); }

  function open(hand) {
    current = hand;
    DP.api("GET", withToken(DP.API + "/replay/hands/" + hand), "").then(function (data) {
      steps = data.steps || [];
      $("hand-view").hidden = false;
      $("hand-title").textContent = "Hand " + hand;
      $("link-phh").href = withToken(data.links.phh);
      $("link-json").href = withToken(data.links.json);
      $("link-phh").hidden = data.view === "dealer";
      document.querySelectorAll("#hands a").forEach(function (a) { a.classList.toggle("current", a.dataset.hand === String(hand)); });
      go(0);
    }, function (err) { $("empty").hidden = false; $("empty").textContent = DP.errorText(err.data) || String(err); });
  }

  function list() {
    DP.api("GET", withToken(DP.API + "/replay/hands"), "").then(function (data) {
      var ol = $("hands");
      ol.textContent = "";
      $("who").textContent = data.delay_s ? "Hands finished more than " + DP.clockText(data.delay_s) + " ago" : "Every finished hand";
      data.hands.slice().reverse().forEach(function (h) {
        var li = DP.el("li");
        var a = DP.el("a", "", "Hand " + h.hand + " \u00b7 " + new Date(h.ended_ms).toLocaleTimeString());
        a.href = "#hand-" + h.hand;
        a.dataset.hand = h.hand;
        a.addEventListener("click", function (ev) { ev.preventDefault(); open(h.hand); });
        li.appendChild(a);
        ol.appendChild(li);
      });
      $("empty").hidden = data.hands.length > 0;
      $("empty").textContent = data.hands.length ? "" : "No finished hand to replay yet.";
      var want = Number((location.hash.match(/hand-(\d+)/) || [])[1]);
      if (want) open(want);
    }, function (err) { $("empty").hidden = false; $("empty").textContent = DP.errorText(err.data) || String(err); });
  }

  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(at - 1); });
  $("next").addEventListener("click", function () { go(at + 1); });
  $("last").addEventListener("click", function () { go(steps.length - 1); });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowRight") go(at + 1);
    if (ev.key === "ArrowLeft") go(at - 1);
  });
  list();
})();
