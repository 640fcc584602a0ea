"""The stage in a real browser (run by Tests/AnimCLITests/StageBrowserTests.swift, or alone:
python3 Tests/Browser/stage_browser_tests.py ANIM EXAMPLES_DIR SCRATCH_DIR REPO_DIR).

The expected drawing comes from `anim trace --at` and issue 16's rules, written here a second
time in Python from the issue's words (not from the Swift code): a page opened frozen at an
instant must carry, on each target's element, the transform, opacity and fill they give."""

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import stage_browser as sb  # noqa: E402

TOLERANCE = 1e-6
DEFAULT_FILL = "#5b8def"


KIND = re.compile(r'^\s*target\s+([A-Za-z_]\w*)(?:\[(\d+)\])?\s*(?::\s*(rect|circle|text|none)\b)?'
                  r'(?:\s*"((?:[^"\\]|\\.)*)")?')


def declared_kinds(path, texts=None):
    """Each target's kind as the script declares it (`target dots[25]: circle`; `rect` without
    one), by the name the stage gives it (`dots[3]` for a group's member). With `texts` (a
    dict), each text target's string as written, with its member's (index, count)."""
    kinds = {}
    with open(path) as f:
        for line in f:
            match = KIND.match(line)
            if not match:
                continue
            name, count, kind = match.group(1), match.group(2), match.group(3) or "rect"
            members = [("%s[%d]" % (name, i), i, int(count)) for i in range(int(count))] if count else [(name, 0, 1)]
            for member, index, size in members:
                kinds[member] = kind
                if kind == "text" and texts is not None:
                    texts[member] = (match.group(4), index, size)
    return kinds


def trace_number(x):
    """A number as the trace and an interpolation write it: whole numbers without a fraction,
    others the shortest text that reads back the same (the exponent's form aside)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e15):
        return str(int(x))
    return repr(x)


def interpolated(literal, values, index, count):
    """The text `literal` (a string as written in the script) shows with the trace sample
    `values`: each `{expr}` evaluated here, a second time, in Python, over the sample
    (`T.p`, `G[i].p`, `index`, `count`, numbers and + - * /), escapes as grammar.md says."""
    class Target:
        def __init__(self, name):
            self._name = name

        def __getattr__(self, prop):
            return values["%s.%s" % (self._name, prop)]

        def __getitem__(self, i):
            return Target("%s[%d]" % (self._name, i))

    class Names(dict):
        def __missing__(self, name):
            return Target(name)

    out, i = "", 0
    while i < len(literal):
        c = literal[i]
        if c == "\\":
            nxt = literal[i + 1]
            out += {"n": "\n", "t": "\t"}.get(nxt, nxt)
            i += 2
        elif c == "{":
            end, depth = i + 1, 1
            while depth:
                depth += {"{": 1, "}": -1}.get(literal[end], 0)
                end += 1
            value = eval(literal[i + 1:end - 1], {"__builtins__": {}}, Names(index=index, count=count))
            out += trace_number(value) if not isinstance(value, str) else value
            i = end
        else:
            out += c
            i += 1
    return out


def expected_drawing(values, size=(800, 600), kinds=None, texts=None):
    """Each target's transform numbers, opacity and fill from a trace sample (issue 16), and
    with `kinds` its shape's element (a `none` is not drawn, and takes no slot) and a circle's
    radius; with `texts` (`declared_kinds`'), a text's content."""
    targets = {}
    for name, value in values.items():
        target, prop = name.rsplit(".", 1)
        targets.setdefault(target, {})[prop] = value

    def is_number(v):
        return isinstance(v, (int, float)) or v is None

    def is_vec2(v):
        return isinstance(v, list) and len(v) == 2

    def is_color(v):
        return isinstance(v, str)

    def first(props, names, test):
        for n in names:
            if n in props and test(props[n]):
                return props[n]
        return None

    drawn = {}
    slot = 0
    top = -size[1] / 2
    for target, props in targets.items():
        kind = (kinds or {}).get(target)
        if kind == "none":
            continue
        position = first(props, ["position", "pos"], is_vec2)
        if position is not None:
            x, y = position
            has_y = True
        else:
            x = props["x"] if "x" in props and is_number(props["x"]) else 0
            has_y = "y" in props and is_number(props["y"])
            y = props["y"] if has_y else top + 80 * (slot + 0.5)
        if not has_y:
            slot += 1
        angle = first(props, ["angle", "rotation"], is_number)
        scale = props.get("scale")
        if is_number(scale) and scale is not None:
            sx = sy = scale
        elif is_vec2(scale):
            sx, sy = scale
        else:
            sx = sy = 1
        opacity = props["opacity"] if "opacity" in props and is_number(props["opacity"]) else 1
        fill = first(props, ["fill", "tint", "color", "background"], is_color)
        drawn[target] = {
            "element": kind,
            # A circle's diameter is size.x (a number: the size), else 2 * radius, else 60.
            "r": None if kind != "circle" else (
                (props["size"][0] if is_vec2(props["size"]) else props["size"]) / 2 if "size" in props
                else props["radius"] if "radius" in props else 30),
            "transform": [x, y, angle if angle is not None else 0, sx, sy],
            "opacity": opacity,
            "fill": fill[:7] if fill else DEFAULT_FILL,
            "fill-opacity": int(fill[7:9], 16) / 255 if fill else 1,
            "text": None,
        }
        if target in (texts or {}):
            literal, index, count = texts[target]
            drawn[target]["text"] = interpolated(literal, values, index, count)
    return drawn


TRANSFORM = re.compile(r"^translate\((\S+) (\S+)\) rotate\((\S+)\) scale\((\S+) (\S+)\)$")


def close(a, b, tolerance=TOLERANCE):
    return abs(a - b) <= tolerance * max(1, abs(b))


def read_dom(driver):
    """Each drawn target's attributes, read from the DOM."""
    return driver.execute_script("""
      const out = {};
      for (const g of document.querySelectorAll('#stage g[data-target]')) {
        const shape = g.firstElementChild;
        out[g.getAttribute('data-target')] = {
          transform: g.getAttribute('transform'), opacity: g.getAttribute('opacity'),
          fill: shape.getAttribute('fill'), fillOpacity: shape.getAttribute('fill-opacity'),
          element: shape.localName, r: shape.getAttribute('r'),
          text: shape.localName === 'text' ? shape.textContent : null };
      }
      return out;""")


def compare(dom, expected, where):
    problems = []
    if sorted(dom) != sorted(expected):
        problems.append("%s: targets %s, expected %s" % (where, sorted(dom), sorted(expected)))
    for name, want in expected.items():
        got = dom.get(name)
        if got is None:
            continue
        if want.get("element") and got["element"] != want["element"]:
            problems.append("%s %s: a %s, expected a %s" % (where, name, got["element"], want["element"]))
        if want.get("text") is not None and got.get("text") != want["text"]:
            problems.append("%s %s: text %r, expected %r" % (where, name, got.get("text"), want["text"]))
        if want.get("r") is not None and not close(float(got["r"] or "nan"), want["r"]):
            problems.append("%s %s: r %s, expected %s" % (where, name, got["r"], want["r"]))
        match = TRANSFORM.match(got["transform"] or "")
        if not match:
            problems.append("%s %s: transform %r" % (where, name, got["transform"]))
            continue
        numbers = [float(g) for g in match.groups()]
        if not all(close(a, b) for a, b in zip(numbers, want["transform"])):
            problems.append("%s %s: transform %s, expected %s" % (where, name, numbers, want["transform"]))
        if not close(float(got["opacity"]), want["opacity"]):
            problems.append("%s %s: opacity %s, expected %s" % (where, name, got["opacity"], want["opacity"]))
        if got["fill"] != want["fill"]:
            problems.append("%s %s: fill %s, expected %s" % (where, name, got["fill"], want["fill"]))
        # The trace writes alpha as a byte: the page's exact alpha is within half a step of it.
        if not close(float(got["fillOpacity"]), want["fill-opacity"], 0.5 / 255 + TOLERANCE):
            problems.append("%s %s: fill-opacity %s, expected %s" % (
                where, name, got["fillOpacity"], want["fill-opacity"]))
    return problems


def frozen_pages(anim, examples, scratch, driver):
    """Several examples at several instants: the frozen page equals `anim trace --at`."""
    problems = []
    cases = {
        "card-flip.anim": ["0s", "0.25s", "0.5s", "0.9s", "1.3s", "2s"],
        "colors-and-math.anim": ["0s", "0.3s", "1s", "1.7s"],
        "retarget-box.anim": ["0.2s", "0.6s", "1.1s"],
        "fade-handler.anim": ["0.4s", "1s"],
        "tour.anim": ["0.5s", "1.25s"],
        # Circles in a group (`target dots[25]: circle`), their scale on keyframes.
        "grid-ripple.anim": ["0.1s", "0.3s", "0.45s", "0.7s"],
        # Texts (`target lanes[3]: text "Lane {index + 1} ..."`) reading `none` holders, which
        # are not drawn: the score and the laps on either side of their steps.
        "scoreboard.anim": ["0.1s", "0.7s", "1.5s", "2.6s", "3s"],
    }
    for example, instants in cases.items():
        path = os.path.join(examples, example)
        preview = sb.Preview(anim, [path, "--clock", "virtual"], scratch)
        try:
            for at in instants:
                driver.get(preview.url("&at=" + at))
                sb.wait_until(lambda: driver.execute_script("return document.body.dataset.paused") == "true",
                              message="the frozen page of %s at %s" % (example, at))
                _, values = sb.trace_sample(anim, path, at)
                texts = {}
                kinds = declared_kinds(path, texts)
                dom = read_dom(driver)
                problems += compare(dom, expected_drawing(values, kinds=kinds, texts=texts), "%s at %s" % (example, at))
                # A `none` target holds values: none of its properties is drawn.
                for name in sorted(set(n.rsplit(".", 1)[0] for n in values)):
                    if kinds.get(name) == "none" and name in dom:
                        problems.append("%s at %s: %s is a none, drawn" % (example, at, name))
        finally:
            preview.stop()
    return problems


def settled(driver):
    """The page's time and drawing once two readings 300 ms apart agree, read together."""
    previous = None
    for _ in range(200):
        current = driver.execute_script("""
          const out = {t: Number(document.body.dataset.time || -1), dom: {}};
          for (const g of document.querySelectorAll('#stage g[data-target]')) {
            const shape = g.firstElementChild;
            out.dom[g.getAttribute('data-target')] = {
              transform: g.getAttribute('transform'), opacity: g.getAttribute('opacity'),
              fill: shape.getAttribute('fill'), fillOpacity: shape.getAttribute('fill-opacity'),
              element: shape.localName };
          }
          return out;""")
        if current == previous:
            return current["t"], current["dom"]
        previous = current
        time.sleep(0.3)
    raise AssertionError("the page never settled")


def page_state(driver):
    return driver.execute_script(
        "return {t: Number(document.body.dataset.time || -1), paused: document.body.dataset.paused,"
        " speed: document.getElementById('speed-value').textContent,"
        " log: Array.from(document.querySelectorAll('#log li')).map(li => li.textContent)}")


def steering(anim, scratch, driver):
    """A click on pause, a drag of the scrubber and keypresses do what their statements do."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    problems = []
    path = os.path.join(scratch, "steer.anim")
    with open(path, "w") as f:
        f.write("target card { x: 0, opacity: 1 }\n"
                "timeline intro {\n  animate card.x to 300 over 4s\n}\n"
                "play intro\n")
    preview = sb.Preview(anim, [path, "--clock", "virtual"], scratch)
    try:
        driver.get(preview.url())
        sb.wait_until(lambda: page_state(driver)["t"] > 0.2, message="the page to play")
        # Pause: the session's time stops and so does the drawing.
        driver.find_element(By.ID, "play").click()
        sb.wait_until(lambda: page_state(driver)["paused"] == "true", message="pause")
        t1 = page_state(driver)["t"]
        dom1 = read_dom(driver)
        time.sleep(0.5)
        if page_state(driver)["t"] != t1 or read_dom(driver) != dom1:
            problems.append("paused, the time or the drawing still moved")
        t1, dom1 = settled(driver)
        # The frozen drawing is the trace's at that time.
        _, values = sb.trace_sample(anim, path, "%.9fs" % t1)
        problems += compare(dom1, expected_drawing(values), "paused at %s" % t1)

        # A drag of the scrubber: the page at the new time equals `anim trace --at` there.
        scrubber = driver.find_element(By.ID, "scrubber")
        width = scrubber.size["width"]
        ActionChains(driver).click_and_hold(scrubber).move_by_offset(int(width * 0.3), 0).release().perform()
        sb.wait_until(lambda: abs(page_state(driver)["t"] - t1) > 0.2, message="the scrub")
        t2, dom2 = settled(driver)
        _, values = sb.trace_sample(anim, path, "%.9fs" % t2)
        problems += compare(dom2, expected_drawing(values), "scrubbed to %s" % t2)

        # Keys: → steps to the next frame (k / 60 s), space plays, + doubles the speed.
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        sb.wait_until(lambda: page_state(driver)["t"] != t2, message="the step")
        t3, dom3 = settled(driver)
        if not (t2 < t3 <= t2 + 1 / 60 + 1e-9 and abs(t3 * 60 - round(t3 * 60)) < 1e-6):
            problems.append("→ moved from %s to %s, not to the next frame" % (t2, t3))
        _, values = sb.trace_sample(anim, path, "%.9fs" % t3)
        problems += compare(dom3, expected_drawing(values), "stepped to %s" % t3)
        body.send_keys("+")
        sb.wait_until(lambda: page_state(driver)["speed"].startswith("2"), message="+ to double the speed")
        body.send_keys(Keys.SPACE)
        sb.wait_until(lambda: page_state(driver)["paused"] == "false", message="space to play")
        body.send_keys(Keys.SPACE)
        sb.wait_until(lambda: page_state(driver)["paused"] == "true", message="space to pause")

        # A lane's control sends its statement: `pause intro` holds card.x while time goes on.
        driver.find_element(By.CSS_SELECTOR, "[data-timeline='intro'] button[data-statement='pause intro']").click()
        sb.wait_until(lambda: any("pause intro" in line for line in page_state(driver)["log"]),
                      message="the statement in the log")
        x_before = read_dom(driver)["card"]["transform"]
        body.send_keys(Keys.SPACE)
        sb.wait_until(lambda: page_state(driver)["paused"] == "false", message="play")
        time.sleep(0.4)
        if read_dom(driver)["card"]["transform"] != x_before:
            problems.append("after `pause intro` card.x still moved")
        # A click on a property's lane label: its animation is held (by `pause intro`), so the
        # label sends `resume card.x`, and card.x moves again.
        lanes = driver.find_element(By.ID, "lanes")
        ActionChains(driver).move_to_element_with_offset(
            lanes, -lanes.size["width"] // 2 + 10, -lanes.size["height"] // 2 + 11).click().perform()
        sb.wait_until(lambda: any("> resume card.x" in line for line in page_state(driver)["log"]),
                      message="the lane label's statement in the log")
    finally:
        preview.stop()
    return problems


def upgrade_status(port, path, origin):
    """The status line's code of a WebSocket upgrade request for `path` with `origin` (None:
    no Origin header), read from a raw socket."""
    import socket
    lines = ["GET %s HTTP/1.1" % path, "Host: 127.0.0.1:%d" % port, "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append("Origin: " + origin)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None


def tokens(anim, scratch):
    """Without the token, 403; a WebSocket upgrade without it or from another origin, 403."""
    problems = []
    path = os.path.join(scratch, "token.anim")
    with open(path, "w") as f:
        f.write("target card { x: 0 }\n")
    preview = sb.Preview(anim, [path], scratch)
    try:
        for suffix in ["/", "/stage.js", "/state?at=1s"]:
            try:
                urllib.request.urlopen(preview.base + suffix, timeout=10)
                problems.append("%s answered without the token" % suffix)
            except urllib.error.HTTPError as error:
                if error.code != 403:
                    problems.append("%s without the token: %d" % (suffix, error.code))
        own = preview.base
        for path, origin, expected in [
                ("/ws", own, 403),  # no token
                ("/ws?token=" + preview.token, "http://evil.example", 403),
                ("/ws?token=" + preview.token, None, 403),
                ("/ws?token=wrong" + preview.token[5:], own, 403),
                ("/ws?token=" + preview.token, own, 101)]:
            status = upgrade_status(preview.port, path, origin)
            if status != expected:
                problems.append("the upgrade of %s from %s answered %s, not %d" % (
                    path.replace(preview.token, "TOKEN"), origin, status, expected))
    finally:
        preview.stop()
    return problems


def reloading(anim, scratch, driver):
    """An edit with an error shows the diagnostic and keeps the session; a fix reloads."""
    problems = []
    path = os.path.join(scratch, "reload.anim")
    with open(path, "w") as f:
        f.write("target card { x: 0 }\nanimate card.x to 100 over 1s\n")
    preview = sb.Preview(anim, [path], scratch)
    try:
        driver.get(preview.url())
        sb.wait_until(lambda: "card" in read_dom(driver), message="the page")
        time.sleep(0.3)
        # Saved by rename, as editors do.
        with open(path + ".tmp", "w") as f:
            f.write("target card { x: 0 }\nanimate card.y to 100 over 1s\n")
        os.replace(path + ".tmp", path)
        text = sb.wait_until(lambda: driver.execute_script(
            "const d = document.getElementById('diagnostics'); return d.hidden ? '' : d.textContent"),
            message="the diagnostic")
        if not re.search(r"reload\.anim:2:\d+: error", text) or "^" not in text:
            problems.append("the diagnostic lacks file, line, column or caret: %r" % text)
        if sorted(read_dom(driver)) != ["card"]:
            problems.append("an edit with an error changed the stage: %s" % sorted(read_dom(driver)))
        with open(path + ".tmp", "w") as f:
            f.write("target card { x: 0 }\ntarget extra { y: 50 }\nanimate card.x to 100 over 1s\n")
        os.replace(path + ".tmp", path)
        sb.wait_until(lambda: "extra" in read_dom(driver), message="the fixed edit to reload")
        if not driver.execute_script("return document.getElementById('diagnostics').hidden"):
            problems.append("the diagnostic stayed after the fix")
    finally:
        preview.stop()
    return problems


def repl_preview(anim, scratch, driver):
    """`anim repl --preview` on a terminal (tmux): what is typed moves on the page, what is
    clicked there appears in the REPL's log, the scrubber is disabled and /state is 404."""
    import shutil
    if not shutil.which("tmux"):
        return ["tmux is missing (apt-get install tmux)"]
    problems = []
    name = "anim-stage-%d" % os.getpid()
    socket = os.path.join(scratch, "tmux.sock")

    def tmux(*arguments):
        return subprocess.run(["tmux", "-S", socket] + list(arguments), capture_output=True, text=True).stdout

    tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "30",
         "env HOME=%s XDG_STATE_HOME=%s %s repl --preview" % (scratch, scratch, anim))
    try:
        line = sb.wait_until(lambda: next((l for l in tmux("capture-pane", "-p", "-t", name).splitlines()
                                           if l.startswith("anim preview: ")), None), 60, "the address")
        url = line[len("anim preview: "):]
        tmux("send-keys", "-t", name, "target box { x: -200 }", "Enter")
        tmux("send-keys", "-t", name, "animate box.x to 200 over 30s", "Enter")
        driver.get(url)
        sb.wait_until(lambda: "box" in read_dom(driver), message="the typed target on the page")
        first = read_dom(driver)["box"]["transform"]
        sb.wait_until(lambda: read_dom(driver)["box"]["transform"] != first, message="the target to move")
        driver.find_element("id", "play").click()
        sb.wait_until(lambda: "stage> pause" in tmux("capture-pane", "-p", "-t", name),
                      message="the click in the REPL's log")
        if not driver.execute_script("return document.getElementById('scrubber').disabled"):
            problems.append("the scrubber is enabled in an interactive session")
        # Step and speed act on the session's clock: a step holds it on the next frame (the
        # page shows it paused there), play lets it go, and + doubles the real clock's speed.
        driver.find_element("id", "step-forward").click()
        sb.wait_until(lambda: "stage> step 1" in tmux("capture-pane", "-p", "-t", name),
                      message="the step in the REPL's log")
        # (The page was paused already, by the click on pause above, at a time between frames:
        # the step's frame may come a moment after its line in the log.)
        def on_a_frame():
            state = page_state(driver)
            return state["paused"] == "true" and abs(state["t"] * 60 - round(state["t"] * 60)) <= 1e-6
        try:
            sb.wait_until(on_a_frame, 10, "the stepped page to show paused on a frame")
        except AssertionError:
            problems.append("a step in the REPL's page went to %s, not a frame (k / 60 s)" % page_state(driver)["t"])
        t1 = page_state(driver)["t"]
        time.sleep(0.4)
        if page_state(driver)["t"] != t1:
            problems.append("after a step the REPL's clock still moved")
        # Play lets the stepped clock go and resumes what the pause paused: the box moves on.
        held = read_dom(driver)["box"]["transform"]
        driver.find_element("id", "play").click()
        sb.wait_until(lambda: page_state(driver)["t"] > t1 + 0.05, message="play to let the stepped clock go")
        sb.wait_until(lambda: read_dom(driver)["box"]["transform"] != held, message="play to move the box again")
        from selenium.webdriver.common.keys import Keys
        driver.find_element("tag name", "body").send_keys("+")
        sb.wait_until(lambda: "stage> speed 2\u00d7" in tmux("capture-pane", "-p", "-t", name),
                      message="the speed in the REPL's log")
        sb.wait_until(lambda: page_state(driver)["speed"].startswith("2"), message="the page to show speed 2")
        try:
            urllib.request.urlopen(url.replace("/?token=", "/state?at=1s&token="), timeout=10)
            problems.append("/state answered in an interactive session")
        except urllib.error.HTTPError as error:
            if error.code != 404:
                problems.append("/state in an interactive session: %d" % error.code)
    finally:
        tmux("kill-server")
    return problems


def screenshot(repo, anim, scratch):
    out = os.path.join(scratch, "stage.png")
    result = subprocess.run([os.path.join(repo, "scripts", "stage-screenshot.sh"), out],
                            env={**os.environ, "ANIM": anim}, capture_output=True, text=True)
    if result.returncode != 0:
        return ["stage-screenshot.sh failed: " + result.stderr[-2000:]]
    with open(out, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            return ["stage-screenshot.sh wrote no PNG"]
    return []


def main():
    anim, examples, scratch, repo = sys.argv[1:5]
    reason = sb.missing()
    if reason:
        print("MISSING " + reason)
        return 77
    problems = tokens(anim, scratch)
    driver = sb.browser(scratch)
    try:
        problems += frozen_pages(anim, examples, scratch, driver)
        problems += steering(anim, scratch, driver)
        problems += reloading(anim, scratch, driver)
        problems += repl_preview(anim, scratch, driver)
    finally:
        driver.quit()
    problems += screenshot(repo, anim, scratch)
    for problem in problems:
        print("PROBLEM " + problem)
    print("checked; %d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
