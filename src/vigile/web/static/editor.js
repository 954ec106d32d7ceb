// vigile's scenario editor (issue 13): the page holds the YAML text; every edit goes to the
// server (POST /api/v1/editor/apply), which changes only the edited span of the text, validates
// it and draws the map again, and the page shows it at once. Then the risk overlay and the
// safest route follow (POST /api/v1/editor/riskmap), the old one dimmed meanwhile. No build step. Markup built here escapes every value
// (escapeHtml); the map's SVG comes whole from the server's templates (escaped there).
(function () {
  "use strict";
  var root, token, lang, text, textarea, mapbox, tool = "select";
  var draft = [];          // points of a wall, cover or surface being drawn
  var selected = null;     // {kind: "actor"|"leg"|"light"|"wall"|"area", ...}
  var overlaySeq = 0, lastOverlay = null, lastRoute = null, lastHeat = null;
  var simulated = null, heatText = null;  // the texts simulated, and of the heat map shown
  var editSeq = 0, editStarted = 0;
  var actors = [];
  var valid = true;        // the text validates (else the map is its board only: no overlay)
  var past = [], future = [], confirmed = null;  // undo and redo: texts
  var PICKED = [".token", ".waypoint", ".light-handle", ".wall-end", ".wall-hit", ".area-hit"];
  var game = {speeds: [], moves: [], actions: [], stats: [], overlays: []};  // the game's words (#ed-game)

  function $(id) { return document.getElementById(id); }
  function headers() { return {"Content-Type": "application/json", "Authorization": "Bearer " + token, "Accept-Language": lang}; }
  function post(path, body) {
    return fetch("/api/v1/editor/" + path, {method: "POST", headers: headers(), body: JSON.stringify(body)});
  }
  function say(message) {
    var box = $("ed-message");
    if (!message) { box.hidden = true; box.textContent = ""; return; }
    box.hidden = false; box.textContent = message;
  }
  async function problem(response) {
    try {
      var body = await response.json();
      var lines = [body.detail || body.title], line = JSON.parse($("ed-text").textContent).line;
      (body.errors || []).forEach(function (e) { lines.push((e.line ? line.replace("{line}", e.line) + " " : "") + (e.field ? e.field + ": " : "") + e.message); });
      return lines.join("\n");
    } catch (e) { return response.status + " " + response.statusText; }
  }
  function svg() { return mapbox.querySelector("svg.map"); }
  function svgPoint(event) {
    var s = svg(), pt = s.createSVGPoint();
    pt.x = event.clientX; pt.y = event.clientY;
    var p = pt.matrixTransform(s.getScreenCTM().inverse());
    return [Math.round(p.x * 2) / 2, Math.round(p.y * 2) / 2];
  }
  function mark() { return parseFloat(getComputedStyle(svg()).getPropertyValue("--m")) || 2; }
  function escapeHtml(s) { return String(s).replace(/[&<>"']/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]; }); }

  // ---- the server's answer: text, errors, map
  function show(answer) {
    if (answer.yaml !== undefined && textarea.value !== answer.yaml) {
      var top = textarea.scrollTop;
      textarea.value = answer.yaml;
      textarea.scrollTop = top;
    }
    $("ed-errors").innerHTML = errorsHtml(answer.errors || []);
    valid = !(answer.errors || []).length;
    if (answer.actors) actors = answer.actors;
    if (answer.game) {
      var was = game.ruleset;
      game = answer.game;
      if (game.ruleset !== was) refreshGame();
    }
    if (answer.svg) {
      mapbox.innerHTML = answer.svg;
      fit();
      reapply();
      refreshIntruders();
    }
  }
  function errorsHtml(errors) {
    if (!errors.length) return '<p class="ok">' + escapeHtml(root.dataset.valid || "✓") + "</p>";
    return '<ul class="errors ed-error-list">' + errors.map(function (e) {
      var line = escapeHtml(e.line || "");
      return '<li data-line="' + line + '">' + (e.line ? '<a href="#ed-yaml" class="where" data-line="' + line + '">' + line + ":</a> " : "") +
        (e.field ? "<code>" + escapeHtml(e.field) + "</code> " : "") + escapeHtml(e.message) + "</li>";
    }).join("") + "</ul>";
  }
  // ---- the game's words: a changed ruleset changes the menus
  function labelled(terms, current) {
    return terms.map(function (term) {
      return '<option value="' + escapeHtml(term.name) + '"' + (term.name === current ? " selected" : "") + ">" + escapeHtml(term.label) + "</option>";
    }).join("");
  }
  function refreshGame() {
    [["ed-speed", game.speeds], ["ed-attitude", game.overlays]].forEach(function (pair) {
      var sel = $(pair[0]), was = sel.value;
      var names = pair[1].map(function (term) { return term.name; });
      sel.innerHTML = labelled(pair[1], names.indexOf(was) >= 0 ? was : names[0]);
    });
  }
  function refreshIntruders() {
    var names = actors.filter(function (a) { return a.side === "attackers"; }).map(function (a) { return a.name; });
    ["ed-plan-actor", "ed-route-actor"].forEach(function (id) {
      var sel = $(id), was = sel.value, blank = id === "ed-route-actor";
      var options = (blank ? ['<option value="">—</option>'] : []).concat(names.map(function (n) {
        return '<option value="' + escapeHtml(n) + '">' + escapeHtml(n) + "</option>";
      }));
      sel.innerHTML = options.join("");
      if (names.indexOf(was) >= 0 || (blank && was === "")) sel.value = was;
    });
  }

  // Edits run one at a time, each sending the text as it is when its turn comes, so a second
  // click does not send a text without the first one's answer. A change given as a function is
  // made at its turn, from the map as the edits before left it (a new guard's name, the index
  // of a wall clicked behind a deletion). An answer for a text this page changed meanwhile is
  // dropped: after an undo or a redo, whose own edit follows; after typing, the change is sent
  // again on the typed text. Undo and redo wait for the changes on their way (:func:`undo`),
  // and so do a save, a download, a simulation and a sweep, which read the text.
  var queue = Promise.resolve(true), changes = queue;
  function edit(change, restored) {
    var run = queue.then(function () { return send(change, !!restored); });
    queue = run.catch(function () { return false; });
    if (!restored) changes = queue;
    return run;
  }
  function settled() { return queue; }
  async function send(change, restored) {
    if (typeof change === "function") change = change();
    if (change === undefined) return false;  // its item is gone
    for (;;) {
      say("");
      editSeq += 1; editStarted = performance.now();
      var body = {yaml: textarea.value, edit: change, file: root.dataset.file || root.dataset.source, lang: lang};
      ++overlaySeq;  // an overlay on its way is of the text before this edit: dropped
      var response = await post("apply", body);
      // the whole answer read before it is checked: a redo may come while its body arrives
      var answer = response.ok ? await response.json() : null;
      var refused = response.ok ? null : await problem(response);
      if (textarea.value === body.yaml) break;
      if (!change || restored) return false;  // stale: the text changed here since
    }
    if (refused !== null) { say(refused); return false; }
    remember(answer.yaml !== undefined ? answer.yaml : body.yaml, restored);
    show(answer);
    // the edit is on the map now; its overlay follows when it comes (on a big map the risk
    // takes seconds), asked for with the menus as the answer left them (another game: its own
    // attitudes; an intruder gone)
    if (answer.svg) overlay();
    return true;
  }
  // ---- undo and redo: the texts before each edit (map, forms or typing), this page's only
  function buttons() { $("ed-undo").disabled = !past.length; $("ed-redo").disabled = !future.length; }
  function remember(now, restored) {
    if (!restored && confirmed !== null && now !== confirmed) {
      past.push(confirmed); future = [];
      if (past.length > 200) past.shift();
    }
    confirmed = now;
    buttons();
  }
  function back(from, to) {
    if (!from.length) return;
    to.push(textarea.value);
    textarea.value = confirmed = from.pop();
    buttons();
    edit(null, true);
  }
  // an undo pressed before an edit's answer undoes that edit: it waits for it; typing not yet
  // sent (its check waits for a pause) is sent first, so that the undo undoes it alone
  function undo() { typedNow(); choose(null); changes.then(function () { back(past, future); }); }
  function redo() { typedNow(); choose(null); changes.then(function () { back(future, past); }); }

  var typing = null;
  function typed() {
    clearTimeout(typing);
    typing = setTimeout(typedNow, 400);
  }
  function typedNow() {
    if (typing === null) return;
    clearTimeout(typing); typing = null;
    edit(null);
  }

  // ---- the risk overlay and the route
  function reapply() {
    var s = svg();
    if (!s) return;
    var image = s.querySelector("image.risk");
    if (image) {
      if (lastOverlay && $("ed-overlay").checked) {
        image.setAttribute("href", lastOverlay.href);
        image.setAttribute("width", lastOverlay.width);
        image.setAttribute("height", lastOverlay.height);
        image.style.display = "";
      } else { image.style.display = "none"; }
    }
    var route = s.querySelector("#ed-route");
    if (route) route.setAttribute("points", lastRoute && $("ed-overlay").checked ? lastRoute.points.map(function (p) { return p[0] + "," + p[1]; }).join(" ") : "");
    if (lastHeat && $("ed-heat").checked) heat(lastHeat);
  }
  var overlayPending = null;
  // The overlay asked last, until it is shown: a save waits for it, so that the note it
  // writes ("saved as ...") is not replaced at once by the overlay's own.
  var overlayRun = Promise.resolve();
  function overlay() {
    var run = askOverlay();
    overlayRun = run.catch(function () {});
    return run;
  }
  async function askOverlay() {
    if (!valid) {  // the errors say why (a board just imported, no actor yet): no risk to draw
      ++overlaySeq; lastOverlay = null; lastRoute = null; reapply(); delete mapbox.dataset.overlayDue;
      $("ed-overlay-note").textContent = ""; fit();
      return;
    }
    if (!$("ed-overlay").checked || !svg()) { ++overlaySeq; delete mapbox.dataset.overlayDue; reapply(); return; }
    var seq = ++overlaySeq, started = editStarted || performance.now();
    mapbox.dataset.overlayDue = "1";  // the overlay drawn is of the board before
    var response = await post("riskmap", {yaml: textarea.value, attitude: $("ed-attitude").value, actor: $("ed-route-actor").value || null});
    if (seq !== overlaySeq) return;  // a newer one is on its way
    if (!response.ok) {
      var why = await problem(response);
      if (seq !== overlaySeq) return;
      lastOverlay = null; lastRoute = null; reapply(); delete mapbox.dataset.overlayDue;
      $("ed-overlay-note").textContent = why;
      fit();  // the note may take more lines
      return;
    }
    overlayShown(await response.json(), seq, started);
  }
  function overlayShown(found, seq, started) {
    if (seq !== overlaySeq) return;  // a newer one is on its way
    delete mapbox.dataset.overlayDue;
    var note = $("ed-overlay-note");
    if (found.error) { lastOverlay = null; lastRoute = null; reapply(); note.textContent = found.error; fit(); return; }
    started = started || editStarted || performance.now();
    lastOverlay = found.image; lastRoute = found.route;
    reapply();
    var words = JSON.parse($("ed-text").textContent);
    var parts = [words.risk.replace("{max}", (found.image.max * 100).toFixed(1) + "%").replace("{res}", found.image.resolution)];
    if (found.route) parts.push(words.route.replace("{actor}", found.route.actor).replace("{chance}", (found.route.chance_seen * 100).toFixed(1) + "%") +
      (found.route.certain ? " (" + words.least_bad.replace("{count}", found.route.certain) + ")" : ""));
    else if (found.route_error) parts.push(words.no_route + " (" + found.route_error + ")");
    note.textContent = parts.join(" · ");
    fit();  // the note may take another line
    var elapsed = performance.now() - started;
    mapbox.dataset.overlaySeq = String(seq);
    mapbox.dataset.overlayMs = elapsed.toFixed(0);
    editStarted = 0;
  }

  // ---- the map: tools
  function setTool(name) {
    tool = name; draft = []; drawDraft();
    document.querySelectorAll(".ed-tools .tool").forEach(function (b) {
      var on = b.dataset.tool === name;
      b.classList.toggle("on", on); b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    mapbox.className = "mapbox tool-" + name;
    $("ed-finish").hidden = !(name === "cover" || name === "surface");
  }
  function drawDraft() {
    var s = svg(); if (!s) return;
    var g = s.querySelector("#ed-draft"); if (!g) return;
    var m = mark();
    g.innerHTML = draft.map(function (p) { return '<circle cx="' + p[0] + '" cy="' + p[1] + '" r="' + (m * 0.3) + '"/>'; }).join("") +
      (draft.length > 1 ? '<polyline points="' + draft.map(function (p) { return p.join(","); }).join(" ") + '"/>' : "");
  }
  function pick(event, fallback) {
    // the item under the pointer, by kind: a token before a waypoint, a lamp, a wall's end, a
    // wall or an area, whichever layer lies on top (a plan's leg or a cover area under a
    // waypoint never takes its click)
    var under = document.elementsFromPoint ? document.elementsFromPoint(event.clientX, event.clientY) : [];
    for (var k = 0; k < PICKED.length; k++) {
      for (var j = 0; j < under.length; j++) {
        var el = under[j].closest && under[j].closest(PICKED[k]);
        if (el && mapbox.contains(el)) return el;
      }
    }
    return fallback;
  }
  function uniqueDoor() {
    var base = JSON.parse($("ed-text").textContent).door_name || "door", k = 1;
    var names = Array.prototype.map.call(mapbox.querySelectorAll(".wall-hit"), function (w) { return w.dataset.name; });
    while (names.indexOf(base + " " + k) >= 0) k += 1;
    return base + " " + k;
  }
  function uniqueName(base) {
    var names = actors.map(function (a) { return a.name; }), k = 1;
    while (names.indexOf(base + " " + k) >= 0) k += 1;
    return base + " " + k;
  }
  function named(change, base) {
    // the new actor's name, taken at the edit's turn: quick clicks give Guard 1, Guard 2...
    return function () { change.name = uniqueName(base); return change; };
  }
  function signature(el) {
    // an item of the map, without its place in its list (that a deletion before it changes)
    return Array.prototype.filter.call(el.attributes, function (a) {
      return ["class", "data-index", "data-leg", "aria-label", "tabindex", "style"].indexOf(a.name) < 0;
    }).map(function (a) { return a.name + "=" + a.value; }).sort().join(" ");
  }
  function onItem(el, make) {
    // the edit of a map item, made at its turn from the item as the map shows it then: an edit
    // queued behind a deletion finds its item under its new index (undefined: it is gone).
    // The item itself, still on the map (not drawn again since), is it: a drag has moved it
    // away from its signature, and no answer has changed its index.
    var kind = PICKED.filter(function (s) { return el.matches(s); })[0], sig = signature(el);
    return function () {
      var now = Array.prototype.filter.call(mapbox.querySelectorAll(kind), function (x) { return x === el || signature(x) === sig; })[0];
      return now ? make(now) : undefined;
    };
  }
  function clickMap(at, target) {
    var token_ = target.closest(".token"), wall = target.closest(".wall-hit"), light = target.closest(".light-handle");
    var waypoint = target.closest(".waypoint"), area = target.closest(".area-hit");
    if (tool === "delete") { remove(target); return; }
    if (tool === "select") {
      if (token_) choose({kind: "actor", name: token_.dataset.name, side: token_.dataset.side});
      else if (waypoint) choose({kind: "leg", actor: waypoint.dataset.actor, index: +waypoint.dataset.leg, speed: waypoint.dataset.speed, actions: waypoint.dataset.actions, flags: waypoint.dataset.flags});
      else if (light) choose({kind: "light", index: +light.dataset.index, lightKind: light.dataset.kind, radius: light.dataset.radius});
      else if (wall) choose({kind: "wall", index: +wall.dataset.index, wallKind: wall.dataset.kind});
      else if (area) choose({kind: "area", layer: area.dataset.layer, index: +area.dataset.index});
      else choose(null);
      return;
    }
    var drawing = ["wall", "door", "partition", "window", "cover", "surface"].indexOf(tool) >= 0;
    var last = draft[draft.length - 1];
    if (drawing && last && last[0] === at[0] && last[1] === at[1]) return;  // a double click: one point
    if (["wall", "door", "partition", "window"].indexOf(tool) >= 0) {
      draft.push(at); drawDraft();
      if (draft.length === 2) {
        var wallEdit = {op: "add-wall", kind: tool, start: draft[0], end: draft[1]};
        draft = [at];  // walls chain: the next starts where this one ended
        edit(function () {
          if (wallEdit.kind === "door") wallEdit.name = uniqueDoor();  // so that a plan can open it
          return wallEdit;
        }).then(drawDraft);
      }
      return;
    }
    if (tool === "cover" || tool === "surface") { draft.push(at); drawDraft(); return; }
    if (tool === "light") {
      var lamp = {op: "add-light", kind: $("ed-light-kind").value, at: at}, radius = value($("ed-light-radius").value.trim());
      if (radius !== null) lamp.radius = radius;
      edit(lamp); return;
    }
    if (tool === "guard") {
      var change = {op: "add-actor", side: "defenders", position: at, state: $("ed-guard-state").value};
      if ($("ed-group").value.trim()) change.group = $("ed-group").value.trim();
      edit(named(change, "Guard")); return;
    }
    if (tool === "intruder") { edit(named({op: "add-actor", side: "attackers", position: at}, "Intruder")); return; }
    if (tool === "waypoint") {
      var who = $("ed-plan-actor").value;
      if (who) edit({op: "add-leg", actor: who, to: at, speed: $("ed-speed").value});
    }
  }
  function remove(target) {
    // the item ``target`` is (or is in): a token with its plan, a waypoint, a lamp, a wall, an area
    var token_ = target.closest(".token"), wall = target.closest(".wall-hit, .wall-end"), light = target.closest(".light-handle");
    var waypoint = target.closest(".waypoint"), area = target.closest(".area-hit");
    if (token_) {
      var name = token_.dataset.name;
      edit({op: "delete", path: ["actors", name]}).then(function (ok) {
        if (ok) deleted(["actors", name]);
        if (ok && textarea.value.indexOf("\n  " + name + ":") >= 0) edit({op: "delete", path: ["plans", name]});
      });
    } else if (waypoint) removeItem(waypoint, function (el) { return ["plans", el.dataset.actor, +el.dataset.leg]; });
    else if (light) removeItem(light, function (el) { return ["lights", +el.dataset.index]; });
    else if (wall) removeItem(wall, function (el) { return ["walls", +el.dataset.index]; });
    else if (area) removeItem(area, function (el) { return [area.dataset.layer, +el.dataset.index]; });
  }
  function removeItem(el, where) {
    // the item's place at the deletion's turn; once deleted, the selected item behind it moves up
    var path = null;
    edit(onItem(el, function (now) { path = where(now); return {op: "delete", path: path}; })).then(function (ok) {
      if (ok && path) deleted(path);
    });
  }
  var held = [];  // the items of the form's edits on their way (the selected one may change)
  function deleted(path) {
    // ``path`` deleted: an item after it in its list (the selected one, those of the form's
    // edits on their way) is now one place up; the item itself, or a leg of an actor deleted,
    // is gone, and its edits with it. Runs before the next edit's turn.
    [selected].concat(held).forEach(function (item, k, items) {
      if (!item || item.gone || items.indexOf(item) < k) return;  // each item once
      if (item.kind === "actor" || item.kind === "leg") {
        var who = item.kind === "actor" ? item.name : item.actor;
        if (path.length === 2 && path[1] === who && (path[0] === "actors" || (item.kind === "leg" && path[0] === "plans"))) item.gone = true;
        if (item.kind === "actor") return;
      }
      var list = {leg: ["plans", item.actor], light: ["lights"], wall: ["walls"], area: [item.layer]}[item.kind];
      if (!list || path.length !== list.length + 1) return;
      for (var k = 0; k < list.length; k++) if (path[k] !== list[k]) return;
      var at = path[list.length];
      if (at === item.index) item.gone = true;
      else if (at < item.index) item.index -= 1;
    });
    if (selected && selected.gone) choose(null);
  }
  function formEdit(make) {
    // a change of the selected item's form, made at its turn with the item's place then
    // (:func:`deleted`); dropped when the item is gone
    var item = selected;
    if (!item) return;
    held.push(item);
    edit(function () { return item.gone ? undefined : make(item); }).finally(function () {
      held.splice(held.indexOf(item), 1);
    });
  }
  function selectedElement() {
    if (!selected) return null;
    var q = {
      actor: function () { return '.token[data-name="' + CSS.escape(selected.name) + '"]'; },
      leg: function () { return '.waypoint[data-actor="' + CSS.escape(selected.actor) + '"][data-leg="' + selected.index + '"]'; },
      light: function () { return '.light-handle[data-index="' + selected.index + '"]'; },
      wall: function () { return '.wall-hit[data-index="' + selected.index + '"]'; },
      area: function () { return '.area-hit[data-layer="' + CSS.escape(selected.layer) + '"][data-index="' + selected.index + '"]'; }
    }[selected.kind];
    return q ? mapbox.querySelector(q()) : null;
  }
  function inField(target) {
    return !!(target && target.closest && target.closest("input, textarea, select, [contenteditable]"));
  }
  function fit() {
    // the whole map on the screen: no taller than the window below the map's top
    var top = mapbox.getBoundingClientRect().top + window.scrollY;
    mapbox.style.setProperty("--ed-fit", Math.max(280, window.innerHeight - top - 12) + "px");
  }
  function finishArea() {
    if (draft.length < 3) return;
    var change = {op: "add-area", layer: tool === "cover" ? "cover" : "surfaces", points: draft};
    if (tool === "surface") change.kind = $("ed-surface-kind").value;
    draft = []; drawDraft();
    edit(change);
  }

  // ---- the selected item's form
  function field(label, html) { return "<label>" + escapeHtml(label) + " " + html + "</label>"; }
  function options(values, current, labels) {
    // each value shown by its label in the page's language where it has one (#ed-text's labels)
    return values.map(function (v) {
      var label = labels && labels[v] !== undefined ? labels[v] : v;
      return '<option value="' + escapeHtml(v) + '"' + (v === current ? " selected" : "") + ">" + escapeHtml(label) + "</option>";
    }).join("");
  }
  function choose(item) {
    selected = item;
    document.querySelectorAll("#ed-mapbox .chosen").forEach(function (el) { el.classList.remove("chosen"); });
    var form = $("ed-form"), words = JSON.parse($("ed-text").textContent);
    if (!item) { form.innerHTML = ""; return; }
    var html = "";
    if (item.kind === "actor") {
      var el = mapbox.querySelector('.token[data-name="' + CSS.escape(item.name) + '"]');
      if (el) el.classList.add("chosen");
      html = "<p><strong>" + escapeHtml(item.name) + "</strong> (" + escapeHtml(item.side) + ")</p>";
      if (item.side === "defenders") {
        // a blank first: the guard's state is not known here, and any state chosen is a change
        html += field(words.fields.state, '<select data-set="state">' + options([""].concat(Object.keys(words.labels.state)), "", words.labels.state) + "</select>");
        html += field(words.fields.group, '<input data-set="group" size="12">');
      } else {
        html += field(words.fields.move, '<input data-set="move" inputmode="decimal" size="4">');
      }
      game.stats.forEach(function (stat) {  // the game's own stats (its vocabulary)
        var name = escapeHtml(stat.name), input;
        if (stat.kind === "flag") input = '<select data-set="' + name + '">' + options(["", "true", "false"], "") + "</select>";
        else if (stat.kind === "choice") input = '<select data-set="' + name + '">' + options([""].concat(stat.choices), "") + "</select>";
        else input = '<input data-set="' + name + '"' + (stat.kind === "number" ? ' inputmode="decimal"' : "") + ' size="4">';
        html += field(stat.label, input);
      });
    } else if (item.kind === "leg") {
      html = "<p><strong>" + escapeHtml(item.actor) + "</strong> — " + (item.index + 1) + (item.actions ? " (" + escapeHtml(item.actions) + ")" : "") + "</p>";
      html += field(words.speed, '<select data-leg="speed">' + labelled(game.speeds, item.speed) + "</select>");
      var flags = (item.flags || "").split(",");
      game.moves.forEach(function (move) {  // the game's switches of a leg (climb, run)
        html += '<label><input type="checkbox" data-flag="' + escapeHtml(move.name) + '"' + (flags.indexOf(move.name) >= 0 ? " checked" : "") + "> " + escapeHtml(move.label) + "</label>";
      });
      html += "<fieldset><legend>" + escapeHtml(words.add_action) + "</legend>" +
        '<select id="ed-action-do">' + labelled(game.actions, "") + "</select> " +
        '<input id="ed-action-what" size="14" placeholder="target / door / volume"> <button type="button" id="ed-action-add" class="secondary">+</button></fieldset>';
    } else if (item.kind === "light") {
      html = field(words.fields.kind, '<select data-light="kind">' + options(Object.keys(words.labels.light), item.lightKind, words.labels.light) + "</select>") +
        field(words.fields.radius, '<input data-light="radius" inputmode="decimal" size="4" value="' + escapeHtml(item.radius) + '">');
    } else if (item.kind === "wall") {
      html = field(words.fields.kind, '<select data-wall="kind">' + options(Object.keys(words.labels.wall), item.wallKind, words.labels.wall) + "</select>");
    } else if (item.kind === "area") {
      html = "<p>" + escapeHtml(item.layer) + " " + (item.index + 1) + "</p>";
    }
    form.innerHTML = html;
  }
  function value(text_) {
    if (text_ === "") return null;
    if (text_ === "true") return true;
    if (text_ === "false") return false;
    var n = Number(text_.replace(",", "."));
    return isNaN(n) ? text_ : n;
  }
  function formChange(event) {
    var el = event.target, now = el.value, on = el.checked, flag = el.dataset.flag;
    if (!selected) return;
    if (el.dataset.set) formEdit(function (item) { return {op: "set-actor", name: item.name, field: el.dataset.set, value: value(now)}; });
    else if (el.dataset.leg) formEdit(function (item) { return {op: "set-leg", actor: item.actor, index: item.index, speed: now}; });
    else if (flag) {
      formEdit(function (item) {
        var where = ["plans", item.actor, item.index, flag];
        return on ? {op: "set", path: where, value: true} : {op: "delete", path: where};
      });
    }
    else if (el.dataset.light === "kind") formEdit(function (item) { return {op: "set-light", index: item.index, kind: now}; });
    else if (el.dataset.light === "radius") formEdit(function (item) { return {op: "set-light", index: item.index, radius: value(now)}; });
    else if (el.dataset.wall) formEdit(function (item) { return {op: "set-wall", index: item.index, kind: now}; });
  }
  function addAction() {
    // the one input fills the action's first required field, as the game's words say
    // (its vocabulary, with each action's field and type): a target, a door, a point...
    var what = $("ed-action-do").value, arg = $("ed-action-what").value.trim(), action = {do: what};
    var term = game.actions.filter(function (a) { return a.name === what; })[0] || {};
    if (what === "throw-grapple") action.onto = arg || "tile";
    else if (term.field && term.kind === "point") {
      var xy = arg.split(/[ ,;]+/).map(Number);
      if (xy.length === 2 && !isNaN(xy[0]) && !isNaN(xy[1])) action[term.field] = xy;
    } else if (term.field && term.kind === "choice") action[term.field] = arg || term.choices[0];
    else if (term.field && term.kind === "number") { if (arg) action[term.field] = Number(arg.replace(",", ".")); }
    else if (term.field && arg) action[term.field] = arg;
    formEdit(function (item) { return {op: "add-action", actor: item.actor, index: item.index, action: action}; });
  }

  // ---- dragging: a token, a lamp, a wall's end, a waypoint
  var drag = null;
  function pointerDown(event) {
    if (tool !== "select" || !svg()) return;
    var target = event.target;
    var picked = pick(event, target);
    var el = picked && picked.closest(".token, .light-handle, .wall-end, .waypoint");
    if (!el) return;
    drag = {el: el, start: svgPoint(event), moved: false, pointer: event.pointerId};
    drag.find = onItem(el, function (now) { return now; });  // before it moves
    el.setPointerCapture && el.setPointerCapture(event.pointerId);
    event.preventDefault();
  }
  function pointerMove(event) {
    var s = svg(); if (!s) return;
    var at = svgPoint(event);
    var cursor = $("cursor"); if (cursor) cursor.textContent = "(" + at[0] + ", " + at[1] + ") " + (s.getAttribute("data-unit") || "");
    if (!drag) return;
    var dx = at[0] - drag.start[0], dy = at[1] - drag.start[1];
    if (Math.abs(dx) + Math.abs(dy) > 0) drag.moved = true;
    drag.at = at;
    var el = drag.el;
    if (el.classList.contains("token") || el.classList.contains("waypoint")) el.setAttribute("transform", "translate(" + at[0] + " " + at[1] + ")");
    else { el.setAttribute("cx", at[0]); el.setAttribute("cy", at[1]); }
  }
  function pointerUp(event) {
    if (!drag) return;
    var d = drag; drag = null;
    if (!d.moved || !d.at) { clickMap(svgPoint(event), d.el); return; }
    var el = d.el;
    if (el.classList.contains("token")) { edit({op: "move-actor", name: el.dataset.name, to: d.at}); return; }
    edit(function () {  // by its index at the edit's turn (a deletion before it moves it up)
      var now = d.find();
      if (!now) return undefined;
      if (now.classList.contains("light-handle")) return {op: "move-light", index: +now.dataset.index, to: d.at};
      if (now.classList.contains("waypoint")) return {op: "set-leg", actor: now.dataset.actor, index: +now.dataset.leg, to: d.at};
      var w = {op: "set-wall", index: +now.dataset.index}; w[now.dataset.end] = d.at;
      return w;
    });
  }

  // ---- simulate (SSE over a POST: read the stream with fetch)
  async function simulate() {
    await settled();
    var runs = parseInt($("ed-runs").value, 10) || 1000, seedText = $("ed-seed").value.trim();
    var body = {yaml: textarea.value, runs: runs};
    if (seedText) body.seed = parseInt(seedText, 10);
    simulated = body.yaml;
    var bar = $("ed-progress"), out = $("ed-sim-result");
    bar.hidden = false; bar.max = runs; bar.value = 0; out.innerHTML = ""; $("ed-simulate").disabled = true;
    try {
      var response = await post("simulate", body);
      if (!response.ok) { out.textContent = await problem(response); return; }
      var reader = response.body.getReader(), decoder = new TextDecoder(), buffer = "";
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, {stream: true});
        var cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          var message = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
          var kind = "message", data = "";
          message.split("\n").forEach(function (line) {
            if (line.indexOf("event: ") === 0) kind = line.slice(7);
            else if (line.indexOf("data: ") === 0) data += line.slice(6);
          });
          var parsed = data ? JSON.parse(data) : null;
          if (kind === "progress") { bar.value = parsed.done; bar.setAttribute("data-done", parsed.done); }
          else if (kind === "result") { outcomes(parsed); }
          else if (kind === "error") { out.textContent = parsed.detail; }
        }
      }
    } finally { $("ed-simulate").disabled = false; }
  }
  function pct(p) { return (p * 100).toFixed(1) + "%"; }
  function outcomes(found) {
    var words = JSON.parse($("ed-text").textContent);
    var rows = Object.keys(found.outcomes).filter(function (k) { return found.outcomes[k].count > 0; }).map(function (k) {
      var o = found.outcomes[k];
      return '<tr data-outcome="' + escapeHtml(k) + '" data-p="' + escapeHtml(o.p) + '"><th scope="row">' + escapeHtml(words.labels.outcome[k] || k) + "</th><td>" + pct(o.p) + "</td><td>" + pct(o.ci95[0]) + " – " + pct(o.ci95[1]) + "</td></tr>";
    });
    var d = found.detected;
    rows.push('<tr data-outcome="detected" data-p="' + d.p + '"><th scope="row">' + escapeHtml(words.detected) + "</th><td>" + pct(d.p) + "</td><td>" + pct(d.ci95[0]) + " – " + pct(d.ci95[1]) + "</td></tr>");
    $("ed-sim-result").innerHTML = '<table class="ed-outcomes" data-runs="' + escapeHtml(found.runs) + '"><thead><tr><th>' + escapeHtml(words.outcome) + "</th><th>" + escapeHtml(words.chance) + "</th><th>" + escapeHtml(words.interval) + "</th></tr></thead><tbody>" + rows.join("") + "</tbody></table>";
    lastHeat = found.heat; heatText = simulated;
    $("ed-heat-label").hidden = false;
    heat(lastHeat);
  }
  function heat(found) {
    // drawn over the board it was simulated on only: an edit takes it off, an undo back to
    // that text puts it back
    var s = svg(); if (!s) return;
    var image = s.querySelector("image.heat");
    if (!$("ed-heat").checked || textarea.value !== heatText) { if (image) image.remove(); return; }
    if (!image) {
      image = document.createElementNS("http://www.w3.org/2000/svg", "image");
      image.setAttribute("class", "heat"); image.setAttribute("x", "0"); image.setAttribute("y", "0");
      image.setAttribute("preserveAspectRatio", "none");
      var risk = s.querySelector("image.risk");
      s.insertBefore(image, risk ? risk.nextSibling : s.firstChild);
    }
    image.setAttribute("href", found.href);
    image.setAttribute("width", found.width); image.setAttribute("height", found.height);
  }

  // ---- sweep
  async function sweep(event) {
    event.preventDefault();
    var form = event.target, vary = [];
    [1, 2].forEach(function (k) {
      var f = form["field" + k].value.trim();
      if (!f) return;
      vary.push({field: f, start: Number(form["start" + k].value), stop: Number(form["stop" + k].value), step: Number(form["step" + k].value)});
    });
    var out = $("ed-sweep-result");
    if (!vary.length) return;
    await settled();
    out.innerHTML = '<progress></progress>';
    var response = await post("sweep", {yaml: textarea.value, vary: vary, runs: parseInt(form.runs.value, 10) || 300, outcome: form.outcome.value});
    if (!response.ok) { out.textContent = await problem(response); return; }
    var found = await response.json();
    out.innerHTML = found.svg;
  }

  // ---- save and download
  async function download() {
    await settled();
    var blob = new Blob([textarea.value], {type: "application/yaml"});
    var a = document.createElement("a");
    var name = (root.dataset.file || root.dataset.source || "scenario.yaml").split("/").pop();
    if (!/\.ya?ml$/i.test(name)) name = name.replace(/\.[^.]*$/, "") + ".yaml";
    a.href = URL.createObjectURL(blob); a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
  }
  async function save(confirmed) {
    await settled();  // the text with every edit on its way
    await overlayRun;  // and the overlay it asked for, whose note would replace the save's
    var words = JSON.parse($("ed-text").textContent);
    var name = $("ed-save-name").value.trim();
    if (!name) return;
    var same = name === root.dataset.file;
    var response = await post("save", {yaml: textarea.value, file: name, hash: same ? (root.dataset.loaded || null) : null, confirm: !!confirmed});
    if (response.status === 409 && !confirmed) {
      var why = await problem(response);
      if (window.confirm(why + "\n\n" + words.confirm_replace)) return save(true);
      return;
    }
    if (!response.ok) { say(await problem(response)); return; }
    var found = await response.json();
    root.dataset.file = found.file; root.dataset.loaded = found.hash;
    $("ed-source").textContent = found.file;
    say(""); var note = $("ed-overlay-note"); note.textContent = words.saved.replace("{file}", found.file);
  }

  function start() {
    root = $("editor");
    if (!root) return;
    token = root.dataset.token; lang = root.dataset.lang;
    textarea = $("ed-yaml"); mapbox = $("ed-mapbox");
    root.dataset.valid = (document.querySelector("#ed-errors .ok") || {}).textContent || "✓";
    valid = !!document.querySelector("#ed-errors .ok");
    actors = Array.prototype.map.call(mapbox.querySelectorAll(".token"), function (t) { return {name: t.dataset.name, side: t.dataset.side}; });
    game = JSON.parse($("ed-game").textContent);
    document.querySelectorAll(".ed-tools .tool").forEach(function (b) { b.addEventListener("click", function () { setTool(b.dataset.tool); }); });
    $("ed-finish").addEventListener("click", finishArea);
    mapbox.addEventListener("pointerdown", pointerDown);
    mapbox.addEventListener("pointermove", pointerMove);
    mapbox.addEventListener("pointerup", pointerUp);
    mapbox.addEventListener("click", function (event) {
      var target = pick(event, event.target);
      if (tool === "select" && target.closest(".token, .light-handle, .wall-end, .waypoint")) return;  // pointerup did it
      if (!svg() || !event.target.closest("svg.map")) return;
      clickMap(svgPoint(event), target);
    });
    mapbox.addEventListener("dblclick", function () { if (tool === "cover" || tool === "surface") finishArea(); });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { draft = []; drawDraft(); }
      if (event.key === "Enter" && (tool === "cover" || tool === "surface") && draft.length >= 3) finishArea();
      var el = event.target.closest && event.target.closest("#ed-mapbox .token, #ed-mapbox .waypoint, #ed-mapbox .light-handle");
      if (el && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); clickMap([0, 0], el); }
      if (inField(event.target)) return;  // the text's own keys (its own undo) stay its own
      if ((event.key === "Delete" || event.key === "Backspace") && selected) {
        var chosen = selectedElement();
        if (chosen) { event.preventDefault(); choose(null); remove(chosen); }
      }
      var key = (event.key || "").toLowerCase();
      if ((event.ctrlKey || event.metaKey) && key === "z") { event.preventDefault(); if (event.shiftKey) redo(); else undo(); }
      if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); redo(); }
    });
    $("ed-undo").addEventListener("click", undo);
    $("ed-redo").addEventListener("click", redo);
    confirmed = textarea.value;
    fit();
    window.addEventListener("resize", fit);
    textarea.addEventListener("input", typed);
    $("ed-form").addEventListener("change", formChange);
    $("ed-form").addEventListener("click", function (event) { if (event.target.id === "ed-action-add") addAction(); });
    ["ed-overlay", "ed-attitude", "ed-route-actor"].forEach(function (id) {
      // after the edits on their way: an overlay asked for now would be of the text before them
      $(id).addEventListener("change", function () { settled().then(function () { editStarted = performance.now(); overlay(); }); });
    });
    $("ed-heat").addEventListener("change", function () { if (lastHeat) heat(lastHeat); });
    $("ed-simulate").addEventListener("click", simulate);
    $("ed-sweep-form").addEventListener("submit", sweep);
    $("ed-download").addEventListener("click", download);
    if ($("ed-save")) $("ed-save").addEventListener("click", function () { save(false); });
    $("ed-errors").addEventListener("click", function (event) {
      var a = event.target.closest("a[data-line]"); if (!a) return;
      event.preventDefault();
      var line = +a.dataset.line, lines = textarea.value.split("\n"), at = 0;
      for (var k = 0; k < line - 1 && k < lines.length; k++) at += lines[k].length + 1;
      textarea.focus(); textarea.setSelectionRange(at, at + (lines[line - 1] || "").length);
    });
    window.vigileEditor = {edit: edit, overlay: overlay, setTool: setTool, undo: undo, redo: redo};
    if (svg()) { editStarted = performance.now(); overlay(); }
  }
  document.addEventListener("DOMContentLoaded", start);
})();
