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


def wait_until(condition, timeout=20, message="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + message)


def trace_sample(anim, path, at):
    """The sample `anim trace PATH --at AT` writes, as an ordered dict of values, and its t."""
    output = subprocess.run([anim, "trace", path, "--at", at], capture_output=True, text=True, check=True).stdout
    for line in output.splitlines():
        record = json.loads(line)
        if "values" in record:
            return record["t"], record["values"]
    raise AssertionError("no sample in anim trace's output")
