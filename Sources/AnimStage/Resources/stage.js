// The stage page: applies the frames the server sends (each target's SVG attributes, computed
// by the server's drawing rules, copied as they are), and sends the transport's and the
// console's commands back. Plain script, no libraries: the page works offline.
'use strict';

const params = new URLSearchParams(location.search);
const token = params.get('token') || '';
const svgNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const stage = $('stage');

/** The drawn elements by target name (names may hold brackets: never used in a selector). */
const drawn = new Map();
for (const g of stage.querySelectorAll('g[data-target]')) {
  drawn.set(g.getAttribute('data-target'), { g, shape: g.firstElementChild, cache: {} });
}

let state = null;
let overview = null;
let selected = null;
let socket = null;
let scrubbing = false;

function send(command) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(command);
}

function setAttributes(element, attributes, cache) {
  for (const name in attributes) {
    const value = attributes[name];
    if (cache[name] !== value) {
      element.setAttribute(name, value);
      cache[name] = value;
    }
  }
}

/** The stage's element for `target`, made when new (or when its element changes). */
function element(target) {
  let entry = drawn.get(target.n);
  if (target.e !== undefined && (!entry || entry.shape.localName !== target.e)) {
    if (entry) entry.g.remove();
    drawn.delete(target.n);
    if (target.e === null) return null;
    const g = document.createElementNS(svgNS, 'g');
    g.setAttribute('data-target', target.n);
    g.appendChild(document.createElementNS(svgNS, target.e));
    stage.appendChild(g);
    entry = { g, shape: g.firstElementChild, cache: { g: {}, s: {} } };
    drawn.set(target.n, entry);
  }
  return entry || null;
}

/** Applies targets' attributes: every target of a whole state (`complete`: the others go),
 * or the changed ones of a frame, each with only its changed attributes. */
function applyTargets(targets, complete) {
  const seen = new Set();
  for (const target of targets) {
    seen.add(target.n);
    const entry = element(target);
    if (!entry) continue;
    if (!entry.cache.g) entry.cache = { g: {}, s: {} };
    setAttributes(entry.g, target.g, entry.cache.g);
    setAttributes(entry.shape, target.s, entry.cache.s);
    if (target.x !== undefined && entry.shape.textContent !== target.x) entry.shape.textContent = target.x;
  }
  if (complete) {
    for (const [name, entry] of drawn) {
      if (!seen.has(name)) {
        entry.g.remove();
        drawn.delete(name);
      }
    }
  }
}

function seconds(t) {
  return (Math.round(t * 1000) / 1000).toString() + 's';
}

/** The target names in order, for the inspector's choice. */
let names = [];

/** A whole state (on connecting) or a frame of what changed since the one before. */
function applyState(next) {
  const previous = state;
  if (!next.delta) {
    state = next;
    names = next.targets.map((t) => t.n);
    applyTargets(next.targets, true);
  } else {
    const values = Object.assign(state ? state.sample.values : {}, next.values);
    const ranges = Object.assign(state ? state.ranges : {}, next.ranges);
    state = Object.assign({}, next, { sample: { t: next.t, values }, ranges });
    if (next.removed.length) names = names.filter((n) => !next.removed.includes(n));
    const added = next.targets.filter((t) => t.e !== undefined && !names.includes(t.n));
    if (added.length) names = names.concat(added.map((t) => t.n));
    for (const name of next.removed) {
      const entry = drawn.get(name);
      if (entry) entry.g.remove();
      drawn.delete(name);
    }
    applyTargets(next.targets, false);
  }
  if (next.viewBox && stage.getAttribute('viewBox') !== next.viewBox) stage.setAttribute('viewBox', next.viewBox);
  $('play').textContent = next.paused ? '\u25b6' : '\u275a\u275a';
  $('play').setAttribute('aria-pressed', String(!next.paused));
  $('time').textContent = seconds(next.t);
  if (!scrubbing) $('scrubber').value = String(next.t);
  $('speed-value').textContent = next.speed + '\u00d7';
  if (document.activeElement !== $('speed')) $('speed').value = String(next.speed);
  $('same-time').checked = next.sameTime;
  $('scrubber').disabled = next.interactive;
  const diagnostics = $('diagnostics');
  diagnostics.hidden = next.diagnostics === null;
  diagnostics.textContent = next.diagnostics || '';
  document.body.dataset.paused = String(next.paused);
  document.body.dataset.time = String(next.t);
  if (!previous || previous.timelines.join('\n') !== next.timelines.join('\n')) showTimelineControls(next.timelines);
  updateChoice();
  // The inspector changes with the selected target's values, which a frame may not carry.
  if (!next.delta || Object.keys(next.values).length || Object.keys(next.ranges).length || inspected !== selected) {
    inspected = selected;
    showInspector();
  }
  movePlayhead();
}

/** The target the inspector shows. */
let inspected = null;

/** Shows the newly selected target. */
function reselect() {
  if (!state) return;
  updateChoice();
  inspected = selected;
  showInspector();
}

/** The names the choice lists, to rebuild it only when they change. */
let listed = null;

function updateChoice() {
  const choice = $('target-choice');
  if (listed !== names) {
    listed = names;
    choice.textContent = '';
    for (const name of names) choice.add(new Option(name, name));
  }
  if (selected === null || !names.includes(selected)) selected = names[0] ?? null;
  if (selected !== null && choice.value !== selected) choice.value = selected;
  if (marked !== selected || (selected !== null && !drawn.get(selected)?.g.classList.contains('selected'))) {
    for (const [name, entry] of drawn) entry.g.classList.toggle('selected', name === selected);
    marked = selected;
  }
}

/** The target drawn as selected. */
let marked = null;

/** The selected target's properties: numbers on their gauge, overshoot clipped and marked. */
function showInspector() {
  const table = $('gauges');
  const rows = [];
  if (state && selected !== null) {
    const prefix = selected + '.';
    for (const name in state.sample.values) {
      if (!name.startsWith(prefix) || name.lastIndexOf('.') !== prefix.length - 1) continue;
      rows.push([name, state.sample.values[name], state.ranges[name]]);
    }
  }
  table.textContent = '';
  for (const [name, value, range] of rows) {
    const row = table.insertRow();
    row.dataset.property = name;
    row.insertCell().textContent = name.slice(selected.length + 1);
    const cell = row.insertCell();
    const text = row.insertCell();
    text.className = 'value';
    if (typeof value === 'string') {
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = value;
      cell.appendChild(swatch);
      text.textContent = value;
    } else if (Array.isArray(value)) {
      text.textContent = '[' + value.map(short).join(', ') + ']';
    } else {
      text.textContent = short(value);
      if (range) {
        const [low, high, paused, reversed] = range;
        const gauge = document.createElement('div');
        gauge.className = 'gauge';
        const fill = document.createElement('div');
        fill.className = 'fill';
        let f = high > low ? (value - low) / (high - low) : 1;
        if (f > 1) gauge.classList.add('over');
        if (f < 0) gauge.classList.add('under');
        if (f > 1 || f < 0) {
          const mark = document.createElement('span');
          mark.className = 'mark';
          mark.textContent = f > 1 ? '\u25b6' : '\u25c0';
          gauge.appendChild(mark);
        }
        f = Math.min(Math.max(f, 0), 1);
        fill.style.width = (f * 100).toFixed(1) + '%';
        gauge.appendChild(fill);
        cell.appendChild(gauge);
        const flags = [paused ? 'paused' : '', reversed ? 'reversed' : ''].filter(Boolean).join(' ');
        if (flags) {
          const span = document.createElement('span');
          span.className = 'flags';
          span.textContent = ' ' + flags;
          text.appendChild(span);
        }
      }
    }
  }
}

function short(x) {
  return x === null ? 'nan' : String(Math.round(x * 1000) / 1000);
}

// MARK: - Lanes

const laneHeight = 22;
const labelWidth = 150;

function drawLanes() {
  const canvas = $('lanes');
  const lanes = overview ? overview.lanes : [];
  const width = canvas.clientWidth || 900;
  canvas.width = width;
  canvas.height = Math.max(1, lanes.length) * laneHeight + 14;
  const c = canvas.getContext('2d');
  c.clearRect(0, 0, canvas.width, canvas.height);
  c.font = '11px system-ui, sans-serif';
  if (!overview) {
    c.fillStyle = '#8a93a3';
    c.fillText(state && state.interactive ? 'interactive session: no script to lay out' : 'no script', 4, 14);
    return;
  }
  const span = width - labelWidth - 8;
  const x = (t) => labelWidth + (t / overview.duration) * span;
  lanes.forEach((lane, i) => {
    const top = i * laneHeight;
    c.fillStyle = i % 2 ? '#1b1e24' : '#1f232b';
    c.fillRect(0, top, width, laneHeight);
    c.fillStyle = '#d8dde6';
    c.fillText(lane.p, 4, top + 15, labelWidth - 8);
    const values = lane.values;
    const finite = values.filter((v) => v !== null);
    const low = Math.min(...finite);
    const high = Math.max(...finite);
    for (const [from, to] of lane.bars) {
      c.fillStyle = 'rgba(91,141,239,0.35)';
      c.fillRect(x(from), top + 3, Math.max(2, x(to) - x(from)), laneHeight - 6);
      if (values.length > 1 && high > low) {
        c.strokeStyle = '#9ec1ff';
        c.beginPath();
        const first = Math.floor(from * overview.fps);
        const last = Math.min(values.length - 1, Math.ceil(to * overview.fps));
        for (let k = first; k <= last; k++) {
          if (values[k] === null || values[k] === undefined) continue;
          const px = x(k / overview.fps);
          const py = top + laneHeight - 4 - ((values[k] - low) / (high - low)) * (laneHeight - 8);
          if (k === first) c.moveTo(px, py); else c.lineTo(px, py);
        }
        c.stroke();
      }
    }
  });
  const bottom = lanes.length * laneHeight;
  for (const event of overview.events) {
    const px = x(event.t);
    c.fillStyle = event.print !== undefined ? '#b9f0a8' : event.subject === undefined ? '#ffcc55' : '#8a93a3';
    c.fillRect(px - 1, bottom + 2, 2, 10);
  }
  movePlayhead();
}

function movePlayhead() {
  if (!overview || !state) return;
  const canvas = $('lanes');
  const span = (canvas.clientWidth || 900) - labelWidth - 8;
  const t = Math.min(state.t, overview.duration);
  $('playhead').style.left = (labelWidth + (t / overview.duration) * span) + 'px';
}

function showTimelineControls(timelines) {
  const box = $('timeline-controls');
  box.textContent = '';
  for (const name of timelines) {
    const control = document.createElement('span');
    control.className = 'lane-control';
    control.dataset.timeline = name;
    control.append(name + ' ');
    for (const [label, statement] of [['pause', 'pause ' + name], ['resume', 'resume ' + name],
      ['reverse', 'reverse ' + name], ['play', 'play ' + name], ['seek 0', 'seek ' + name + ' to 0s'],
      ['\u00bd\u00d7', 'speed ' + name + ' 0.5'], ['1\u00d7', 'speed ' + name + ' 1']]) {
      const button = document.createElement('button');
      button.textContent = label;
      button.dataset.statement = statement;
      button.addEventListener('click', () => send('statement ' + statement));
      control.appendChild(button);
    }
    box.appendChild(control);
  }
}

// MARK: - Log

function addLog(entries, t) {
  const log = $('log');
  for (const entry of entries) {
    const item = document.createElement('li');
    const time = document.createElement('span');
    time.className = 't';
    time.textContent = seconds(entry.t ?? t);
    item.appendChild(time);
    let text;
    if (entry.event !== undefined) {
      item.className = 'event';
      text = entry.subject === undefined ? '"' + entry.event + '"' : entry.event + ' ' + entry.subject;
    } else if (entry.print !== undefined) {
      item.className = 'print';
      text = entry.print;
    } else if (entry.error !== undefined) {
      item.className = 'error';
      text = entry.error;
    } else if (entry.statement !== undefined) {
      item.className = 'statement';
      text = '> ' + entry.statement;
    } else {
      item.className = 'note';
      text = entry.note;
    }
    item.append(text);
    log.appendChild(item);
  }
  while (log.childElementCount > 500) log.firstElementChild.remove();
  if (entries.length) log.scrollTop = log.scrollHeight;
}

// MARK: - Connection

/** Frames received and not yet applied. */
let pending = [];

function applyPending() {
  const frames = pending;
  pending = [];
  // Whole states in order; the frames after the last one merged into one, so that each
  // element is written at most once per animation frame.
  let start = 0;
  for (let k = frames.length - 1; k >= 0; k--) {
    if (!frames[k].delta) {
      start = k;
      break;
    }
  }
  if (!frames[start].delta) {
    applyState(frames[start]);
    addLog(frames[start].log, frames[start].t);
    start += 1;
  }
  if (start >= frames.length) return;
  const merged = Object.assign({}, frames[frames.length - 1], { targets: [], removed: [], values: {}, ranges: {} });
  const byName = new Map();
  for (const frame of frames.slice(start)) {
    for (const name of frame.removed) {
      byName.delete(name);
      merged.removed.push(name);
    }
    for (const target of frame.targets) {
      const known = byName.get(target.n);
      if (!known) {
        byName.set(target.n, { n: target.n, e: target.e, g: Object.assign({}, target.g), s: Object.assign({}, target.s),
          x: target.x, u: target.u });
        continue;
      }
      if (target.e !== undefined) known.e = target.e;
      Object.assign(known.g, target.g);
      Object.assign(known.s, target.s);
      if (target.x !== undefined) known.x = target.x;
      if (target.u !== undefined) known.u = target.u;
    }
    Object.assign(merged.values, frame.values);
    Object.assign(merged.ranges, frame.ranges);
    addLog(frame.log, frame.t);
  }
  merged.targets = Array.from(byName.values());
  applyState(merged);
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(scheme + '//' + location.host + '/ws?token=' + encodeURIComponent(token));
  socket.onopen = () => { $('status').textContent = 'live'; };
  socket.onclose = () => {
    $('status').textContent = 'disconnected: retrying';
    setTimeout(connect, 1000);
  };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === 'overview') {
      overview = data.overview;
      if (overview) {
        $('scrubber').max = String(overview.duration);
        $('duration').textContent = seconds(overview.duration) + (overview.endless ? '+' : '');
      }
      drawLanes();
    } else if (data.type === 'frame') {
      // Applied at the next animation frame, all that came meanwhile in order: the page draws
      // once per frame however the messages fall.
      pending.push(data);
      if (pending.length === 1) requestAnimationFrame(applyPending);
    }
  };
}

// MARK: - Controls

$('play').addEventListener('click', () => send('toggle'));
$('restart').addEventListener('click', () => send('restart'));
$('reverse').addEventListener('click', () => send('reverse'));
$('step-back').addEventListener('click', () => send('step -1'));
$('step-forward').addEventListener('click', () => send('step 1'));
$('speed').addEventListener('input', (e) => send('speed ' + e.target.value));
$('same-time').addEventListener('change', (e) => send('sametime ' + (e.target.checked ? 'on' : 'off')));
$('scrubber').addEventListener('input', (e) => {
  scrubbing = true;
  send('scrub ' + e.target.value);
});
$('scrubber').addEventListener('change', () => { scrubbing = false; });
$('target-choice').addEventListener('change', (e) => {
  selected = e.target.value;
  reselect();
});
stage.addEventListener('click', (e) => {
  const g = e.target.closest('g[data-target]');
  if (!g) return;
  selected = g.getAttribute('data-target');
  reselect();
});
$('statement-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('statement').value.trim();
  if (text) send('statement ' + text);
  $('statement').value = '';
});
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type !== 'range' && e.target.type !== 'checkbox') return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  let command = null;
  switch (e.key) {
    case ' ': command = 'toggle'; break;
    case 'ArrowLeft': command = 'step -1'; break;
    case 'ArrowRight': command = 'step 1'; break;
    case 'r': command = 'reverse'; break;
    case 'Home': command = 'restart'; break;
    case '+': case '=': command = 'faster'; break;
    case '-': case '_': command = 'slower'; break;
  }
  if (command) {
    e.preventDefault();
    send(command);
  }
});
// A lane's label pauses or resumes its property (the statements `pause T.p`, `resume T.p`);
// a click in the lanes scrubs there.
$('lanes').addEventListener('click', (e) => {
  if (!overview) return;
  const lane = overview.lanes[Math.floor(e.offsetY / laneHeight)];
  if (e.offsetX < labelWidth) {
    if (!lane) return;
    const range = state && state.ranges[lane.p];
    send('statement ' + (range && range[2] ? 'resume ' : 'pause ') + lane.p);
  } else if (state && !state.interactive) {
    const span = ($('lanes').clientWidth || 900) - labelWidth - 8;
    const t = Math.min(Math.max((e.offsetX - labelWidth) / span, 0), 1) * overview.duration;
    send('scrub ' + t.toFixed(3));
  }
});
window.addEventListener('resize', drawLanes);

connect();
