// vigile's pages: the map's clicks and keys, and live updates over the server's SSE stream.
// No build step; htmx and Alpine.js are vendored beside this file.
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
    var first = true;
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

  document.addEventListener("DOMContentLoaded", function () { live(document); });
})();
