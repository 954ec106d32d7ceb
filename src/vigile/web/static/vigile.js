// vigile's pages: the map's clicks and keys, live updates over the server's SSE stream, the GM's
// action form and the calculator's metres. No build step; htmx is vendored beside this file.
// Nothing here evaluates text as code: the pages' Content-Security-Policy forbids it.
(function () {
  "use strict";

  // ---- live updates: an element with data-stream listens to the viewer's own stream (the
  // server filters it per viewer) and, on news, asks the server for its fragment again (a
  // character's page gets its fragment in the stream's frame).
  function live(root) {
    var box = root.querySelector("[data-refresh]");
    if (!box) return;
    var stream = box.getAttribute("data-stream");
    var pending = null, inflight = false, again = false, wanted = 0;
    function shownSeq() {  // the record the GM's panels show (null on other pages)
      var at = box.querySelector("#status[data-seq]");
      return at ? +at.getAttribute("data-seq") : null;
    }
    // one request at a time: news during a request asks again after it, only if the panels
    // it brought are older than the news (a refresh landing mid-gesture redraws the map)
    function refresh(seq, told) {  // told: by the stream, about record seq (0: unknown)
      if (seq) wanted = Math.max(wanted, seq);
      if (inflight) { if (told) again = true; return; }
      if (pending) return;
      pending = setTimeout(function () {
        pending = null;
        inflight = true;
        again = false;
        var include = box.getAttribute("data-refresh-include");
        var values = {};
        if (include) {
          document.querySelectorAll(include).forEach(function (el) {
            if (el.name) values[el.name] = el.value;
          });
        }
        var oob = !box.hasAttribute("data-stream") || box.hasAttribute("data-refresh-oob");
        // the GM's panels come out of band, each in its place: the form being filled stays
        // as it is; its preview (odds of the state now) is asked again
        var asked = htmx.ajax("GET", box.getAttribute("data-refresh"),
          {target: box, swap: oob ? "none" : "innerHTML", values: values});
        function done() {
          inflight = false;
          var shown = shownSeq();
          if (again && (shown === null || !wanted || wanted > shown)) { refresh(0, false); return; }
          var form = document.getElementById("action-form"), preview = document.getElementById("preview");
          if (oob && form && preview && preview.textContent.trim()) htmx.trigger(form, "preview");
        }
        if (asked && asked.then) asked.then(done, done); else inflight = false;
      }, 0);
    }
    function news(event) {  // a record this page already shows (its own action): no refresh
      var seq = +event.lastEventId || 0, shown = shownSeq();
      if (shown !== null && seq && seq <= shown) return;
      refresh(seq, true);
    }
    box.vigileRefresh = function () { refresh(0, false); };
    if (!stream || !window.EventSource) return;
    // a stream resuming after the page's own view (?after=) sends no first view to skip
    var first = !/[?&]after=/.test(stream);
    var source = null, told = null;  // told: the last event's id, in the stream's sequence
    function heard(event) { if (event.lastEventId) told = event.lastEventId; }
    // the stream again, after what the page was told (and, on a character's page, after the
    // mark it shows): what happened meanwhile comes, as after a lost connection
    function address() {
      var url = stream, mark = document.getElementById("pmark");
      if (told !== null) url = url.replace(/([?&]after=)[^&]*/, "$1" + encodeURIComponent(told));
      if (mark) url = url.replace(/([?&]news=)[^&]*/, "$1" + encodeURIComponent(mark.value));
      return url;
    }
    function connect() {
      source = new EventSource(address());
      source.addEventListener("view", function (event) { heard(event); if (first) { first = false; return; } refresh(+event.lastEventId || 0, true); });
      source.addEventListener("events", function (event) { heard(event); news(event); });
      // a character's page: its news come in the frame, to swap in place if it shows the mark
      // they follow; else (a request of its own under way, an undo) it asks for its panel
      source.addEventListener("news", function (event) {
        heard(event);
        var data = JSON.parse(event.data), mark = document.getElementById("pmark");
        if (!inflight && !pending && mark && mark.value === data.from) {
          htmx.swap(box, data.html, {swapStyle: "none", ignoreTitle: true});
          return;
        }
        refresh(+event.lastEventId || 0, true);
      });
      source.addEventListener("open", function () { document.body.classList.remove("offline"); });
      source.addEventListener("error", function () { document.body.classList.add("offline"); first = false; });
    }
    // a browser opens at most 6 connections to one server, each open stream holds one: a page
    // in a background tab lets its stream go, and takes it up again when it is shown
    document.addEventListener("visibilitychange", function () {
      if (document.hidden && source) { source.close(); source = null; }
      else if (!document.hidden && !source) connect();
    });
    if (!document.hidden) connect();
  }

  // the GM's panels drawn as of a record older than the one the page shows (a risk map asked
  // before an action, answered after it) are not swapped in: the page asks them again, now
  document.addEventListener("htmx:beforeSwap", function (event) {
    var d = event.detail, status = document.querySelector("#status[data-seq]");
    if (!status || !d.requestConfig || d.requestConfig.verb !== "get" || typeof d.serverResponse !== "string") return;
    var found = /id="status"[^>]*\sdata-seq="(\d+)"/.exec(d.serverResponse);
    if (!found || +found[1] >= +status.getAttribute("data-seq")) return;
    d.shouldSwap = false;
    var box = document.querySelector("[data-refresh]");
    if (box && box.vigileRefresh) box.vigileRefresh();
  });

  // ---- the maps: zoom (wheel, pinch, buttons) and pan; tokens kept readable at every zoom.
  // The GM's map also: click a token to choose who acts (or the target), click a point to
  // choose where (snapped: the grid's squares, a chosen precision, the wall a grapple aims
  // at); drag a token to move it, its path, the checks it triggers and their odds shown
  // before the drop (the server's preview: the page holds no rule); a ruler, with what is left
  // of the actor's move this turn drawn round it as a range (the game says how far).
  var mapState = {view: null, snap: null, ruler: false};  // kept across the map's refreshes
  var NS = "http://www.w3.org/2000/svg";
  var TOKEN_MIN_PX = 28, TOKEN_MAX_PX = 56, NAMES_PX = 26, MOVED_PX = 6;

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
  function num(svg, name) { return parseFloat(svg.getAttribute(name)); }
  function lang() { return document.documentElement.lang || "en"; }
  function shown(value) { return Number(value).toLocaleString(lang(), {maximumFractionDigits: 2}); }
  function words(svg, key, params) {
    var tools = toolsOf(svg);
    var text = (tools && tools.getAttribute("data-t-" + key)) || key;
    Object.keys(params || {}).forEach(function (k) { text = text.split("{" + k + "}").join(params[k]); });
    return text;
  }
  function toolsOf(svg) {
    var frame = svg.closest(".map-frame");
    return frame && frame.querySelector(".map-tools");
  }
  function readout(svg, text) {
    var tools = toolsOf(svg), out = tools && tools.querySelector(".map-readout");
    if (out) out.textContent = text;
  }
  function headers() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
  }
  function el(name, attrs, text) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // zoom: the viewBox, between the whole board and 40 times closer
  function board(svg) {
    var m = num(svg, "data-mark") || 0;
    return {x: -m, y: -m, w: num(svg, "data-width") + 2 * m, h: num(svg, "data-height") + 2 * m};
  }
  function view(svg) {
    var v = svg.viewBox.baseVal;
    return {x: v.x, y: v.y, w: v.width, h: v.height};
  }
  function setView(svg, v) {
    var b = board(svg);
    var k = Math.min(Math.max(b.w / v.w, 1), 40);
    var w = b.w / k, h = b.h / k;
    var cx = v.x + v.w / 2, cy = v.y + v.h / 2;
    cx = Math.min(Math.max(cx, b.x + w / 2), b.x + b.w - w / 2);
    cy = Math.min(Math.max(cy, b.y + h / 2), b.y + b.h - h / 2);
    var next = {x: cx - w / 2, y: cy - h / 2, w: w, h: h};
    svg.setAttribute("viewBox", [next.x, next.y, next.w, next.h].join(" "));
    svg.classList.toggle("zoomed", k > 1.001);
    svg.setAttribute("data-zoom", k.toFixed(3));
    if (svg.id === "map-svg") mapState.view = k > 1.001 ? next : null;
    scaleTokens(svg);
  }
  function zoomAt(svg, factor, clientX, clientY, from) {
    var v = from || view(svg);
    var p = svgPoint(svg, {clientX: clientX, clientY: clientY});
    if (from) {  // the point under the fingers when the gesture began
      p = {x: from.px, y: from.py};
    }
    setView(svg, {x: p.x - (p.x - v.x) / factor, y: p.y - (p.y - v.y) / factor, w: v.w / factor, h: v.h / factor});
  }
  function pixels(svg) {  // screen pixels per unit of the board
    var r = svg.getBoundingClientRect(), v = svg.viewBox.baseVal;
    return r.width && v.width ? Math.min(r.width / v.width, r.height / v.height) : 0;
  }
  // a token is drawn at least TOKEN_MIN_PX across (its label legible), at most TOKEN_MAX_PX;
  // the names show once the tokens are drawn near their own size
  function scaleTokens(svg) {
    var m = num(svg, "data-mark"), p = pixels(svg);
    if (!m || !p) return;
    var natural = 1.2 * m * p, px = Math.max(TOKEN_MIN_PX, Math.min(natural, TOKEN_MAX_PX));
    var s = px / natural;
    var tokens = Array.prototype.slice.call(svg.querySelectorAll(".token"));
    var nudges = declutter(tokens, px / p / 2);
    tokens.forEach(function (token, i) {
      var g = token.querySelector(":scope > .tk"), n = nudges[i], leader = token.querySelector(":scope > .leader");
      if (!g) return;
      var moved = Math.abs(n.dx) + Math.abs(n.dy) > 1e-9;
      g.setAttribute("transform", (moved ? "translate(" + n.dx.toFixed(3) + " " + n.dy.toFixed(3) + ") " : "") + "scale(" + s.toFixed(4) + ")");
      token.classList.toggle("nudged", moved);
      if (leader) { leader.setAttribute("x2", n.dx.toFixed(3)); leader.setAttribute("y2", n.dy.toFixed(3)); }
    });
    svg.classList.toggle("named", natural >= NAMES_PX);
    svg.style.setProperty("--px", (1 / p).toFixed(5));  // one screen pixel, in the board's unit
    svg.querySelectorAll(".ruler-layer text, .reach-layer text").forEach(function (t) { t.setAttribute("font-size", (14 / p).toFixed(3)); });
  }
  // tokens drawn closer than their size apart are drawn pushed apart (a thin line to where
  // each stands): a few rounds of pairwise pushes, the same every time for the same board
  function declutter(tokens, radius) {
    var at = tokens.map(function (t) { return {x: num(t, "data-x"), y: num(t, "data-y"), dx: 0, dy: 0}; });
    var gap = radius * 2.05;
    for (var round = 0; round < 40; round++) {
      var pushed = false;
      for (var i = 0; i < at.length; i++) {
        for (var j = i + 1; j < at.length; j++) {
          var a = at[i], b = at[j];
          var ux = b.x + b.dx - a.x - a.dx, uy = b.y + b.dy - a.y - a.dy, d = Math.hypot(ux, uy);
          if (d >= gap) continue;
          if (d < 1e-9) { ux = Math.cos(j * 2.4); uy = Math.sin(j * 2.4); } else { ux /= d; uy /= d; }
          var push = (gap - d) / 2 + 1e-6;
          a.dx -= ux * push; a.dy -= uy * push; b.dx += ux * push; b.dy += uy * push;
          pushed = true;
        }
      }
      if (!pushed) break;
    }
    return at;
  }
  function restoreMaps() {
    document.querySelectorAll("svg.map.zoomable").forEach(function (svg) {
      setView(svg, svg.id === "map-svg" && mapState.view ? mapState.view : view(svg));
      var tools = toolsOf(svg);
      if (!tools) return;
      var snap = tools.querySelector("select.snap");
      if (snap && mapState.snap !== null) snap.value = mapState.snap;
      var ruler = tools.querySelector('[data-tool="ruler"]');
      if (ruler) ruler.setAttribute("aria-pressed", String(mapState.ruler));
      svg.classList.toggle("ruling", mapState.ruler && !!ruler);
    });
  }
  document.addEventListener("wheel", function (event) {
    var svg = event.target.closest && event.target.closest("svg.map.zoomable");
    if (!svg) return;
    event.preventDefault();
    zoomAt(svg, Math.exp(-event.deltaY * 0.0015), event.clientX, event.clientY);
  }, {passive: false});
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".map-tools button");
    if (!button) return;
    var svg = button.closest(".map-frame").querySelector("svg.map");
    var how = button.getAttribute("data-zoom"), r = svg.getBoundingClientRect();
    if (how === "fit") setView(svg, board(svg));
    else if (how) zoomAt(svg, how === "in" ? 1.5 : 1 / 1.5, r.left + r.width / 2, r.top + r.height / 2);
    else if (button.getAttribute("data-tool") === "ruler") {
      mapState.ruler = button.getAttribute("aria-pressed") !== "true";
      button.setAttribute("aria-pressed", String(mapState.ruler));
      svg.classList.toggle("ruling", mapState.ruler);
      if (!mapState.ruler) clearLayer(svg, ".ruler-layer");
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches(".map-tools select.snap")) mapState.snap = event.target.value;
  });
  window.addEventListener("resize", restoreMaps);
  // a page's news come in several swaps (out of band): the maps are restored once, before the
  // frame that shows them is painted
  var restoring = 0;
  function restoreSoon() {
    if (!restoring) restoring = requestAnimationFrame(function () { restoring = 0; restoreMaps(); });
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:afterSwap"].forEach(function (name) {
    document.addEventListener(name, restoreSoon);
  });

  // snap: the grid's squares (their centres), a precision, or none (a tenth); a grapple's
  // point onto the nearest wall
  function snapMode(svg) {
    var tools = toolsOf(svg), sel = tools && tools.querySelector("select.snap");
    return sel ? sel.value : "off";
  }
  function round(value, step) { return +(Math.round(value / step) * step).toFixed(6); }
  function onWall(svg, p) {  // the nearest point of a wall within a token's size, or null
    var best = null, reach = (num(svg, "data-mark") || 1) * 1.5;
    svg.querySelectorAll("line.wall").forEach(function (w) {
      var x1 = num(w, "x1"), y1 = num(w, "y1"), x2 = num(w, "x2"), y2 = num(w, "y2");
      var dx = x2 - x1, dy = y2 - y1, len = dx * dx + dy * dy;
      var t = len ? Math.max(0, Math.min(1, ((p.x - x1) * dx + (p.y - y1) * dy) / len)) : 0;
      var q = {x: x1 + t * dx, y: y1 + t * dy, wall: [x1, y1, x2, y2]};
      var d = Math.hypot(q.x - p.x, q.y - p.y);
      if (d <= reach && (!best || d < best.d)) { q.d = d; best = q; }
    });
    return best;
  }
  function snap(svg, p) {
    var mode = snapMode(svg), grid = num(svg, "data-grid");
    var step = mode === "off" || mode === "square" ? 0.1 : parseFloat(mode) || 0.1;
    function rounded(q) {
      if (mode === "square" && grid) {
        return {x: Math.floor(q.x / grid) * grid + grid / 2, y: Math.floor(q.y / grid) * grid + grid / 2};
      }
      return {x: round(q.x, step), y: round(q.y, step)};
    }
    var act = document.getElementById("do");
    if (act && act.value === "throw-grapple") {
      var q = onWall(svg, p);
      if (q) {
        var r = {x: round(q.x, step), y: round(q.y, step)}, w = q.wall;
        var off = Math.abs((w[2] - w[0]) * (r.y - w[1]) - (w[3] - w[1]) * (r.x - w[0]));
        return off < 1e-6 ? r : {x: round(q.x, 0.01), y: round(q.y, 0.01)};
      }
    }
    var b = board(svg), m = num(svg, "data-mark") || 0, s = rounded(p);
    return {x: Math.min(Math.max(s.x, b.x + m), b.x + b.w - m), y: Math.min(Math.max(s.y, b.y + m), b.y + b.h - m)};
  }
  function pick(svg, x, y) {
    var g = svg.querySelector("#pick");
    if (!g) return;
    var m = num(svg, "data-mark") || 2;
    g.innerHTML = '<circle cx="' + x + '" cy="' + y + '" r="' + (m * 0.5) + '"/>' +
      '<path d="M' + (x - m) + ',' + y + ' H' + (x + m) + ' M' + x + ',' + (y - m) + ' V' + (y + m) + '"/>';
    readout(svg, words(svg, "point") + ": (" + shown(x) + ", " + shown(y) + ") " + (svg.getAttribute("data-unit") || ""));
  }
  function setPoint(svg, p) {
    pick(svg, p.x, p.y);
    var xi = document.getElementById("x"), yi = document.getElementById("y");
    if (xi && yi) { xi.value = p.x; setValue("y", p.y); }
  }

  // the GM's form: who may act (the intruders' list, or the defenders' for the GM's orders)
  function options(id) {
    var sel = document.getElementById(id);
    return sel ? Array.prototype.map.call(sel.options, function (o) { return o.value; }) : [];
  }
  function pointAction() {
    var form = document.getElementById("action-form"), act = document.getElementById("do");
    if (!form || !act) return false;
    return jsonList(form, "data-points").indexOf(act.value) >= 0;
  }
  function chooseToken(token) {
    var name = token.getAttribute("data-name");
    var actor = document.getElementById("actor");
    var form = document.getElementById("action-form");
    if (!form) return;
    var act = document.getElementById("do");
    var acting = actor && !actor.disabled ? actor : document.getElementById("defender");
    var isActor = acting && options(acting.id).indexOf(name) >= 0;
    var targets = form.querySelectorAll("select.target");
    var visibleTarget = null;
    targets.forEach(function (sel) { if (sel.offsetParent !== null) visibleTarget = sel; });
    if (visibleTarget && !isActor) {
      visibleTarget.value = name;
      visibleTarget.dispatchEvent(new Event("change", {bubbles: true}));
    } else if (!isActor && pointAction()) {
      // a point action at a token that cannot act in it (a blow at a square where a guard
      // stands): the token's point, snapped as any
      var svg = token.closest("svg.map");
      setPoint(svg, snap(svg, {x: num(token, "data-x"), y: num(token, "data-y")}));
      return;
    } else if (isActor) {
      acting.value = name;
      acting.dispatchEvent(new Event("change", {bubbles: true}));
    }
    document.querySelectorAll("#map-svg .token.chosen").forEach(function (t) { t.classList.remove("chosen"); });
    token.classList.add("chosen");
    if (act) act.focus({preventScroll: true});
  }

  // a tap (a click, or a finger lifted where it touched): on a zoomable map, taken from the
  // pointer's own events, where it went down (a phone's synthesized click may land elsewhere)
  function tap(svg, target, event) {
    if (!svg.classList.contains("clickable") || svg.classList.contains("ruling")) return;
    var token = target.closest && target.closest(".token");
    if (token) { chooseToken(token); return; }
    setPoint(svg, snap(svg, svgPoint(svg, event)));
  }
  document.addEventListener("click", function (event) {
    var svg = event.target.closest && event.target.closest("svg.map.clickable");
    // a zoomable map's taps come from its pointer events; a click with no pointer behind it
    // (detail 0: a screen reader's, a script's) is taken here
    if (!svg || (svg.classList.contains("zoomable") && event.detail !== 0)) return;
    tap(svg, event.target, event);
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
    out.textContent = "(" + shown(Math.round(p.x * 10) / 10) + ", " + shown(Math.round(p.y * 10) / 10) + ") " + (svg.getAttribute("data-unit") || "");
  });

  // the drawn layers: a ruler or a dragged token's path, the range left of a move
  function clearLayer(svg, selector) {
    var g = svg.querySelector(selector);
    if (g) while (g.firstChild) g.removeChild(g.firstChild);
    return g;
  }
  function distanceText(svg, d) {
    var unit = svg.getAttribute("data-unit") || "", grid = num(svg, "data-grid");
    var text = shown(d) + " " + unit;
    if (grid) text += " · " + words(svg, "squares", {n: shown(Math.round(d / grid * 10) / 10)});
    return text;
  }
  function drawPath(svg, from, to, ghost) {
    var g = clearLayer(svg, ".ruler-layer");
    if (!g) return 0;
    var d = Math.hypot(to.x - from.x, to.y - from.y), p = pixels(svg);
    g.appendChild(el("line", {"class": "ruler", x1: from.x, y1: from.y, x2: to.x, y2: to.y}));
    if (ghost) g.appendChild(el("circle", {"class": "ghost", cx: to.x, cy: to.y, r: (num(svg, "data-mark") || 2) * 0.6}));
    g.appendChild(el("circle", {"class": "ruler-end", cx: to.x, cy: to.y, r: 4 / p}));
    var label = el("text", {"class": "ruler-label", x: to.x + 8 / p, y: to.y - 8 / p, "font-size": (14 / p).toFixed(3)}, distanceText(svg, d));
    g.appendChild(label);
    return d;
  }
  var reachAsked = null;
  function drawReach(svg, name) {
    var form = document.getElementById("action-form"), box = document.getElementById("map-odds");
    var url = box && box.getAttribute("data-reach");
    if (!form || !url || !name) return;
    var speed = document.getElementById("move-speed"), run = document.getElementById("move-run");
    var query = "&actor=" + encodeURIComponent(name) + "&speed=" + encodeURIComponent(speed ? speed.value : "") +
      (run && run.checked ? "&run=on" : "");
    reachAsked = query;
    fetch(url + query, {headers: headers()}).then(function (r) { return r.ok ? r.json() : null; }).then(function (found) {
      if (!found || reachAsked !== query) return;
      var g = clearLayer(svg, ".reach-layer");
      if (!g) return;
      var unit = svg.getAttribute("data-unit") || "";
      var text = words(svg, "left", {name: found.actor, left: shown(found.left), unit: unit});
      g.setAttribute("data-left", found.left);
      g.setAttribute("data-actor", found.actor);
      if (found.left > 0) g.appendChild(el("circle", {"class": "reach", cx: found.x, cy: found.y, r: found.left}));
      g.appendChild(el("title", {}, text));
      var out = document.getElementById("map-left");
      if (out) out.textContent = text + (found.refused ? " — " + found.refused : "");
    });
  }

  // a dragged token: what the move would trigger, asked of the server (its preview)
  function moveValues(drag, p) {
    var form = document.getElementById("action-form"), data = new FormData(form);
    data.set("do", drag.act);
    data.set("actor", drag.name);
    data.set("x", p.x);
    data.set("y", p.y);
    return new URLSearchParams(data);
  }
  var oddsAsked = 0;
  function askOdds(drag, p, done) {
    var form = document.getElementById("action-form"), box = document.getElementById("map-odds");
    if (!form || !box) return;
    var mine = ++oddsAsked;
    fetch(form.getAttribute("hx-post"), {method: "POST", headers: headers(), body: moveValues(drag, p)})
      .then(function (r) { return r.text(); })
      .then(function (html) {
        if (mine !== oddsAsked) return;
        box.innerHTML = html;
        box.hidden = false;
        if (done) done(!!box.querySelector(".refused, .alert"));
      });
  }
  function startDrag(svg, token) {
    var name = token.getAttribute("data-name"), form = document.getElementById("action-form");
    if (!form || !name) return null;
    var act = options("actor").indexOf(name) >= 0 ? "move" : options("defender").indexOf(name) >= 0 ? "guard-move" : null;
    if (!act || !document.querySelector('#do option[value="' + act + '"]')) return null;
    return {name: name, act: act, token: token, from: {x: num(token, "data-x"), y: num(token, "data-y")}, last: 0};
  }
  function dragTo(svg, drag, p) {
    var d = drawPath(svg, drag.from, p, true);
    drag.to = p;
    readout(svg, drag.name + " → (" + shown(p.x) + ", " + shown(p.y) + ") · " + distanceText(svg, d));
    var now = Date.now();
    if (now - drag.last > 200) { drag.last = now; askOdds(drag, p); }
  }
  function drop(svg, drag) {
    var p = drag.to;
    if (!p) return;
    // the form filled at once, then one change: its own preview follows, for this move
    var act = document.getElementById("do"), xi = document.getElementById("x"), yi = document.getElementById("y");
    var who = document.getElementById(drag.act === "move" ? "actor" : "defender");
    act.value = drag.act;
    if (who) who.value = drag.name;
    if (xi && yi) { xi.value = p.x; yi.value = p.y; }
    pick(svg, p.x, p.y);
    document.querySelectorAll("#map-svg .token.chosen").forEach(function (t) { t.classList.remove("chosen"); });
    drag.token.classList.add("chosen");
    act.dispatchEvent(new Event("change", {bubbles: true}));
    svg.classList.add("dropping");
    askOdds(drag, p, function (refused) {
      svg.classList.remove("dropping");
      if (refused) {  // the token stays where it stands; the reason is in #map-odds
        clearLayer(svg, ".ruler-layer");
        drag.token.classList.add("refused");
        readout(svg, words(svg, "refused") + ": " + drag.name);
      } else {
        var ghost = svg.querySelector(".ruler-layer .ghost");
        if (ghost) ghost.classList.add("pending");
      }
    });
  }

  // one gesture at a time: a pan, a pinch, a ruler, a token dragged
  var gesture = null;
  document.addEventListener("pointerdown", function (event) {
    var svg = event.target.closest && event.target.closest("svg.map.zoomable");
    if (!svg || event.button > 0) return;
    // a primary pointer starts a new gesture (no other is down: a lost pointerup forgotten)
    if (!gesture || gesture.svg !== svg || event.isPrimary) gesture = {svg: svg, pointers: {}, count: 0};
    gesture.pointers[event.pointerId] = {x: event.clientX, y: event.clientY, x0: event.clientX, y0: event.clientY};
    gesture.count += 1;
    gesture.moved = false;
    if (gesture.count >= 2) {  // a pinch: the two fingers' distance and midpoint
      var ids = Object.keys(gesture.pointers), a = gesture.pointers[ids[0]], b = gesture.pointers[ids[1]];
      var mid = {clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2}, at = svgPoint(svg, mid);
      var v = view(svg);
      gesture.mode = "pinch";
      gesture.start = {d: Math.hypot(a.x - b.x, a.y - b.y) || 1, view: {x: v.x, y: v.y, w: v.w, h: v.h, px: at.x, py: at.y}};
      clearLayer(svg, ".ruler-layer");
      return;
    }
    var token = event.target.closest(".token");
    var p = svgPoint(svg, event);
    gesture.target = event.target;
    gesture.at = {clientX: event.clientX, clientY: event.clientY};
    if (svg.classList.contains("ruling")) {
      var from = token ? {x: num(token, "data-x"), y: num(token, "data-y")} : snap(svg, p);
      gesture.mode = "ruler"; gesture.from = from;
      if (token) drawReach(svg, token.getAttribute("data-name")); else clearLayer(svg, ".reach-layer");
    } else if (token && svg.classList.contains("clickable") && (gesture.drag = startDrag(svg, token))) {
      gesture.mode = "drag";
    } else {
      gesture.mode = "pan"; gesture.view = view(svg);
    }
  });
  document.addEventListener("pointermove", function (event) {
    if (!gesture || !gesture.pointers[event.pointerId]) return;
    var svg = gesture.svg, own = gesture.pointers[event.pointerId];
    own.x = event.clientX; own.y = event.clientY;
    if (!gesture.moved && Math.hypot(own.x - own.x0, own.y - own.y0) < MOVED_PX && gesture.mode !== "pinch") return;
    if (!gesture.moved && gesture.mode === "drag") {
      drawReach(svg, gesture.drag.name);
      svg.classList.add("dragging");
      gesture.drag.token.classList.remove("refused");
    }
    gesture.moved = true;
    event.preventDefault();
    if (gesture.mode === "pinch") {
      var ids = Object.keys(gesture.pointers), a = gesture.pointers[ids[0]], b = gesture.pointers[ids[1]];
      if (!a || !b) return;
      zoomAt(svg, Math.hypot(a.x - b.x, a.y - b.y) / gesture.start.d, 0, 0, gesture.start.view);
    } else if (gesture.mode === "pan") {
      var px = pixels(svg), v = gesture.view;
      setView(svg, {x: v.x - (own.x - own.x0) / px, y: v.y - (own.y - own.y0) / px, w: v.w, h: v.h});
    } else if (gesture.mode === "ruler") {
      var to = snap(svg, svgPoint(svg, event)), d = drawPath(svg, gesture.from, to, false);
      readout(svg, words(svg, "distance") + ": " + distanceText(svg, d));
    } else if (gesture.mode === "drag") {
      dragTo(svg, gesture.drag, snap(svg, svgPoint(svg, event)));
    }
  }, {passive: false});
  function endGesture(event) {
    if (!gesture || !gesture.pointers[event.pointerId]) return;
    var g = gesture;
    delete g.pointers[event.pointerId];
    g.count -= 1;
    if (!g.moved && event.type === "pointerup" && g.count <= 0 && g.mode !== "pinch" && g.mode !== "done") {
      tap(g.svg, g.target, g.at);
    }
    if (g.mode === "drag" && g.moved && event.type === "pointerup") {
      g.svg.classList.remove("dragging");
      drop(g.svg, g.drag);
    } else if (g.mode === "drag") {
      g.svg.classList.remove("dragging");
    }
    if (g.count <= 0) {
      gesture = null;
    } else if (g.mode === "pinch") {
      g.mode = "done";  // one finger left: nothing until both lift
    }
  }
  document.addEventListener("pointerup", endGesture);
  document.addEventListener("pointercancel", endGesture);

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
    // who may act, and who may be struck, follow the living (#status's lists, at each update):
    // a guard killed leaves the lists, a kill undone brings him back; the choice made stays
    function refill(sel, names) {
      if (!sel) return;
      var now = Array.prototype.map.call(sel.options, function (o) { return o.value; }).filter(Boolean);
      if (now.join("\n") === names.join("\n")) return;
      var chosen = sel.value, blank = !sel.required && sel.id !== "actor" && sel.id !== "defender";
      while (sel.options.length) sel.remove(0);
      if (blank || !names.length) sel.add(new Option("—", ""));
      names.forEach(function (name) { sel.add(new Option(name, name)); });
      sel.value = names.indexOf(chosen) >= 0 ? chosen : blank ? "" : (names[0] || "");
    }
    function living() {
      var status = document.querySelector("#status[data-living]");
      if (!status) return;
      var defenders = jsonList(status, "data-defenders");
      refill(form.querySelector("#actor"), jsonList(status, "data-living"));
      refill(form.querySelector("#defender"), defenders);
      form.querySelectorAll('select.target[name$=".target"]').forEach(function (sel) { refill(sel, defenders); });
    }
    ["htmx:oobAfterSwap", "htmx:afterSettle"].forEach(function (name) { document.addEventListener(name, living); });
  }

  // ---- a button that plays something (data-once: play, end the turn, undo, a die) plays it
  // once per press: a double click's second click is dropped before htmx hears it (a press
  // while the first one's answer is on its way is dropped by its hx-sync)
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button");
    if (event.detail > 1 && button && button.closest("[data-once]")) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

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
    restoreMaps();
    live(document);
    actionForm(document);
    metres(document);
  });
})();
