/* scorepad web pages: the home page (choose a rule set, send a photo).
   Text from users is only ever set with textContent or arrives in server-rendered
   (escaped) HTML; nothing is built with innerHTML from data. */
import { $, $$ } from "./dom.js";

export function initHome() {
  var form = $("#scan-form");
  if (!form) { return; }
  var photo = $("#photo"), typeLink = $("#type-card");
  function sync() {
    $$(".rule", form).forEach(function (l) { l.classList.toggle("chosen", $("input", l).checked); });
    var r = $("input[name=rules]:checked", form);
    [typeLink, $("#dice-link")].forEach(function (a) {  // the pad and the dice under the chosen rules
      if (a && r) { a.href = a.getAttribute("data-base") + "?rules=" + encodeURIComponent(r.value); }
    });
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
