/* Setup: players, seats, stacks, rule profile, blinds, clock levels, devices.
 * The form is filled once from the server; live updates only refresh the
 * device list and the "hand running" notice so typing is never overwritten. */
(function () {
  "use strict";
  var DP = window.DP;
  var $ = function (id) { return document.getElementById(id); };
  var MAX_SEATS = 10;
  var token = "";

  function intOrNull(input) {
    var t = String(input.value).trim();
    if (t === "") return null;
    var n = Number(t);
    return Number.isInteger(n) ? n : NaN;
  }

  /* ---------- seats ---------- */

  function buildSeatRows() {
    var body = $("seat-rows");
    var btn = $("button");
    body.textContent = "";
    btn.textContent = "";
    for (var i = 1; i <= MAX_SEATS; i++) {
      var tr = DP.el("tr");
      tr.dataset.seat = i;
      tr.appendChild(DP.el("td", "seat-cell", i));
      var name = DP.el("input");
      name.type = "text"; name.maxLength = 40; name.className = "name"; name.placeholder = "empty";
      name.setAttribute("aria-label", "seat " + i + " player");
      var stack = DP.el("input");
      stack.type = "number"; stack.min = "0"; stack.step = "1"; stack.className = "stack"; stack.inputMode = "numeric";
      stack.setAttribute("aria-label", "seat " + i + " stack");
      var td1 = DP.el("td"); td1.appendChild(name); tr.appendChild(td1);
      var td2 = DP.el("td"); td2.appendChild(stack); tr.appendChild(td2);
      body.appendChild(tr);
      var opt = DP.el("option", null, "Seat " + i);
      opt.value = String(i);
      btn.appendChild(opt);
    }
  }

  function fillSetup(s) {
    if (!s) return;
    if (s.profile) $("profile").value = String(s.profile).replace(/\+custom$/, "");
    if (s.structure) $("structure").value = s.structure;
    var blinds = s.blinds || [];
    $("sb").value = blinds[0] !== undefined ? blinds[0] : "";
    $("bb").value = blinds[1] !== undefined ? blinds[1] : "";
    $("ante").value = s.ante || 0;
    if (s.button) $("button").value = String(s.button);
    var seats = s.seats || {};
    var names = s.names || {};
    document.querySelectorAll("#seat-rows tr").forEach(function (tr) {
      var k = tr.dataset.seat;
      var v = seats[k];
      var name = v && typeof v === "object" ? v.name : names[k];
      var stack = v && typeof v === "object" ? v.stack : v;
      tr.querySelector(".name").value = name || "";
      tr.querySelector(".stack").value = stack === undefined || stack === null ? "" : stack;
    });
  }

  function readSetup() {
    var seats = {};
    var names = {};
    var problems = [];
    document.querySelectorAll("#seat-rows tr").forEach(function (tr) {
      var k = tr.dataset.seat;
      var name = tr.querySelector(".name").value.trim();
      var stack = intOrNull(tr.querySelector(".stack"));
      if (stack === null && !name) return;
      if (stack === null || isNaN(stack) || stack < 1) {
        problems.push(["setup.seats." + k, "seat " + k + ": enter a stack of at least 1 chip"]);
        return;
      }
      seats[k] = stack;
      if (name) names[k] = name;
    });
    var sb = intOrNull($("sb")), bb = intOrNull($("bb")), ante = intOrNull($("ante"));
    if (sb === null || isNaN(sb) || sb < 0) problems.push(["setup.blinds", "small blind: a whole number of at least 0"]);
    if (bb === null || isNaN(bb) || bb < 1) problems.push(["setup.blinds", "big blind: a whole number of at least 1"]);
    if (ante !== null && (isNaN(ante) || ante < 0)) problems.push(["setup.ante", "ante: a whole number of at least 0"]);
    if (Object.keys(seats).length < 2 && !problems.length) problems.push(["setup.seats", "a hand needs at least two seats with chips"]);
    return {
      body: {
        profile: $("profile").value, structure: $("structure").value,
        blinds: [sb, bb], ante: ante || 0, button: Number($("button").value), seats: seats, names: names
      },
      problems: problems
    };
  }

  // Point at the field an error names ("setup.seats.3", "setup.blinds"...).
  function markField(where) {
    document.querySelectorAll(".bad-field").forEach(function (e) { e.classList.remove("bad-field"); });
    if (!where) return;
    var m = /seats\.(\d+)/.exec(where) || /names\.(\d+)/.exec(where);
    var el = null;
    if (m) el = document.querySelector('#seat-rows tr[data-seat="' + m[1] + '"] ' + (/names/.test(where) ? ".name" : ".stack"));
    else if (/blinds/.test(where)) el = $("sb").value === "" ? $("sb") : $("bb");
    else if (/ante/.test(where)) el = $("ante");
    else if (/button/.test(where)) el = $("button");
    else if (/profile/.test(where)) el = $("profile");
    else if (/structure/.test(where)) el = $("structure");
    if (el) { el.classList.add("bad-field"); el.focus(); }
  }

  function msg(id, text, ok) {
    var m = $(id);
    m.textContent = text;
    m.className = "form-msg " + (ok ? "ok" : text ? "bad" : "");
  }

  /* ---------- between hands: the floor's changes, each its own entry ---------- */

  var floorSeats = null; // the live table's seats, from the state stream

  function post(obs, okText) {
    msg("floor-msg", "Saving…", true);
    obs.source = "setup";
    return DP.api("POST", DP.API + "/observations", token, obs).then(function () {
      msg("floor-msg", okText, true);
    }, function (err) {
      var e = err.data && err.data.error;
      msg("floor-msg", err.message + (e && e.rule ? " (" + e.rule + ")" : ""), false);
    });
  }

  function button(text, cls, onClick) {
    var b = DP.el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function numberInput(cls, label, placeholder) {
    var i = DP.el("input", cls);
    i.type = "number"; i.min = "1"; i.step = "1"; i.inputMode = "numeric"; i.placeholder = placeholder || "";
    i.setAttribute("aria-label", label);
    return i;
  }

  function seatedRow(tr, k, s) {
    var name = DP.el("td", null, s.name || "–");
    if (s.away) name.appendChild(DP.el("span", "tag", "away"));
    tr.appendChild(name);
    tr.appendChild(DP.el("td", "num", DP.chips(s.stack)));
    var acts = DP.el("div", "acts");
    var amount = numberInput("rebuy-amount", "seat " + k + " chips to add", "chips");
    acts.appendChild(amount);
    acts.appendChild(button("Add chips", "rebuy", function () {
      var n = Number(amount.value);
      if (!Number.isInteger(n) || n < 1) { msg("floor-msg", "seat " + k + ": enter the chips to add", false); return; }
      post({ type: "rebuy", seat: Number(k), amount: n }, "Seat " + k + ": " + DP.chips(n) + " added");
    }));
    acts.appendChild(button(s.away ? "Back" : "Away", "away", function () {
      post({ type: "away", seat: Number(k), away: !s.away }, "Seat " + k + (s.away ? " is back" : " is away"));
    }));
    acts.appendChild(button("Remove", "remove", function () {
      post({ type: "remove_player", seat: Number(k) }, "Seat " + k + " is free");
    }));
    var td = DP.el("td"); td.appendChild(acts); tr.appendChild(td);
  }

  function emptyRow(tr, k) {
    var name = DP.el("input", "new-name");
    name.type = "text"; name.maxLength = 40; name.placeholder = "new player";
    name.setAttribute("aria-label", "seat " + k + " new player");
    var tdName = DP.el("td"); tdName.appendChild(name); tr.appendChild(tdName);
    var stack = numberInput("new-stack", "seat " + k + " new stack", "stack");
    var tdStack = DP.el("td"); tdStack.appendChild(stack); tr.appendChild(tdStack);
    var acts = DP.el("div", "acts");
    var now = DP.el("input", "post-now"); now.type = "checkbox";
    var nowLabel = DP.el("label", null); nowLabel.appendChild(now); nowLabel.appendChild(document.createTextNode("posts now"));
    var moved = DP.el("input", "moved"); moved.type = "checkbox";
    var movedLabel = DP.el("label", null); movedLabel.appendChild(moved); movedLabel.appendChild(document.createTextNode("moved"));
    acts.appendChild(nowLabel);
    acts.appendChild(movedLabel);
    acts.appendChild(button("Seat", "seat-player", function () {
      var n = Number(stack.value);
      if (!Number.isInteger(n) || n < 1) { msg("floor-msg", "seat " + k + ": enter a stack of at least 1 chip", false); return; }
      post({ type: "seat_player", seat: Number(k), stack: n, name: name.value.trim(), post_now: now.checked, moved: moved.checked },
        "Seat " + k + ": " + (name.value.trim() || "new player") + " sits down");
    }));
    var td = DP.el("td"); td.appendChild(acts); tr.appendChild(td);
  }

  function drawFloor(seats) {
    var key = JSON.stringify(seats);
    if (key === floorSeats) return; // typing in a row is never wiped by a state that did not change
    floorSeats = key;
    var body = $("floor-rows");
    body.textContent = "";
    for (var i = 1; i <= MAX_SEATS; i++) {
      var k = String(i);
      var s = seats[k];
      var tr = DP.el("tr");
      tr.dataset.seat = k;
      tr.appendChild(DP.el("td", "seat-cell", k));
      if (s && s.stack > 0) seatedRow(tr, k, s);
      else emptyRow(tr, k);
      body.appendChild(tr);
    }
  }

  function fillLevel(s) {
    if (!s || document.activeElement && /^lv-/.test(document.activeElement.id)) return;
    var b = s.blinds || [];
    $("lv-sb").value = b[0] !== undefined ? b[0] : "";
    $("lv-bb").value = b[1] !== undefined ? b[1] : "";
    $("lv-ante").value = s.ante || 0;
  }

  function showTable(snap) {
    var t = snap && snap.table && snap.table.table;
    $("no-table").hidden = !(snap && snap.awaiting_setup);
    $("floor").hidden = !t;
    if (!t) return;
    // The live table in the setup's form: who sits where with what now (busted seats are empty).
    var live = snap.setup || {};
    var seats = {};
    Object.keys(live.seats || {}).forEach(function (k) {
      var s = t.seats[k] || {};
      seats[k] = { name: (live.names || {})[k] || s.name || "", stack: live.seats[k], away: !!s.away };
    });
    drawFloor(seats);
    fillLevel(snap.setup);
  }

  /* ---------- levels ---------- */

  function levelRow(l) {
    var tr = DP.el("tr");
    tr.appendChild(DP.el("td", "lvl-no"));
    [["small_blind", 0], ["big_blind", 1], ["ante", 0], ["minutes", 1]].forEach(function (f) {
      var td = DP.el("td");
      var inp = DP.el("input");
      inp.type = "number"; inp.min = String(f[1]); inp.step = f[0] === "minutes" ? "any" : "1";
      inp.className = f[0]; inp.inputMode = "numeric";
      inp.value = l && l[f[0]] !== undefined ? l[f[0]] : (f[0] === "ante" ? 0 : "");
      td.appendChild(inp);
      tr.appendChild(td);
    });
    var tdb = DP.el("td");
    var br = DP.el("input"); br.type = "checkbox"; br.className = "brk"; br.checked = !!(l && l["break"]);
    tdb.appendChild(br); tr.appendChild(tdb);
    var tdx = DP.el("td");
    var del = DP.el("button", "del", "✕"); del.type = "button"; del.setAttribute("aria-label", "remove level");
    del.onclick = function () { tr.remove(); numberLevels(); };
    tdx.appendChild(del); tr.appendChild(tdx);
    return tr;
  }

  function numberLevels() {
    document.querySelectorAll("#level-rows tr").forEach(function (tr, i) { tr.querySelector(".lvl-no").textContent = i + 1; });
  }

  function fillLevels(levels) {
    var body = $("level-rows");
    body.textContent = "";
    (levels && levels.length ? levels : [null]).forEach(function (l) { body.appendChild(levelRow(l)); });
    numberLevels();
  }

  function readLevels() {
    var out = [];
    var problem = "";
    document.querySelectorAll("#level-rows tr").forEach(function (tr, i) {
      var l = {};
      ["small_blind", "big_blind", "ante", "minutes"].forEach(function (k) {
        var v = Number(tr.querySelector("." + k).value);
        l[k] = v;
        if (tr.querySelector("." + k).value === "" && k !== "ante" && !problem) problem = "level " + (i + 1) + ": " + k.replace("_", " ") + " is missing";
      });
      l.ante = l.ante || 0;
      l["break"] = tr.querySelector(".brk").checked;
      out.push(l);
    });
    return { levels: out, problem: problem };
  }

  /* ---------- devices ---------- */

  function fillDevices(d) {
    var dl = $("devices");
    dl.textContent = "";
    var names = Object.keys(d || {});
    if (!names.length) {
      dl.appendChild(DP.el("dt", null, "none"));
      dl.appendChild(DP.el("dd", null, "no devices reported"));
      return;
    }
    names.forEach(function (k) {
      var v = d[k];
      dl.appendChild(DP.el("dt", null, k));
      var dd = DP.el("dd");
      if (v && typeof v === "object") {
        Object.keys(v).forEach(function (f) {
          var item = DP.el("span", "kv");
          item.appendChild(DP.el("span", "k", f.replace(/_/g, " ")));
          var val = v[f];
          var shown = typeof val === "number" && !Number.isInteger(val) ? val.toFixed(1) : (val && typeof val === "object" ? JSON.stringify(val) : String(val));
          var e = DP.el("b", null, shown);
          if (val === true || /^(ok|connected|ready)$/i.test(String(val))) e.className = "good";
          if (val === false || /^(disconnected|failed|moved|fault|too light)$/i.test(String(val))) e.className = "warn";
          item.appendChild(e);
          dd.appendChild(item);
        });
      } else {
        dd.textContent = String(v);
      }
      dl.appendChild(dd);
    });
  }

  /* ---------- start ---------- */

  function start(t, refused) {
    token = t;
    DP.api("GET", DP.API + "/setup", token).then(function (r) {
      fillSetup(r && (r.setup || r));
      $("running").hidden = !(r && r.hand_running);
      $("no-table").hidden = !(r && r.table === false);
    }, function (err) {
      if (err.status === 401 || err.status === 403) refused(err);
      else msg("setup-msg", err.message, false);
    });
    DP.api("GET", DP.API + "/clock", token).then(function (c) { fillLevels(c && c.levels); }, function () { fillLevels([]); });
    DP.connect({
      token: token,
      onState: function (snap) {
        fillDevices(snap.devices);
        var v = DP.view(snap);
        $("running").hidden = !v.inProgress;
        if (v.tableName) $("table-name").textContent = v.tableName;
        showTable(snap);
      },
      onStatus: DP.statusBanner($("conn")),
      onAuthError: refused
    });
  }

  buildSeatRows();
  fillLevels([]);

  $("game-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var r = readSetup();
    if (r.problems.length) { markField(r.problems[0][0]); msg("setup-msg", r.problems[0][1], false); return; }
    markField(null);
    msg("setup-msg", "Saving…", true);
    var path = DP.API + "/setup" + ($("void-hand").checked ? "?void_hand=1" : "");
    DP.api("POST", path, token, r.body).then(function (resp) {
      $("void-hand").checked = false;
      msg("setup-msg", resp && resp.hand_running ? "Saved: the new hand is dealt with this setup." : "Saved. The next hand uses this setup.", true);
      if (resp && resp.setup) fillSetup(resp.setup);
    }, function (err) {
      var e = err.data && err.data.error;
      markField(e && e.where);
      msg("setup-msg", err.message, false);
    });
  });

  $("level-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var sb = intOrNull($("lv-sb")), bb = intOrNull($("lv-bb")), ante = intOrNull($("lv-ante")) || 0;
    if (sb === null || bb === null || isNaN(sb) || isNaN(bb) || sb < 0 || bb < 0 || isNaN(ante) || ante < 0) {
      msg("floor-msg", "blinds: whole numbers of at least 0", false);
      return;
    }
    post({ type: "level", small_blind: sb, big_blind: bb, ante: ante },
      "From the next hand: " + DP.chips(sb) + " / " + DP.chips(bb) + (ante ? " ante " + DP.chips(ante) : ""));
  });

  $("add-level").addEventListener("click", function () {
    var rows = document.querySelectorAll("#level-rows tr");
    var last = rows.length ? rows[rows.length - 1] : null;
    var guess = null;
    if (last) {
      var sb = Number(last.querySelector(".small_blind").value) || 0;
      var bb = Number(last.querySelector(".big_blind").value) || 0;
      guess = { small_blind: sb * 2, big_blind: bb * 2, ante: Number(last.querySelector(".ante").value) || 0, minutes: Number(last.querySelector(".minutes").value) || 20 };
    }
    $("level-rows").appendChild(levelRow(guess));
    numberLevels();
  });

  $("levels-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var r = readLevels();
    if (r.problem) { msg("levels-msg", r.problem, false); return; }
    DP.api("POST", DP.API + "/clock", token, { action: "set_levels", levels: r.levels }).then(function (c) {
      msg("levels-msg", "Saved " + r.levels.length + " levels. Start the clock from /clock.", true);
      if (c && c.levels) fillLevels(c.levels);
    }, function (err) { msg("levels-msg", err.message, false); });
  });

  DP.withToken("dealer", start);
})();
