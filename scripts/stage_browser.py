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


def figures(anim, directory, measure_seconds=10, idle_seconds=30):
    """Prints the stage's figures: requestAnimationFrame intervals with 1,000 animated targets
    in headless Chromium (--disable-gpu), and the server's CPU with the page open and nothing
    moving."""
    path = os.path.join(directory, "thousand.anim")
    thousand_targets_script(path, seconds=measure_seconds + 5)
    preview = Preview(anim, [path], directory)
    driver = browser(directory)
    try:
        driver.get(preview.url())
        wait_until(lambda: driver.execute_script(
            "return document.querySelectorAll('#stage g[data-target]').length") == 1000, 60, "the targets")
        time.sleep(1)
        driver.execute_script("""
          window.__intervals = []; let last = null;
          window.__before = Object.assign({}, window.stageStats);
          function frame(now) { if (last !== null) window.__intervals.push(now - last); last = now;
            requestAnimationFrame(frame); }
          requestAnimationFrame(frame);""")
        server_before = cpu_seconds(preview.pid)
        start = time.monotonic()
        time.sleep(measure_seconds)
        server_used = cpu_seconds(preview.pid) - server_before
        elapsed = time.monotonic() - start
        intervals = driver.execute_script("return window.__intervals")
        stats = driver.execute_script(
            "const b = window.__before, s = window.stageStats;"
            " return b && s ? {messages: s.messages - b.messages, applied: s.applied - b.applied,"
            " ms: s.applyMs - b.applyMs, stride: s.stride} : null")
        moved = driver.execute_script("return Number(document.body.dataset.time)")
    finally:
        driver.quit()
        preview.stop()
    intervals.sort()
    p95 = intervals[int(0.95 * (len(intervals) - 1))]
    within = sum(1 for i in intervals if i <= 17.5) / len(intervals)
    print("stage.raf: 1000 animated targets, %d s in headless Chromium --disable-gpu: %d frames, "
          "%.1f %% of intervals <= 17.5 ms, 95th percentile %.2f ms, longest %.2f ms (session at %.2f s)"
          % (measure_seconds, len(intervals), 100 * within, p95, intervals[-1], moved))
    if stats:
        print("stage.raf: the server sent %.1f frames a second at %.1f %% of a core; the page applied them at "
              "%d animation frames, %.2f ms each on average, writing the stage every %s frame(s) at the end"
              % (stats["messages"] / elapsed, 100 * server_used / elapsed, stats["applied"],
                 stats["ms"] / max(stats["applied"], 1), stats["stride"]))
    print("load average: %s" % open("/proc/loadavg").read().split(" ", 3)[:3])

    still = os.path.join(directory, "still.anim")
    with open(still, "w") as f:
        f.write("target card { x: 0 }\nanimate card.x to 100 over 200ms\n")
    preview = Preview(anim, [still], directory)
    driver = browser(directory)
    try:
        driver.get(preview.url())
        wait_until(lambda: driver.execute_script("return document.getElementById('status').textContent") == "live",
                   30, "the page to connect")
        time.sleep(2)
        before = cpu_seconds(preview.pid)
        start = time.monotonic()
        time.sleep(idle_seconds)
        used = cpu_seconds(preview.pid) - before
        elapsed = time.monotonic() - start
    finally:
        driver.quit()
        preview.stop()
    print("stage.idle: the server with the page open and nothing moving, %d s: %.2f %% of a core "
          "(%.2f s of CPU, /proc/PID/stat)" % (idle_seconds, 100 * used / elapsed, used))


if __name__ == "__main__":
    import sys
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        figures(sys.argv[1] if len(sys.argv) > 1 else ".build/release/anim", scratch)
