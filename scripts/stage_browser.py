"""Drives `anim preview` in Debian's headless Chromium (through Debian's chromedriver and
Selenium): what the browser tests, scripts/stage-screenshot.sh and scripts/stage-figures.sh
share. Every process it starts it ends by its process id; it writes only under the directory
it is given."""

import json
import os
import re
import shutil
import signal
import subprocess
import time

CHROMIUM = os.environ.get("ANIM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("ANIM_CHROMEDRIVER", "/usr/bin/chromedriver")
LINE = re.compile(r"^anim preview: http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{32})$")


def missing():
    """What is missing to drive a browser, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            return path + " (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium (pip install selenium)"
    return None


class Preview:
    """An `anim preview` process: its page's address, port and token."""

    def __init__(self, anim, arguments, directory):
        self.out_path = os.path.join(directory, "preview-%d.out" % time.monotonic_ns())
        self.out = open(self.out_path, "w+")
        self.process = subprocess.Popen(
            [anim, "preview"] + arguments, stdout=self.out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        text = ""
        while time.monotonic() < deadline:
            with open(self.out_path) as f:
                text = f.read()
            if text.endswith("\n") or self.process.poll() is not None:
                break
            time.sleep(0.02)
        match = LINE.match(text.split("\n")[0])
        if not match:
            self.stop()
            raise RuntimeError("anim preview printed %r" % text)
        self.line = text.split("\n")[0]
        self.port = int(match.group(1))
        self.token = match.group(2)
        self.base = "http://127.0.0.1:%d" % self.port

    def url(self, query=""):
        return "%s/?token=%s%s" % (self.base, self.token, query)

    @property
    def pid(self):
        return self.process.pid

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        self.out.close()


def browser(directory, width=1280, height=900, extra=()):
    """A headless Chromium under Selenium, its profile in `directory`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = os.path.join(directory, "chromium-profile-%d" % time.monotonic_ns())
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % (width, height), "--user-data-dir=" + profile,
                     "--no-first-run", "--disable-extensions", "--disable-background-networking",
                     *extra]:
        options.add_argument(argument)
    service = Service(executable_path=CHROMEDRIVER, log_output=os.path.join(directory, "chromedriver.log"))
    return webdriver.Chrome(service=service, options=options)


def wait_until(condition, timeout=60, message="condition"):
    """The first truthy value of `condition()`, asked every 20 ms; an exception counts as not
    yet (a page still loading), and the last one is named if time runs out."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # noqa: BLE001
            last = error
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + message + (" (last error: %r)" % last if last else ""))


def trace_sample(anim, path, at):
    """The sample `anim trace PATH --at AT` writes, as an ordered dict of values, and its t."""
    output = subprocess.run([anim, "trace", path, "--at", at], capture_output=True, text=True, check=True).stdout
    for line in output.splitlines():
        record = json.loads(line)
        if "values" in record:
            return record["t"], record["values"]
    raise AssertionError("no sample in anim trace's output")


def thousand_targets_script(path, count=1000, seconds=12):
    """`count` targets in a grid, each moving and turning for `seconds`."""
    lines = ["// %d animated targets, for the stage's frame-rate figure." % count]
    columns = 40
    for i in range(count):
        x = -390 + (i % columns) * 20
        y = -290 + (i // columns) * 23
        lines.append("target t%d { x: %d, y: %d, size: 12, angle: 0, fill: #%02x%02x%02x }"
                     % (i, x, y, (i * 7) % 256, (i * 13) % 256, 200))
    for i in range(count):
        lines.append("animate t%d.angle to 720 over %ds" % (i, seconds))
        lines.append("animate t%d.y to %d over %ds" % (i, 290 - (i // columns) * 23, seconds))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def cpu_seconds(pid):
    """The process's user + system CPU time so far, from the kernel's accounting."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat(5))
    return ticks / os.sysconf("SC_CLK_TCK")


RAF_PROBE = """
  // Every animation frame's interval, and how long after its start the main thread was free
  // again (a message posted from the frame's callback runs after the frame's script, style,
  // layout and paint on the main thread): a late frame after a short one was held up
  // elsewhere (the compositor, raster, or no CPU to run on).
  window.__intervals = []; window.__main = []; let last = null; let began = 0;
  window.__before = Object.assign({}, window.stageStats);
  const channel = new MessageChannel();
  channel.port1.onmessage = () => window.__main.push(performance.now() - began);
  function frame(now) {
    if (last !== null) window.__intervals.push(now - last);
    last = now; began = now; channel.port2.postMessage(0);
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);"""


def raf_figure(anim, directory, measure_seconds=10, profile=False):
    """The requestAnimationFrame intervals with 1,000 animated targets in headless Chromium
    (--disable-gpu), what the page and the server spent, and (with `profile`) where the page's
    main thread went, from a CPU profile of the measured seconds (DevTools protocol)."""
    path = os.path.join(directory, "thousand.anim")
    thousand_targets_script(path, seconds=measure_seconds + 5)
    preview = Preview(anim, [path], directory)
    driver = browser(directory)
    try:
        driver.get(preview.url())
        wait_until(lambda: driver.execute_script(
            "return document.querySelectorAll('#stage g[data-target]').length") == 1000, 60, "the targets")
        time.sleep(1)
        if profile:
            driver.execute_cdp_cmd("Profiler.enable", {})
            driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 500})
            driver.execute_cdp_cmd("Profiler.start", {})
        driver.execute_script(RAF_PROBE)
        server_before = cpu_seconds(preview.pid)
        start = time.monotonic()
        time.sleep(measure_seconds)
        server_used = cpu_seconds(preview.pid) - server_before
        elapsed = time.monotonic() - start
        intervals = driver.execute_script("return window.__intervals")
        main = driver.execute_script("return window.__main")
        stats = driver.execute_script(
            "const b = window.__before, s = window.stageStats;"
            " return b && s ? {messages: s.messages - b.messages, applied: s.applied - b.applied,"
            " ms: s.applyMs - b.applyMs, stride: s.stride} : null")
        moved = driver.execute_script("return Number(document.body.dataset.time)")
        result = driver.execute_cdp_cmd("Profiler.stop", {}) if profile else None
    finally:
        driver.quit()
        preview.stop()
    load = open("/proc/loadavg").read().split(" ", 3)[:3]
    late = [(i, interval) for i, interval in enumerate(intervals) if interval > 17.5]
    ordered = sorted(intervals)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    within = 1 - len(late) / len(intervals)
    print("stage.raf: 1000 animated targets, %d s in headless Chromium --disable-gpu: %d frames, "
          "%.1f %% of intervals <= 17.5 ms, 95th percentile %.2f ms, longest %.2f ms (session at %.2f s; "
          "load average %s)" % (measure_seconds, len(intervals), 100 * within, p95, ordered[-1], moved,
                                " ".join(load)))
    if stats:
        print("stage.raf: the server sent %.1f frames a second at %.1f %% of a core; the page applied them at "
              "%d animation frames, %.2f ms each on average, writing the stage every %s frame(s) at the end"
              % (stats["messages"] / elapsed, 100 * server_used / elapsed, stats["applied"],
                 stats["ms"] / max(stats["applied"], 1), stats["stride"]))
    # The main thread's time in the frame before each late one (interval k follows frame k).
    if main and late:
        before = sorted(main[i] for i, _ in late if i < len(main))
        busy = sum(1 for m in before if m > 16.7)
        print("stage.raf: late intervals %d (over 50 ms: %d); the frame before each kept the main thread "
              "%.1f ms at the median, %.1f ms at most; %d of them over 16.7 ms; all frames: median %.1f ms"
              % (len(late), sum(1 for _, x in late if x > 50), before[len(before) // 2], before[-1], busy,
                 sorted(main)[len(main) // 2]))
    if result:
        print_profile(result["profile"])
    return within, ordered[-1]


def print_profile(profile):
    """The profile's self time by function (native work shows as (program), the garbage
    collector as (garbage collector), an idle thread as (idle))."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    deltas = profile.get("timeDeltas", [])
    self_time = {}
    for sample, delta in zip(profile.get("samples", []), deltas[1:] + [0]):
        frame = nodes[sample]["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        if frame.get("url"):
            name += " " + frame["url"].rsplit("/", 1)[-1].split("?")[0] + ":%d" % (frame["lineNumber"] + 1)
        self_time[name] = self_time.get(name, 0) + delta
    total = sum(self_time.values()) or 1
    print("stage.raf profile (main thread, self time):")
    for name, micros in sorted(self_time.items(), key=lambda item: -item[1])[:14]:
        print("  %6.1f %%  %8.1f ms  %s" % (100 * micros / total, micros / 1000, name))


def idle_figure(anim, directory, name, lines, idle_seconds=30, repl=False):
    """The server's CPU with the page open and nothing moving, over `idle_seconds`: `anim
    preview` of a script of `lines`, or (`repl`) `anim repl --preview` on a terminal (tmux)
    with the script loaded as its FILE: its process is the server and the session."""
    path = os.path.join(directory, name + ".anim")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    driver = None
    session = None
    socket = os.path.join(directory, "tmux-%d.sock" % time.monotonic_ns())
    preview = None
    try:
        if repl:
            session = "anim-figures-%d" % os.getpid()
            subprocess.run(["tmux", "-S", socket, "new-session", "-d", "-s", session, "-x", "120", "-y", "30",
                            "exec env HOME=%s XDG_STATE_HOME=%s %s repl --preview %s"
                            % (directory, directory, anim, path)], check=True)
            pid = int(subprocess.run(["tmux", "-S", socket, "display", "-p", "-t", session, "#{pane_pid}"],
                                     capture_output=True, text=True, check=True).stdout)
            line = wait_until(lambda: next((l for l in subprocess.run(
                ["tmux", "-S", socket, "capture-pane", "-p", "-t", session], capture_output=True,
                text=True).stdout.splitlines() if l.startswith("anim preview: ")), None), 60, "the address")
            url = line[len("anim preview: "):].strip()
        else:
            preview = Preview(anim, [path], directory)
            pid = preview.pid
            url = preview.url()
        driver = browser(directory)
        driver.get(url)
        wait_until(lambda: driver.execute_script("return document.getElementById('status').textContent") == "live",
                   30, "the page to connect")
        # (Until the page shows the motion over: the session at rest.)
        wait_until(lambda: driver.execute_script("return document.body.dataset.time !== undefined && "
                                                 "window.stageStats && window.stageStats.applied > 0"),
                   30, "the page's first frame")
        time.sleep(3)
        before = cpu_seconds(pid)
        messages = driver.execute_script("return window.stageStats.messages")
        start = time.monotonic()
        time.sleep(idle_seconds)
        used = cpu_seconds(pid) - before
        elapsed = time.monotonic() - start
        messages = driver.execute_script("return window.stageStats.messages") - messages
    finally:
        if driver:
            driver.quit()
        if preview:
            preview.stop()
        if session:
            subprocess.run(["tmux", "-S", socket, "kill-server"], capture_output=True)
    load = open("/proc/loadavg").read().split(" ", 3)[:3]
    print("stage.idle: %s, %s, the page open and nothing moving, %d s: %.2f %% of a core "
          "(%.2f s of CPU, /proc/PID/stat; %d messages to the page; load average %s)"
          % ("anim repl --preview" if repl else "anim preview", name, idle_seconds, 100 * used / elapsed, used,
             messages, " ".join(load)))


def thousand_at_rest():
    """The 1,000 targets of the frame-rate figure, moving for 1 s only."""
    lines = []
    for i in range(1000):
        lines.append("target t%d { x: %d, y: %d, size: 12, angle: 0 }" % (i, -390 + (i % 40) * 20,
                                                                         -290 + (i // 40) * 23))
    for i in range(1000):
        lines.append("animate t%d.angle to 90 over 1s" % i)
    return lines


def figures(anim, directory, which="all", runs=1, profile=False):
    """Prints the stage's figures: requestAnimationFrame intervals with 1,000 animated targets
    in headless Chromium (--disable-gpu), and the server's CPU with the page open and nothing
    moving, for `anim preview` and `anim repl --preview`, with one target and with 1,000."""
    if which in ("all", "raf"):
        for _ in range(runs):
            raf_figure(anim, directory, profile=profile)
    if which in ("all", "idle"):
        one = ["target card { x: 0 }", "animate card.x to 100 over 200ms"]
        for repl in (False, True):
            idle_figure(anim, directory, "one-target", one, repl=repl)
            idle_figure(anim, directory, "1000-targets", thousand_at_rest(), repl=repl)


if __name__ == "__main__":
    import sys
    import tempfile
    import argparse
    parser = argparse.ArgumentParser(description="The stage's figures (README, Figures).")
    parser.add_argument("anim", nargs="?", default=".build/release/anim")
    parser.add_argument("which", nargs="?", default="all", choices=["all", "raf", "idle"])
    parser.add_argument("--runs", type=int, default=1, help="how many times to measure stage.raf")
    parser.add_argument("--profile", action="store_true", help="where the page's main thread goes")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        figures(arguments.anim, scratch, arguments.which, arguments.runs, arguments.profile)
