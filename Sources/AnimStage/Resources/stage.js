// The stage page: applies the frames the server sends (each target's SVG attributes, computed
// by the server's drawing rules, copied as they are), and sends the transport's and the
// console's commands back. Plain script, no libraries: the page works offline.
//
// A frame (a binary message, StageFrameEncoder.swift) is a small JSON part and the numbers
// that changed, as doubles: a target's attribute is kept as its text around its numbers
// (`pieces`), so a changed number is written into the text without parsing anything. All the
// messages that arrive between two animation frames are applied at the next one, and each
// attribute is written at most once there, only when its text changed; nothing on the page
// reads layout while applying.
//
// What the browser does after the writes costs far more than the writes: with a thousand
// moving SVG groups, Chromium spends about 5 ms of a frame on them however few changed, and
// about 6 ms more when all did (measured with --disable-gpu). So while frames come late with
// more than 200 targets waiting, the stage is written every second, third or at most fourth
// animation frame (`stride`), all waiting targets at once with their newest numbers, and again
// more often after 30 frames in a row on time (more after a smaller stride failed); the time,
// transport and inspector are written on those frames too, leaving the others empty. A scene
// of up to 200 moving targets is written every frame.
'use strict';

const params = new URLSearchParams(location.search);
const token = params.get('token') || '';
const svgNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const stage = $('stage');
const utf8 = new TextDecoder();

/** The drawn elements by target name (names may hold brackets: never used in a selector):
 * `{g, shape, attributes: [{element, name, pieces, numbers, text, dirty}], slots: [[a, k]]}`,
 * `slots[j]` naming the j-th number of the target (attribute a's k-th). */
const drawn = new Map();
for (const g of stage.querySelectorAll('g[data-target]')) {
  drawn.set(g.getAttribute('data-target'), { g, shape: g.firstElementChild, attributes: [], slots: [] });
}
/** The target names in order (a frame names a target by its index here). */
let names = Array.from(drawn.keys());

let state = null;
let overview = null;
let selected = null;
let socket = null;
let scrubbing = false;

function send(command) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(command);
}

/** The targets whose attributes changed and are not yet written. */
const waiting = new Set();
/** The time of the last animation frame that applied anything, while they follow each other. */
let lastFrame = null;

function compose(attribute) {
  const { pieces, numbers } = attribute;
  let text = pieces[0];
  for (let k = 0; k < numbers.length; k++) text += numbers[k] + pieces[k + 1];
  return text;
}

/** Marks an attribute of `entry` as changed. */
function touch(entry, attribute) {
  if (attribute.dirty) return;
  attribute.dirty = true;
  waiting.add(entry);
}

/** Every how many animation frames the stage is written (1: every frame), how many frames
 * in a row came on time, how many must before a smaller stride is tried, the frames since it
 * last was, and the animation frames so far. */
let stride = 1;
let toldStride = 1;
let onTime = 0;
let streakNeeded = 30;
let sinceSmaller = Infinity;
let frameNumber = 0;

/** Writes the changed attributes of every waiting target, at every `stride`-th animation
 * frame, after adapting the stride to how late this frame came: a frame more than 20 ms late
 * with more than 200 targets waiting makes it larger (at most 4), and `streakNeeded` frames
 * in a row on time smaller. A smaller stride that fails within a second doubles the streak
 * the next try needs (up to 8 s): on a machine that cannot keep it, trying it every half
 * second made a late frame every half second. Returns whether this frame wrote (false: it
 * left the stage for a later frame of its stride). */
function writeDirty(now) {
  frameNumber += 1;
  sinceSmaller += 1;
  if (lastFrame !== null && now - lastFrame < 100) {
    const interval = now - lastFrame;
    if (interval > 20 && waiting.size > 200) {
      if (sinceSmaller < 60) streakNeeded = Math.min(streakNeeded * 2, 480);
      stride = Math.min(stride + 1, 4);
      onTime = 0;
    } else if (interval <= 17.5 && ++onTime >= streakNeeded && stride > 1) {
      stride -= 1;
      onTime = 0;
      sinceSmaller = 0;
    }
  }
  stats.stride = stride;
  // (The server need not send more frames than the page writes: it is told.)
  if (stride !== toldStride) {
    toldStride = stride;
    send('stride ' + stride);
  }
  if (frameNumber % stride !== 0 && waiting.size > 200) return false;
  for (const entry of waiting) {
    for (const attribute of entry.attributes) {
      if (!attribute.dirty) continue;
      attribute.dirty = false;
      const text = compose(attribute);
      if (text !== attribute.text) {
        attribute.element.setAttribute(attribute.name, text);
        attribute.text = text;
      }
    }
  }
  waiting.clear();
  return true;
}

/** A target's record (StageScene.record): its element made when new (or when it changes
 * kind), its attributes as given. */
function applyRecord(record) {
  let entry = drawn.get(record.n);
  if (!entry || entry.shape.localName !== record.e) {
    if (entry) entry.g.remove();
    drawn.delete(record.n);
    if (record.e === null) return;
    const g = document.createElementNS(svgNS, 'g');
    g.setAttribute('data-target', record.n);
    g.appendChild(document.createElementNS(svgNS, record.e));
    stage.appendChild(g);
    entry = { g, shape: g.firstElementChild, attributes: [], slots: [] };
    drawn.set(record.n, entry);
  }
  // What each element carries now, to write only what changed.
  const written = new Map();
  for (const attribute of entry.attributes) written.set(attribute.element === entry.g ? 'g ' + attribute.name : 's ' + attribute.name, attribute.text);
  entry.attributes = [];
  entry.slots = [];
  for (const [list, element, key] of [[record.g, entry.g, 'g '], [record.s, entry.shape, 's ']]) {
    for (const [name, value, numbers] of list) {
      const attribute = numbers === undefined
        ? { element, name, pieces: [value], numbers: [], text: written.get(key + name), dirty: false }
        : { element, name, pieces: value, numbers, text: written.get(key + name), dirty: false };
      const index = entry.attributes.length;
      entry.attributes.push(attribute);
      for (let k = 0; k < attribute.numbers.length; k++) entry.slots.push([index, k]);
      touch(entry, attribute);
    }
  }
  if (record.x !== undefined && entry.shape.textContent !== record.x) entry.shape.textContent = record.x;
}

/** The targets are now exactly `list` (names in order): the others go. */
function setOrder(list) {
  names = list;
  const keep = new Set(list);
  for (const [name, entry] of drawn) {
    if (!keep.has(name)) {
      entry.g.remove();
      drawn.delete(name);
      waiting.delete(entry);
    }
  }
}

/** A frame's numbers (from `offset` of `view` to its end): for each target, its index, the
 * mask of its changed numbers, and those numbers. */
function applyNumbers(view, offset) {
  while (offset + 8 <= view.byteLength) {
    const entry = drawn.get(names[view.getUint32(offset, true)]);
    let mask = view.getUint32(offset + 4, true);
    offset += 8;
    for (let slot = 0; mask !== 0; slot++, mask >>>= 1) {
      if ((mask & 1) === 0) continue;
      const value = view.getFloat64(offset, true);
      offset += 8;
      if (!entry) continue;
      const [a, k] = entry.slots[slot];
      const attribute = entry.attributes[a];
      attribute.numbers[k] = value;
      touch(entry, attribute);
    }
  }
}

function seconds(t) {
  return (Math.round(t * 1000) / 1000).toString() + 's';
}

/** Whether the inspector must be drawn again at this animation frame. */
let inspectorChanged = false;

/** A whole state (on connecting) or a frame of what changed since the one before (its
 * numbers applied by `applyNumbers`). */
function applyFrame(next) {
  if (!next.delta) {
    setOrder(next.targets.map((t) => t.n));
    for (const record of next.targets) applyRecord(record);
    state = Object.assign({}, next, { targets: undefined });
    inspectorChanged = true;
  } else {
    if (next.order) setOrder(next.order);
    for (const record of next.targets) applyRecord(record);
    const values = state ? state.sample.values : {};
    const ranges = state ? state.ranges : {};
    let changed = false;
    for (const name in next.values) {
      values[name] = next.values[name];
      changed = true;
    }
    for (const name in next.ranges) {
      ranges[name] = next.ranges[name];
      changed = true;
    }
    if (changed) inspectorChanged = true;
    state = Object.assign({}, next, { targets: undefined, sample: { t: next.t, values }, ranges });
  }
}

/** Sets an element's text only when it changes. */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** The transport, the time and the rest of the header, from the last state. */
let shownTimelines = null;

function showHeader() {
  const next = state;
  if (next.viewBox && stage.getAttribute('viewBox') !== next.viewBox) stage.setAttribute('viewBox', next.viewBox);
  setText($('play'), next.paused ? '\u25b6' : '\u275a\u275a');
  $('play').setAttribute('aria-pressed', String(!next.paused));
  setText($('time'), seconds(next.t));
  if (!scrubbing && $('scrubber').value !== String(next.t)) $('scrubber').value = String(next.t);
  setText($('speed-value'), next.speed + '\u00d7');
  if (document.activeElement !== $('speed') && $('speed').value !== String(next.speed)) $('speed').value = String(next.speed);
  $('same-time').checked = next.sameTime;
  $('scrubber').disabled = next.interactive;
  const diagnostics = $('diagnostics');
  diagnostics.hidden = next.diagnostics === null;
  setText(diagnostics, next.diagnostics || '');
  document.body.dataset.paused = String(next.paused);
  document.body.dataset.time = String(next.t);
  const timelines = next.timelines.join('\n');
  if (shownTimelines !== timelines) {
    shownTimelines = timelines;
    showTimelineControls(next.timelines);
  }
  updateChoice();
  movePlayhead();
}

/** Shows the newly selected target. */
function reselect() {
  if (!state) return;
  updateChoice();
  showInspector();
}

/** The names the choice lists, to rebuild it only when they change; the selection the
 * server was last told (it sends the values of the inspected targets only). */
let listed = null;
let told = null;

function updateChoice() {
  const choice = $('target-choice');
  if (listed !== names) {
    listed = names;
    choice.textContent = '';
    for (const name of names) choice.add(new Option(name, name));
  }
  if (selected === null || !drawn.has(selected) && !names.includes(selected)) selected = names[0] ?? null;
  if (selected !== null && choice.value !== selected) choice.value = selected;
  if (marked !== selected || (selected !== null && !drawn.get(selected)?.g.classList.contains('selected'))) {
    if (marked !== null) drawn.get(marked)?.g.classList.remove('selected');
    if (selected !== null) drawn.get(selected)?.g.classList.add('selected');
    marked = selected;
  }
  if (selected !== null && told !== selected) {
    told = selected;
    send('select ' + selected);
  }
}

/** The target drawn as selected. */
let marked = null;

/** The inspector's rows as drawn: each row's property, what decides its cells, and the
 * cells that change with the value. */
let rowsShown = [];

/** The selected target's properties: numbers on their gauge, overshoot clipped and marked.
 * Rows are built when the properties or their kinds change, else updated in place. */
function showInspector() {
  inspectorChanged = false;
  const table = $('gauges');
  const rows = [];
  if (state && selected !== null) {
    const prefix = selected + '.';
    for (const name in state.sample.values) {
      if (!name.startsWith(prefix) || name.lastIndexOf('.') !== prefix.length - 1) continue;
      rows.push([name, state.sample.values[name], state.ranges[name]]);
    }
  }
  const layout = rows.map(([name, value, range]) => {
    if (typeof value === 'string') return name + ' s';
    if (Array.isArray(value)) return name + ' a';
    if (!range) return name + ' n';
    const [low, high, paused, reversed] = range;
    const f = high > low ? (value - low) / (high - low) : 1;
    return name + ' g ' + (f > 1 ? 'over' : f < 0 ? 'under' : '') + (paused ? ' paused' : '') + (reversed ? ' reversed' : '');
  });
  if (layout.length === rowsShown.length && layout.every((key, i) => rowsShown[i].key === key)) {
    rows.forEach(([, value, range], i) => update(rowsShown[i], value, range));
    return;
  }
  table.textContent = '';
  rowsShown = rows.map(([name, value, range], i) => {
    const row = table.insertRow();
    row.dataset.property = name;
    row.insertCell().textContent = name.slice(selected.length + 1);
    const cell = row.insertCell();
    const text = row.insertCell();
    text.className = 'value';
    const shown = { key: layout[i], text, fill: null, swatch: null, label: document.createTextNode('') };
    text.appendChild(shown.label);
    if (typeof value === 'string') {
      shown.swatch = document.createElement('span');
      shown.swatch.className = 'swatch';
      cell.appendChild(shown.swatch);
    } else if (!Array.isArray(value) && range) {
      const [low, high, paused, reversed] = range;
      const gauge = document.createElement('div');
      gauge.className = 'gauge';
      const f = high > low ? (value - low) / (high - low) : 1;
      if (f > 1) gauge.classList.add('over');
      if (f < 0) gauge.classList.add('under');
      if (f > 1 || f < 0) {
        const mark = document.createElement('span');
        mark.className = 'mark';
        mark.textContent = f > 1 ? '\u25b6' : '\u25c0';
        gauge.appendChild(mark);
      }
      shown.fill = document.createElement('div');
      shown.fill.className = 'fill';
      gauge.appendChild(shown.fill);
      cell.appendChild(gauge);
      const flags = [paused ? 'paused' : '', reversed ? 'reversed' : ''].filter(Boolean).join(' ');
      if (flags) {
        const span = document.createElement('span');
        span.className = 'flags';
        span.textContent = ' ' + flags;
        text.appendChild(span);
      }
    }
    update(shown, value, range);
    return shown;
  });
}

/** A row's value, its swatch or its gauge's fill. */
function update(shown, value, range) {
  let label;
  if (typeof value === 'string') {
    label = value;
    if (shown.color !== value) {
      shown.color = value;
      shown.swatch.style.background = value;
    }
  } else if (Array.isArray(value)) {
    label = '[' + value.map(short).join(', ') + ']';
  } else {
    label = short(value);
    if (shown.fill) {
      const [low, high] = range;
      const f = Math.min(Math.max(high > low ? (value - low) / (high - low) : 1, 0), 1);
      const width = (f * 100).toFixed(1) + '%';
      if (shown.fill.style.width !== width) shown.fill.style.width = width;
    }
  }
  if (shown.label.data !== label) shown.label.data = label;
}

function short(x) {
  return x === null ? 'nan' : String(Math.round(x * 1000) / 1000);
}

// MARK: - Lanes

const laneHeight = 22;
const labelWidth = 150;

/** The lanes' width in CSS pixels, read when they are drawn (never while a frame is
 * applied: a layout read there would force a layout of the whole page). */
let lanesWidth = 900;

function drawLanes() {
  const canvas = $('lanes');
  const lanes = overview ? overview.lanes : [];
  const width = canvas.clientWidth || 900;
  lanesWidth = width;
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
  const span = lanesWidth - labelWidth - 8;
  const t = Math.min(state.t, overview.duration);
  const left = (labelWidth + (t / overview.duration) * span) + 'px';
  if ($('playhead').style.left !== left) $('playhead').style.left = left;
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

/** Messages received and not yet applied. */
let pending = [];
/** What the page has applied, for scripts/stage-figures.sh: frames (messages of the
 * server's), animation frames that ran `applyPending`, the milliseconds spent there, and the
 * stage's stride at the last. */
const stats = { messages: 0, applied: 0, applyMs: 0, stride: 1 };
window.stageStats = stats;

/** Applies, at an animation frame, every message that came since the last one, in order;
 * then writes each changed attribute once, and the header, log and inspector once. */
function applyPending(now) {
  scheduled = false;
  const started = performance.now();
  const messages = pending;
  pending = [];
  stats.messages += messages.length;
  stats.applied += 1;
  let framed = false;
  for (const data of messages) {
    let frame;
    let view = null;
    let offset = 0;
    if (typeof data === 'string') {
      frame = JSON.parse(data);
      if (frame.type === 'overview') {
        overview = frame.overview;
        if (overview) {
          $('scrubber').max = String(overview.duration);
          $('duration').textContent = seconds(overview.duration) + (overview.endless ? '+' : '');
        }
        drawLanes();
        continue;
      }
    } else {
      view = new DataView(data);
      const length = view.getUint32(0, true);
      frame = JSON.parse(utf8.decode(new Uint8Array(data, 4, length)));
      offset = 4 + length;
    }
    applyFrame(frame);
    if (view) applyNumbers(view, offset);
    addLog(frame.log, frame.t);
    framed = true;
  }
  const wrote = writeDirty(now);
  if (framed) headerChanged = true;
  // While the session moves, the time, the transport, the playhead and the inspector are
  // written ten times a second, not sixty, and on a frame that writes the stage: any change
  // to the page costs the frame a layout, a paint and a commit (about 6 ms of the main thread
  // with 1,000 targets on a busy machine, however small the change), so a frame the stride
  // left empty stays empty. At rest, at once.
  const moving = state && !state.paused && !state.idle;
  // (Anything but the time and the values, such as diagnostics or the transport, at once.)
  const key = state && [state.paused, state.idle, state.speed, state.interactive, state.sameTime, state.viewBox,
    state.diagnostics, state.timelines.join('\n')].join('\u0000');
  const due = !moving || lastHeader === null || (now - lastHeader >= 100 && wrote) || key !== shownKey;
  if (headerChanged && state && due) {
    headerChanged = false;
    shownKey = key;
    lastHeader = moving ? now : null;
    showHeader();
    if (inspectorChanged) showInspector();
  }
  stats.applyMs += performance.now() - started;
  // While targets wait, the session moves or the header waits, every animation frame comes
  // here (so the stride sees each frame's interval); else the next message asks for one.
  if (waiting.size || moving || headerChanged) {
    lastFrame = now;
    schedule();
  } else {
    lastFrame = null;
    // (At rest the next motion starts from the first streak again.)
    streakNeeded = 30;
  }
}

/** Whether an animation frame is asked for; whether the header (time, transport,
 * inspector) has changed since it was last shown, and when that was while moving. */
let scheduled = false;
let headerChanged = false;
let lastHeader = null;
let shownKey = null;

function schedule() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(applyPending);
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(scheme + '//' + location.host + '/ws?token=' + encodeURIComponent(token));
  socket.binaryType = 'arraybuffer';
  socket.onopen = () => {
    $('status').textContent = 'live';
    // (A new connection: the server learns the selection and stride again.)
    told = null;
    toldStride = 1;
  };
  socket.onclose = () => {
    $('status').textContent = 'disconnected: retrying';
    setTimeout(connect, 1000);
  };
  socket.onmessage = (message) => {
    // Applied at the next animation frame, all that came meanwhile in order: the page draws
    // once per frame however the messages fall.
    pending.push(message.data);
    schedule();
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
