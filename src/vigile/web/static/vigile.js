// vigile's pages: the map's clicks and keys, live updates over the server's SSE stream, the GM's
// action form and the calculator's metres. No build step; htmx is vendored beside this file.
// Nothing here evaluates text as code: the pages' Content-Security-Policy forbids it.
(function () {
  "use strict";

  // ---- live updates: an element with data-stream listens to the viewer's own stream (the
  // server filters it per viewer) and, on news, asks the server for its fragment again.
  function live(root) {
    var box = root.querySelector("[data-refresh]");
    if (!box) return;
    var stream = box.getAttribute("data-stream");
    var pending = null;
    function refresh() {
      if (pending) return;
      pending = setTimeout(function () {
        pending = null;
        var include = box.getAttribute("data-refresh-include");
        var values = {};
        if (include) {
          var el = document.querySelector(include);
          if (el && el.name) values[el.name] = el.value;
        }
        if (box.hasAttribute("data-stream")) {
          htmx.ajax("GET", box.getAttribute("data-refresh"), {target: box, swap: "innerHTML", values: values});
        } else {
          htmx.ajax("GET", box.getAttribute("data-refresh"), {target: box, swap: "none", values: values});
        }
      }, 0);
    }
    box.vigileRefresh = refresh;
    if (!stream || !window.EventSource) return;
    var source = new EventSource(stream);
    // a stream resuming after the page's own view (?after=) sends no first view to skip
    var first = !/[?&]after=/.test(stream);
    source.addEventListener("view", function () { if (first) { first = false; return; } refresh(); });
    source.addEventListener("events", refresh);
    source.addEventListener("open", function () { document.body.classList.remove("offline"); });
    source.addEventListener("error", function () { document.body.classList.add("offline"); first = false; });
  }

  // ---- the GM's map: click a token to choose who acts (or the target), click a point to
  // choose where; the same with the keyboard (Tab to a token, Enter or Space).
  function svgPoint(svg, event) {
    var pt = svg.createSVGPoint();
    pt.x = event.clientX; pt.y = event.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }
  function setValue(id, value) {
    var el = document.getElementById(id);
    if (!el) return false;
    el.value = value;
    el.dispatchEvent(new Event("change", {bubbles: true}));
    return true;
  }
  function chooseToken(token) {
    var name = token.getAttribute("data-name");
    var actor = document.getElementById("actor");
    var form = document.getElementById("action-form");
    if (!form) return;
    var isActor = actor && Array.prototype.some.call(actor.options, function (o) { return o.value === name; });
    var act = document.getElementById("do");
    var targets = form.querySelectorAll("select.target");
    var visibleTarget = null;
    targets.forEach(function (sel) { if (sel.offsetParent !== null) visibleTarget = sel; });
    if (visibleTarget && !isActor) {
      visibleTarget.value = name;
      visibleTarget.dispatchEvent(new Event("change", {bubbles: true}));
    } else if (isActor) {
      actor.value = name;
      actor.dispatchEvent(new Event("change", {bubbles: true}));
    } else if (visibleTarget) {
      visibleTarget.value = name;
      visibleTarget.dispatchEvent(new Event("change", {bubbles: true}));
    }
    document.querySelectorAll("#map-svg .token.chosen").forEach(function (t) { t.classList.remove("chosen"); });
    token.classList.add("chosen");
    if (act) act.focus({preventScroll: true});
  }
  function pick(svg, x, y) {
    var g = svg.querySelector("#pick");
    if (!g) return;
    var m = parseFloat(getComputedStyle(svg).getPropertyValue("--m")) || 2;
    g.innerHTML = '<circle cx="' + x + '" cy="' + y + '" r="' + (m * 0.5) + '"/>' +
      '<path d="M' + (x - m) + ',' + y + ' H' + (x + m) + ' M' + x + ',' + (y - m) + ' V' + (y + m) + '"/>';
  }
  document.addEventListener("click", function (event) {
    var svg = event.target.closest && event.target.closest("svg.map.clickable");
    if (!svg) return;
    var token = event.target.closest(".token");
    if (token) { chooseToken(token); return; }
    var p = svgPoint(svg, event);
    var x = Math.round(p.x * 10) / 10, y = Math.round(p.y * 10) / 10;
    pick(svg, x, y);
    var xi = document.getElementById("x"), yi = document.getElementById("y");
    if (xi && yi) { xi.value = x; setValue("y", y); }
  });
  document.addEventListener("keydown", function (event) {
    var token = event.target.closest && event.target.closest("svg.map.clickable .token");
    if (token && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      chooseToken(token);
    }
  });
  document.addEventListener("mousemove", function (event) {
    var svg = event.target.closest && event.target.closest("svg.map.clickable");
    var out = document.getElementById("cursor");
    if (!svg || !out) return;
    var p = svgPoint(svg, event);
    out.textContent = "(" + Math.round(p.x) + ", " + Math.round(p.y) + ") " + (svg.getAttribute("data-unit") || "");
  });

  // ---- the GM's action form: the parts each action needs, shown as it is chosen (the
  // defender's list replaces the intruders' for a defender's order, LP-6).
  function jsonList(el, name) {
    try { var found = JSON.parse(el.getAttribute(name) || "[]"); return Array.isArray(found) ? found : []; }
    catch (e) { return []; }
  }
  function actionForm(root) {
    var form = root.querySelector("#action-form[data-actors]");
    var act = form && form.querySelector("#do");
    if (!act) return;
    var points = jsonList(form, "data-points"), actors = jsonList(form, "data-actors");
    var guards = jsonList(form, "data-guards");
    function show(el, on) { if (el) el.hidden = !on; }
    function sync() {
      var chosen = act.value, guard = guards.indexOf(chosen) >= 0;
      show(form.querySelector('[data-when="actor"]'), actors.indexOf(chosen) >= 0 && !guard);
      show(form.querySelector('[data-when="guard"]'), guard);
      show(form.querySelector('[data-when="point"]'), points.indexOf(chosen) >= 0);
      var actor = form.querySelector("#actor"), defender = form.querySelector("#defender");
      if (actor) actor.disabled = guard;
      if (defender) defender.disabled = !guard;
      form.querySelectorAll("[data-act]").forEach(function (el) { el.hidden = el.getAttribute("data-act") !== chosen; });
    }
    act.addEventListener("change", sync);
    act.addEventListener("input", sync);
    sync();
  }

  // ---- the calculator: a distance in feet also in metres, for a French reader
  function metres(root) {
    root.querySelectorAll("input[data-metres]").forEach(function (input) {
      var out = document.getElementById(input.getAttribute("data-metres"));
      if (!out) return;
      function sync() {
        var feet = parseFloat(String(input.value).replace(",", "."));
        out.hidden = !input.value || isNaN(feet);
        out.textContent = out.hidden ? "" : "\u2248 " + (feet * 0.3).toLocaleString("fr-FR", {maximumFractionDigits: 2}) + " m";
      }
      input.addEventListener("input", sync);
      sync();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    live(document);
    actionForm(document);
    metres(document);
  });
})();
