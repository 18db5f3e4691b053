/* scorepad web pages: a little vanilla JavaScript. Text from users is only ever set with
   textContent or arrives in server-rendered (escaped) HTML; nothing is built with innerHTML
   from data. */
(function () {
  "use strict";

  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var $$ = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };

  var UPPER = ["aces", "twos", "threes", "fours", "fives", "sixes"];
  var LOWER = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance"];
  var LABELS = { aces: "Aces", twos: "Twos", threes: "Threes", fours: "Fours", fives: "Fives", sixes: "Sixes",
    three_of_a_kind: "3 of a kind", four_of_a_kind: "4 of a kind", full_house: "Full House",
    small_straight: "Sm. Straight", large_straight: "Lg. Straight", yahtzee: "YAHTZEE", chance: "Chance" };

  function jsonData(id) {
    var el = document.getElementById(id);
    if (!el) { return null; }
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function num(v) {
    v = (v || "").trim();
    if (v === "") { return null; }
    if (v === "-" || v === "x" || v === "X" || v === "/" || v === "\u2013" || v === "\u2014") { return 0; }
    var n = parseInt(v, 10);
    return isNaN(n) ? null : n;
  }

  /* ---- groups kept in this browser ---------------------------------------------------- */
  var KEY = "scorepad.groups";
  function groups() {
    try { var g = JSON.parse(localStorage.getItem(KEY) || "[]"); return Array.isArray(g) ? g : []; }
    catch (e) { return []; }
  }
  function saveGroup(g) {
    var list = groups().filter(function (x) { return x.id !== g.id; });
    list.unshift({ id: g.id, name: g.name || "Group", token: g.token });
    localStorage.setItem(KEY, JSON.stringify(list));
  }
  function groupById(id) { return groups().filter(function (x) { return x.id === id; })[0] || null; }

  function api(method, url, body, token) {
    var h = { "Accept": "application/json" };
    if (body !== undefined) { h["Content-Type"] = "application/json"; }
    if (token) { h["Authorization"] = "Bearer " + token; }
    return fetch(url, { method: method, headers: h, body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin" }).then(function (r) {
      return r.text().then(function (t) {
        var data = null;
        try { data = t ? JSON.parse(t) : null; } catch (e) { data = null; }
        if (!r.ok) {
          var msg = (data && (data.detail || data.title)) || ("HTTP " + r.status);
          var err = new Error(msg); err.status = r.status; err.data = data; throw err;
        }
        return data;
      });
    });
  }

  /* ---- home ---------------------------------------------------------------------------- */
  function initHome() {
    var form = $("#scan-form");
    if (!form) { return; }
    var photo = $("#photo"), typeLink = $("#type-card");
    function sync() {
      $$(".rule", form).forEach(function (l) { l.classList.toggle("chosen", $("input", l).checked); });
      var r = $("input[name=rules]:checked", form);
      if (typeLink && r) { typeLink.href = typeLink.getAttribute("data-base") + "?rules=" + encodeURIComponent(r.value); }
    }
    $$("input[name=rules]", form).forEach(function (i) { i.addEventListener("change", sync); });
    sync();
    function busy() {
      var b = $("#scan-busy"); if (b) { b.hidden = false; }
      var s = $("#scan-submit"); if (s) { s.disabled = true; }
    }
    if (photo) {
      photo.addEventListener("change", function () {
        if (photo.files && photo.files[0]) {
          $("#photo-name").textContent = photo.files[0].name;
          busy();
          form.submit();
        }
      });
    }
    form.addEventListener("submit", function (ev) {
      if (photo && (!photo.files || !photo.files.length)) { ev.preventDefault(); photo.click(); return; }
      busy();
    });
  }

  /* ---- the on-screen pad: totals as you type, keyboard moves box to box ----------------- */
  function currentRules() {
    var all = jsonData("rules-data") || {};
    var sel = $("select[name=rules]") || $("input[name=rules]");
    var name = sel ? sel.value : null;
    if (!name) { var sheet = jsonData("sheet-data"); name = sheet && typeof sheet.rules === "string" ? sheet.rules : "hasbro"; }
    return { name: name, data: all[name] || { upper_bonus_threshold: 63, upper_bonus: 35, yahtzee_bonus: 100 } };
  }

  function parseName(name) {
    var m = /^p(\d+)\.g(\d+)\.(.+)$/.exec(name || "");
    return m ? { p: +m[1], g: +m[2], key: m[3] } : null;
  }

  function columnValues(form, p, g) {
    var get = function (k) {
      var i = form.querySelector('[name="p' + p + ".g" + g + "." + k + '"]');
      return i ? num(i.value) : null;
    };
    var out = {}; UPPER.concat(LOWER).forEach(function (k) { out[k] = get(k); });
    out.checks = get("yahtzee_bonus_checks") || 0;
    return out;
  }

  function computeTotals(form) {
    var mode = (form.querySelector(".cards") || {}).getAttribute ? form.querySelector(".cards").getAttribute("data-mode") : "edit";
    var rules = currentRules().data;
    var cols = {};
    $$("input.box-in", form).forEach(function (i) {
      var n = parseName(i.name); if (n) { cols[n.p + ":" + n.g] = n; }
    });
    Object.keys(cols).forEach(function (k) {
      var p = cols[k].p, g = cols[k].g, v = columnValues(form, p, g);
      var filled = function (keys) { return keys.every(function (x) { return v[x] !== null; }); };
      var sum = function (keys) { return keys.reduce(function (a, x) { return a + (v[x] || 0); }, 0); };
      var upper = sum(UPPER), bonus = upper >= rules.upper_bonus_threshold ? rules.upper_bonus : 0;
      var yb = v.checks * rules.yahtzee_bonus, lower = sum(LOWER) + yb;
      var upperDone = filled(UPPER), allDone = upperDone && filled(LOWER);
      var totals = {
        upper_total_score: [upper, upperDone], upper_bonus: [bonus, upperDone], upper_total: [upper + bonus, upperDone],
        yahtzee_bonus: [yb, allDone], lower_total: [lower, allDone], upper_total_repeat: [upper + bonus, allDone],
        grand_total: [upper + bonus + lower, allDone]
      };
      Object.keys(totals).forEach(function (t) {
        var i = form.querySelector('input.box-in[name="p' + p + ".g" + g + "." + t + '"]');
        if (!i || i.type === "hidden") { return; }
        var any = UPPER.concat(LOWER).some(function (x) { return v[x] !== null; });
        i.placeholder = any ? String(totals[t][0]) : "";
        if (i.getAttribute("data-manual") === "1" || mode !== "edit") { i.classList.remove("auto"); return; }
        if (totals[t][1]) { i.value = String(totals[t][0]); i.classList.add("auto"); }
        else { i.value = ""; i.classList.remove("auto"); }
      });
    });
  }

  function navItems(form) {
    return $$("input.box-in:not([type=hidden]), button.flag-btn", form).filter(function (e) {
      return parseName(e.name || e.getAttribute("data-field"));
    });
  }

  function move(form, from, dir) {
    var items = navItems(form), me = parseName(from.name || from.getAttribute("data-field"));
    if (!me) { return false; }
    var target = null;
    if (dir === "down" || dir === "up" || dir === "next") {
      // Enter ("next") skips the totals, which fill themselves; the arrows reach every box.
      var idx = items.indexOf(from), step = dir === "up" ? -1 : 1;
      for (var i = idx + step; i >= 0 && i < items.length; i += step) {
        var n = parseName(items[i].name || items[i].getAttribute("data-field"));
        if (dir === "next" && items[i].getAttribute("data-kind") === "total" && from.getAttribute("data-kind") !== "total") { continue; }
        if (n.p === me.p && n.g === me.g) { target = items[i]; break; }
      }
      if (!target && dir !== "up") {  // the end of a column: the top of the next one
        var next = items.filter(function (e) { var n = parseName(e.name || e.getAttribute("data-field")); return (n.p === me.p && n.g === me.g + 1) || (n.p === me.p + 1 && n.g === 0); });
        target = next[0] || null;
      }
    } else {
      var g = me.g + (dir === "right" ? 1 : -1);
      target = items.filter(function (e) { var n = parseName(e.name || e.getAttribute("data-field")); return n.p === me.p && n.g === g && n.key === me.key; })[0] || null;
    }
    if (target) { target.focus(); if (target.select) { target.select(); } return true; }
    return false;
  }

  function initPad() {
    var form = $("#pad-form");
    if (!form) { return; }
    form.addEventListener("input", function (ev) {
      var t = ev.target;
      if (t.classList && t.classList.contains("box-in") && t.getAttribute("data-kind") === "total") {
        if (t.value.trim() === "") { t.removeAttribute("data-manual"); } else { t.setAttribute("data-manual", "1"); }
        t.classList.remove("auto");
      }
      if (t.classList && t.classList.contains("box-in") && t.type !== "hidden") {
        var n = parseName(t.name), c = n && form.querySelector('input.confirm-in[name="confirm.' + t.name + '"]');
        if (c) { c.value = "1"; }
      }
      computeTotals(form);
    });
    form.addEventListener("submit", function (ev) {
      // Redrawing the pad (+ Player, + Game column): totals filled in here are sent blank so
      // that they keep following the boxes; on "Check the card" they are sent as written.
      if (ev.submitter && ev.submitter.name === "action") {
        $$("input.box-in.auto", form).forEach(function (i) { i.value = ""; });
      }
    });
    var rs = $("select[name=rules]", form);
    if (rs) { rs.addEventListener("change", function () { computeTotals(form); }); }
    form.addEventListener("keydown", function (ev) {
      var t = ev.target;
      if (!(t.classList && (t.classList.contains("box-in") || t.classList.contains("flag-btn")))) {
        if (ev.key === "Enter" && t.tagName === "INPUT" && t.form === form) { ev.preventDefault(); }
        return;
      }
      var isInput = t.tagName === "INPUT", len = isInput ? t.value.length : 0;
      var atStart = !isInput || (t.selectionStart === 0 && t.selectionEnd === 0) || t.selectionEnd - t.selectionStart === len;
      var atEnd = !isInput || t.selectionStart === len;
      if (ev.key === "Enter" && isInput) { ev.preventDefault(); move(form, t, ev.shiftKey ? "up" : "next"); }
      else if (ev.key === "ArrowDown") { if (move(form, t, "down")) { ev.preventDefault(); } }
      else if (ev.key === "ArrowUp") { if (move(form, t, "up")) { ev.preventDefault(); } }
      else if (ev.key === "ArrowRight" && atEnd) { if (move(form, t, "right")) { ev.preventDefault(); } }
      else if (ev.key === "ArrowLeft" && atStart) { if (move(form, t, "left")) { ev.preventDefault(); } }
    });
    computeTotals(form);
  }

  /* ---- review: the cells the reader was unsure of ------------------------------------- */
  function initReview() {
    var form = $(".review-form"), dlg = $("#cell-dialog");
    if (!form || !dlg) { return; }
    var btn = $("#check-btn"), hint = $("#check-hint"), current = null;
    var img = $("#pad-photo"), wrap = $("#photo-wrap"), marks = {};
    function placeMarks() {  // outline each unsure box on the photo itself
      if (!img || !img.naturalWidth) { return; }
      var sx = img.clientWidth / img.naturalWidth, sy = img.clientHeight / img.naturalHeight;
      $$(".flag-btn", form).forEach(function (b) {
        var box = (b.getAttribute("data-box") || "").split(",").map(Number), f = b.getAttribute("data-field");
        if (box.length !== 4 || !(box[2] > box[0])) { return; }
        var m = marks[f];
        if (!m) { m = marks[f] = el("div", "photo-hl"); m.setAttribute("aria-hidden", "true"); wrap.appendChild(m); }
        m.style.left = (img.offsetLeft + box[0] * sx) + "px";
        m.style.top = (img.offsetTop + box[1] * sy) + "px";
        m.style.width = ((box[2] - box[0]) * sx) + "px";
        m.style.height = ((box[3] - box[1]) * sy) + "px";
        m.classList.toggle("ok", b.parentNode.classList.contains("confirmed"));
        m.classList.toggle("now", b === current);
      });
    }
    if (img && wrap) {
      if (img.complete) { placeMarks(); } else { img.addEventListener("load", placeMarks); }
      window.addEventListener("resize", placeMarks);
    }
    function refresh() {
      var left = $$("input.confirm-in", form).filter(function (c) { return c.value !== "1"; }).length;
      var lc = $("#left-count"); if (lc) { lc.textContent = String(left); }
      btn.disabled = left > 0;
      btn.setAttribute("aria-disabled", left > 0 ? "true" : "false");
      hint.textContent = left > 0 ? left + (left === 1 ? " marked box" : " marked boxes") + " still to confirm" : "All marked boxes confirmed";
    }
    $$(".flag-btn", form).forEach(function (b) {
      b.addEventListener("click", function () {
        current = b;
        var name = b.getAttribute("data-field"), hidden = form.querySelector('input[type=hidden][name="' + name + '"]');
        $("#cd-title").textContent = b.getAttribute("data-label");
        $("#cd-crop").src = b.getAttribute("data-crop");
        var read = b.getAttribute("data-read"), cands = b.getAttribute("data-candidates");
        $("#cd-read").textContent = read === "" ? "The reader could not read this box." :
          "The reader saw " + read + " (" + b.getAttribute("data-confidence") + "% sure)" +
          (cands && cands !== read ? "; it might also be " + cands.split(" ").filter(function (c) { return c !== read; }).join(" or ") : "") + ".";
        var v = $("#cd-value"), isName = b.getAttribute("data-kind") === "name";
        v.value = hidden ? hidden.value : "";
        v.setAttribute("inputmode", isName ? "text" : "numeric");
        v.setAttribute("maxlength", v.getAttribute(isName ? "data-max-name" : "data-max-value"));
        $("#cd-hint").hidden = isName;
        dlg.returnValue = "";
        placeMarks();
        if (typeof dlg.showModal === "function") { dlg.showModal(); } else { dlg.setAttribute("open", ""); }
        v.focus(); v.select();
      });
    });
    $("#cd-value").addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") { ev.preventDefault(); $("#cd-ok").click(); }
    });
    dlg.addEventListener("close", function () {
      if (!current) { return; }
      if (dlg.returnValue === "ok") {
        var name = current.getAttribute("data-field");
        var hidden = form.querySelector('input[type=hidden][name="' + name + '"]');
        var conf = form.querySelector('input.confirm-in[name="confirm.' + name + '"]');
        var val = $("#cd-value").value.trim();
        if (hidden) { hidden.value = val; }
        if (conf) { conf.value = "1"; }
        $(".v", current).textContent = val === "" ? "\u2013" : val;
        current.parentNode.classList.add("confirmed");
        current.setAttribute("aria-label", current.getAttribute("data-label") + ": confirmed " + (val === "" ? "empty" : val));
        computeTotals(form);
        refresh();
      }
      var back = current; current = null; placeMarks(); back.focus();
    });
    form.addEventListener("submit", function (ev) { if (btn.disabled) { ev.preventDefault(); } });
    refresh();
  }

  /* ---- "What can I score with these dice?" --------------------------------------------- */
  var REASONS = {
    NATURAL: "what the dice score in this box", ZERO: "a zero: you may always scratch a box",
    JOKER: "joker: a bonus Yahtzee scores the box's full value",
    JOKER_UPPER: "a bonus Yahtzee must go in its own upper box first",
    JOKER_UPPER_ZERO: "upper box and lower section are full: a zero in an upper box",
    BOX_FILLED: "already filled", FORBIDDEN_UPPER_FIRST: "the Yahtzee's own upper box is open: it must go there",
    FORBIDDEN_PRIORITY: "an earlier joker step still has room", FORBIDDEN_LOWER_OPEN: "a lower box is still open: it must go there first",
    ZERO_NOT_ALLOWED: "no zero here under these rules"
  };
  function initOptions() {
    var panel = $("#options");
    if (!panel) { return; }
    var dice = $$(".die-in", panel), out = $("#opt-result");
    function names() {  // the column list says whose card it is
      var sheet = jsonData("sheet-data");
      $$("#opt-column option").forEach(function (o) {
        var pg = o.value.split(":"), p = +pg[0], g = +pg[1], n = null;
        var inp = document.querySelector('[name="p' + p + '.name"]');
        if (inp && inp.value.trim()) { n = inp.value.trim(); }
        else if (sheet && sheet.players[p]) { n = sheet.players[p].name; }
        o.textContent = (n || "Player " + (p + 1)) + ", game " + (g + 1);
      });
    }
    names();
    $$("input.name-in").forEach(function (i) { i.addEventListener("input", names); });
    dice.forEach(function (d, i) {
      d.addEventListener("input", function () {
        d.value = d.value.replace(/[^1-6]/g, "").slice(0, 1);
        if (d.value && dice[i + 1]) { dice[i + 1].focus(); }
      });
      d.addEventListener("keydown", function (ev) {
        if (ev.key === "Backspace" && !d.value && dice[i - 1]) { dice[i - 1].focus(); }
        if (ev.key === "Enter") { ev.preventDefault(); $("#opt-ask").click(); }
      });
    });
    $("#opt-ask").addEventListener("click", function () {
      var vals = dice.map(function (d) { return parseInt(d.value, 10); });
      out.textContent = "";
      if (vals.some(function (v) { return !(v >= 1 && v <= 6); })) { out.appendChild(el("p", "alert", "Enter all five dice, each 1 to 6.")); return; }
      var pg = $("#opt-column").value.split(":"), p = +pg[0], g = +pg[1], boxes = {};
      var form = $("#pad-form"), sheet = jsonData("sheet-data");
      UPPER.concat(LOWER).forEach(function (k) {
        var v = null;
        if (form) {
          var i = form.querySelector('[name="p' + p + ".g" + g + "." + k + '"]');
          v = i ? num(i.value) : null;
        } else if (sheet && sheet.players[p] && sheet.players[p].games[g]) {
          var b = sheet.players[p].games[g].boxes || {};
          v = b[k] === undefined ? null : b[k];
        }
        if (v !== null) { boxes[k] = v; }
      });
      api("POST", "/api/v1/options", { rules: currentRules().name, boxes: boxes, dice: vals }).then(function (r) {
        var head = el("p", null, "");
        head.appendChild(el("strong", null, "Dice " + r.dice.join(" ") + " under " + r.rule_set + ". "));
        if (r.bonus) { head.appendChild(document.createTextNode("A bonus Yahtzee: tick the YAHTZEE BONUS box. ")); }
        if (r.joker) { head.appendChild(document.createTextNode("Joker rules apply.")); }
        out.appendChild(head);
        var ok = r.options.filter(function (o) { return o.allowed; }), no = r.options.filter(function (o) { return !o.allowed && o.reason !== "BOX_FILLED"; });
        var ul = el("ul", "opt-list");
        ok.sort(function (a, b) { return Math.max.apply(null, b.values) - Math.max.apply(null, a.values); });
        ok.forEach(function (o) {
          var li = el("li", "yes");
          li.setAttribute("data-box", o.box);
          li.appendChild(el("span", "box", LABELS[o.box] || o.box));
          li.appendChild(el("span", "val", o.values.join(" or ")));
          li.appendChild(el("span", "why", (REASONS[o.reason] || o.reason) + (o.rule && o.rule.length ? " \u2014 rule book " + o.rule.join(", ") : "")));
          ul.appendChild(li);
        });
        out.appendChild(el("h3", null, ok.length ? "You may score" : "No open box takes this roll"));
        out.appendChild(ul);
        if (no.length) {
          var det = el("details", "opt-closed"); det.appendChild(el("summary", null, "Not allowed (" + no.length + ")"));
          var ul2 = el("ul", "opt-list");
          no.forEach(function (o) {
            var li = el("li", "no"); li.appendChild(el("span", "box", LABELS[o.box] || o.box)); li.appendChild(el("span", "val", "\u2013"));
            li.appendChild(el("span", "why", (REASONS[o.reason] || o.reason) + (o.rule && o.rule.length ? " \u2014 rule book " + o.rule.join(", ") : "")));
            ul2.appendChild(li);
          });
          det.appendChild(ul2); out.appendChild(det);
        }
      }).catch(function (e) { out.appendChild(el("p", "alert", "Could not ask: " + e.message)); });
    });
  }

  /* ---- save into a group ------------------------------------------------------------- */
  function initSave() {
    var panel = $("#save");
    if (!panel) { return; }
    var sel = $("#save-group"), status = $("#save-status"), correct = panel.getAttribute("data-correct");
    var list = groups();
    sel.textContent = "";
    list.forEach(function (g) { var o = el("option", null, g.name); o.value = g.id; sel.appendChild(o); });
    var o = el("option", null, "+ A new group"); o.value = ""; sel.appendChild(o);
    function sync() { $("#save-new").hidden = sel.value !== ""; }
    if (correct) {
      var gid = correct.split(":")[0];
      if (groupById(gid)) { sel.value = gid; }
      $("#save-groups").hidden = true;
    }
    sel.addEventListener("change", sync); sync();
    $("#save-btn").addEventListener("click", function () {
      var sheet = jsonData("sheet-data"), body = {
        sheet: sheet, played_on: $("#played-on").value || null,
        place: $("#place").value.trim() || null, note: $("#note").value.trim() || null
      };
      status.textContent = "Saving\u2026";
      var chain;
      if (correct) {
        var parts = correct.split(":"), g = groupById(parts[0]);
        if (!g) { status.textContent = "This browser does not hold that group's key."; return; }
        body.reason = ($("#reason") && $("#reason").value.trim()) || null;
        chain = api("PUT", "/api/v1/groups/" + g.id + "/matches/" + encodeURIComponent(parts[1]), body, g.token)
          .then(function (m) { return { g: g, m: m }; });
      } else if (sel.value) {
        var g2 = groupById(sel.value);
        chain = api("POST", "/api/v1/groups/" + g2.id + "/matches", body, g2.token).then(function (m) { return { g: g2, m: m }; });
      } else {
        var name = $("#new-group").value.trim();
        if (!name) { status.textContent = "Give the new group a name."; $("#new-group").focus(); return; }
        chain = api("POST", "/api/v1/groups", { name: name }).then(function (g3) {
          saveGroup(g3);
          return api("POST", "/api/v1/groups/" + g3.id + "/matches", body, g3.token).then(function (m) { return { g: g3, m: m }; });
        });
      }
      chain.then(function (r) {
        status.textContent = "";
        status.appendChild(document.createTextNode("Saved into " + r.g.name + ". "));
        var a = el("a", null, "Open the group"); a.href = "/g/" + encodeURIComponent(r.g.id); a.id = "saved-link";
        status.appendChild(a);
        $("#save-btn").disabled = true;
      }).catch(function (e) { status.textContent = "Not saved: " + e.message; });
    });
  }

  /* ---- my groups ----------------------------------------------------------------------- */
  function initGroups() {
    var ul = $("#group-list");
    if (!ul) { return; }
    function draw() {
      ul.textContent = "";
      var list = groups();
      var none = $("#no-groups"); if (none) { none.hidden = list.length > 0; }
      ul.hidden = list.length === 0;
      list.forEach(function (g) {
        var li = el("li"), a = el("a", null, g.name); a.href = "/g/" + encodeURIComponent(g.id); li.appendChild(a); ul.appendChild(li);
      });
    }
    draw();
    if (!$("#create-btn")) { return; }
    $("#create-btn").addEventListener("click", function () {
      var name = $("#create-name").value.trim(), st = $("#create-status");
      if (!name) { st.textContent = "Give the group a name."; return; }
      api("POST", "/api/v1/groups", { name: name }).then(function (g) {
        saveGroup(g); draw(); st.textContent = "Created " + g.name + ".";
      }).catch(function (e) { st.textContent = "Not created: " + e.message; });
    });
  }

  /* ---- a group's pages: fragments opened with the token -------------------------------- */
  function download(url, file, token, status) {
    status.textContent = "Preparing\u2026";
    fetch(url, { headers: { "Authorization": "Bearer " + token } }).then(function (r) {
      if (!r.ok) { throw new Error("HTTP " + r.status); }
      return r.blob();
    }).then(function (b) {
      var a = el("a"); a.href = URL.createObjectURL(b); a.download = file; document.body.appendChild(a); a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      status.textContent = "Downloaded " + file + ".";
    }).catch(function (e) { status.textContent = "Could not download: " + e.message; });
  }

  function initGroupPage() {
    var box = $("#group-part");
    if (!box) { return; }
    var gid = box.getAttribute("data-gid");
    var m = /[#&]join=([^&]+)/.exec(location.hash);
    if (m) {  // an invite link: keep the key, then drop it from the address bar
      var tok = decodeURIComponent(m[1]);
      var known = groupById(gid);
      saveGroup({ id: gid, name: known ? known.name : "Group", token: tok });
      history.replaceState(null, "", location.pathname + location.search);
    }
    window.addEventListener("hashchange", function () {
      if (/[#&]join=/.test(location.hash)) { location.reload(); }
    });
    var g = groupById(gid);
    if (!g) { box.hidden = true; $("#no-token").hidden = false; return; }
    fetch(box.getAttribute("data-url"), { headers: { "Authorization": "Bearer " + g.token, "Accept": "text/html" }, credentials: "same-origin" })
      .then(function (r) {
        if (r.status === 401 || r.status === 404) { throw new Error(r.status === 401 ? "This group's key is no longer valid." : "Not found in this group."); }
        if (!r.ok) { throw new Error("HTTP " + r.status); }
        return r.text();
      }).then(function (html) {
        // Server-rendered and escaped by Jinja; scripts inside innerHTML never run.
        box.innerHTML = html;
        box.setAttribute("aria-busy", "false");
        var nameEl = $("#group-name");
        if (nameEl) { saveGroup({ id: gid, name: nameEl.getAttribute("data-name"), token: g.token }); }
        var crumb = $("#crumb-group"); if (crumb) { crumb.textContent = (groupById(gid) || {}).name || "Group"; }
        var h = $("h1", box); if (h) { document.title = h.textContent + " \u00b7 scorepad"; }
        var st = $("#export-status");
        $$("#export-csv, #export-backup", box).forEach(function (b) {
          b.addEventListener("click", function () { download(b.getAttribute("data-url"), b.getAttribute("data-file"), g.token, st); });
        });
        var inv = $("#copy-invite");
        if (inv) {
          inv.addEventListener("click", function () {
            var link = location.origin + "/g/" + encodeURIComponent(gid) + "#join=" + encodeURIComponent(g.token);
            var done = function () { st.textContent = "Invite link copied."; };
            if (navigator.clipboard && navigator.clipboard.writeText) { navigator.clipboard.writeText(link).then(done, function () { window.prompt("Copy the invite link", link); }); }
            else { window.prompt("Copy the invite link", link); }
          });
        }
      }).catch(function (e) {
        box.textContent = ""; box.appendChild(el("p", "alert", e.message)); box.setAttribute("aria-busy", "false");
      });
  }

  /* ---- verdict: a marked box highlights its finding ------------------------------------ */
  function initVerdict() {
    $$(".cell .mark").forEach(function (a) {
      a.addEventListener("click", function () {
        $$(".finding.hl").forEach(function (f) { f.classList.remove("hl"); });
        var f = document.getElementById(a.getAttribute("href").slice(1));
        if (f) { f.classList.add("hl"); }
      });
    });
  }

  /* ---- marking the pad's corners on the photo (the form's inputs hold them) ----------- */
  function initCorners() {
    var stage = $("#corner-stage"), form = $("#corners-form");
    if (!stage || !form) { return; }
    var W = +stage.getAttribute("data-width"), H = +stage.getAttribute("data-height");
    var img = $("#corner-photo"), svg = $("#corner-lines"), poly = $("#corner-poly"), status = $("#corner-status");
    var handles = $$(".corner-handle", stage);
    var names = handles.map(function (h) { return h.getAttribute("aria-label"); });
    var drag = null;
    function field(i, axis) { return document.getElementById("c" + i + axis); }
    function get(i) { return [parseFloat(field(i, "x").value) || 0, parseFloat(field(i, "y").value) || 0]; }
    function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }
    function box() {  // the photo's own pixels on the screen (inside its border)
      return { left: img.offsetLeft + img.clientLeft, top: img.offsetTop + img.clientTop,
        width: img.clientWidth || 1, height: img.clientHeight || 1 };
    }
    function draw() {
      var b = box(), pts = [];
      svg.style.left = b.left + "px"; svg.style.top = b.top + "px";
      svg.style.width = b.width + "px"; svg.style.height = b.height + "px";
      handles.forEach(function (h, i) {
        var p = get(i);
        h.style.left = (b.left + clamp(p[0], 0, W) / W * b.width) + "px";
        h.style.top = (b.top + clamp(p[1], 0, H) / H * b.height) + "px";
        pts.push(p[0] + "," + p[1]);
      });
      poly.setAttribute("points", pts.join(" "));
    }
    function say(i) { var p = get(i); status.textContent = names[i] + " at " + p[0] + ", " + p[1] + "."; }
    function set(i, x, y) {
      field(i, "x").value = String(Math.round(clamp(x, 0, W)));
      field(i, "y").value = String(Math.round(clamp(y, 0, H)));
      draw();
    }
    function toPhoto(ev) {
      var r = img.getBoundingClientRect();
      return [(ev.clientX - r.left - img.clientLeft) / (img.clientWidth || 1) * W,
        (ev.clientY - r.top - img.clientTop) / (img.clientHeight || 1) * H];
    }
    handles.forEach(function (h, i) {
      h.hidden = false;
      h.addEventListener("pointerdown", function (ev) {  // mouse, pen and touch alike
        ev.preventDefault();
        var p = toPhoto(ev), q = get(i);
        drag = { i: i, dx: q[0] - p[0], dy: q[1] - p[1] };  // no jump to the finger
        h.classList.add("dragging");
        if (h.setPointerCapture) { h.setPointerCapture(ev.pointerId); }
        h.focus();
      });
      h.addEventListener("pointermove", function (ev) {
        if (!drag || drag.i !== i) { return; }
        ev.preventDefault();
        var p = toPhoto(ev);
        set(i, p[0] + drag.dx, p[1] + drag.dy);
      });
      function end() {
        if (drag && drag.i === i) { drag = null; h.classList.remove("dragging"); say(i); }
      }
      h.addEventListener("pointerup", end);
      h.addEventListener("pointercancel", end);
      h.addEventListener("keydown", function (ev) {
        var step = Math.max(1, Math.round(Math.max(W, H) / (ev.shiftKey ? 40 : 400)));
        var d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[ev.key];
        if (!d) { return; }
        ev.preventDefault();
        var p = get(i);
        set(i, p[0] + d[0], p[1] + d[1]);
        say(i);
      });
    });
    img.addEventListener("click", function (ev) {  // a tap on the photo: the nearest handle goes there
      var p = toPhoto(ev), best = 0, bestD = Infinity;
      handles.forEach(function (h, i) {
        var q = get(i), d = (q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]);
        if (d < bestD) { bestD = d; best = i; }
      });
      set(best, p[0], p[1]);
      say(best);
    });
    form.addEventListener("input", function (ev) { if (ev.target.classList.contains("corner-in")) { draw(); } });
    form.addEventListener("submit", function () {
      var b = $("#corners-busy"); if (b) { b.hidden = false; }
      var s = $("#corners-submit"); if (s) { s.disabled = true; }
    });
    if (img.complete) { draw(); } else { img.addEventListener("load", draw); }
    window.addEventListener("resize", draw);
  }

  document.addEventListener("DOMContentLoaded", function () {
    initHome(); initPad(); initReview(); initOptions(); initSave(); initGroups(); initGroupPage(); initVerdict();
    initCorners();
  });
})();
