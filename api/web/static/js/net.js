/* scorepad web pages: the JSON API, and the groups (id, name, token) kept in this browser.
   Text from users is only ever set with textContent or arrives in server-rendered
   (escaped) HTML; nothing is built with innerHTML from data. */
var KEY = "scorepad.groups";
export function groups() {
  try { var g = JSON.parse(localStorage.getItem(KEY) || "[]"); return Array.isArray(g) ? g : []; }
  catch (e) { return []; }
}

export function saveGroup(g) {
  var list = groups().filter(function (x) { return x.id !== g.id; });
  list.unshift({ id: g.id, name: g.name || "Group", token: g.token });
  localStorage.setItem(KEY, JSON.stringify(list));
}

export function groupById(id) { return groups().filter(function (x) { return x.id === id; })[0] || null; }

/* A call of /api/v1: the answer's JSON, or an Error with the problem's detail and status. */
export function api(method, url, body, token) {
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
