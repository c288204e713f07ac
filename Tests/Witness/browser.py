#!/usr/bin/env python3
"""Opens a page in headless Chromium, as a person would, and reports what it shows.

  browser.py URL EXPRESSION [--screenshot FILE] [--timeout SECONDS]

Drives Chromium through its DevTools protocol over a pipe (--remote-debugging-pipe), in
real time: a page that draws in animation frames (MapLibre GL JS) draws, which it does
not under --dump-dom and virtual time. Evaluates EXPRESSION every 250 ms until it gives
a truthy value (or the timeout passes, 120 s by default), then optionally takes a
screenshot. WebGL is SwiftShader's (software); the page is composited in software too
(--disable-gpu-compositing: the same picture, for about a third of the CPU that compositing
through SwiftShader took). Prints JSON: {"value": ..., "errors": [every uncaught exception
and console.error of the page]}.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self):
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()
        self.profile = profile = tempfile.mkdtemp(prefix="browser-witness-")

        def wire():
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)

        self.process = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
             "--ignore-gpu-blocklist", "--disable-gpu-compositing", "--window-size=1400,900", "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.buffer = b""
        self.last_id = 0
        self.events = []
        self.session = None

    def call(self, method, params=None):
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params or {}}
        if self.session:
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self.last_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
                self.events.append(reply)
            chunk = os.read(self.replies, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk

    def errors(self):
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                found.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        return found

    def close(self):
        """Asks Chromium to quit (it then removes its singleton directory in /tmp; killed, it
        leaves it), kills it if it has not within 10 s, and removes the profile (about 8 MB)."""
        try:
            os.write(self.commands, json.dumps({"id": self.last_id + 1, "method": "Browser.close"}).encode() + b"\0")
        except OSError:
            pass  # it has ended already
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    url, expression = sys.argv[1], sys.argv[2]
    options = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    # A bound, not a wait: the page is polled until the expression holds. Generous, because
    # the whole suite runs many browsers and renderers at once on two cores.
    timeout = float(options.get("--timeout", "120"))
    browser = Browser()
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        browser.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.call("Runtime.enable")
        browser.call("Page.enable")
        browser.call("Page.navigate", {"url": url})
        deadline, value = time.time() + timeout, None
        while time.time() < deadline:
            result = browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
            value = result.get("result", {}).get("value")
            if value:
                break
            time.sleep(0.25)
        if "--screenshot" in options:
            picture = browser.call("Page.captureScreenshot", {"format": "png"})["data"]
            with open(options["--screenshot"], "wb") as f:
                f.write(base64.b64decode(picture))
        print(json.dumps({"value": value, "errors": browser.errors()}))
    finally:
        browser.close()


if __name__ == "__main__":
    main()
