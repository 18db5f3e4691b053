/* scorepad web pages: saving a card into a group, my groups, a group's pages (fragments
   opened with the token kept in this browser).
   Text from users is only ever set with textContent or arrives in server-rendered
   (escaped) HTML; nothing is built with innerHTML from data. */
import { $, $$, el, jsonData } from "./dom.js";
import { initGames } from "./games.js";
import { api, groupById, groups, saveGroup } from "./net.js";

export function initSave() {
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
      var v = $("section.verdict"), errs = v ? v.getAttribute("data-errors") : null;
      status.setAttribute("data-saved", v ? v.getAttribute("data-verdict") : "");
      if (errs && errs !== "0") {  // never saved without a word about its errors
        status.appendChild(el("strong", "saved-errors", " It was saved with " + errs + (errs === "1" ? " error" : " errors") +
          " on the card, as written: correct the card to fix " + (errs === "1" ? "it." : "them.")));
      }
      $("#save-btn").disabled = true;
    }).catch(function (e) { status.textContent = "Not saved: " + e.message; });
  });
}

export function initGroups() {
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

export function initGroupPage() {
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
      initGames(box);  // a saved card of many games: one game at a time on a phone
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
