"""Headless Chromium (Debian's ``chromium``) driven over the DevTools protocol with ``websocket-client``.

``Browser().open(url)`` loads a page and returns what the book test checks: the page's images (loaded
or not, with their alt text), its visible tables, its links, every request it made (to see that none
leaves the machine), and every console error or uncaught exception it raised. ``resize`` sets the
window's width, ``type_and_enter`` types into a field and presses Enter, ``evaluate`` runs JavaScript.
"""
from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request

import websocket

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=1280,900", "--remote-debugging-port=0"]

# Runs in the page once it has loaded; returns plain values.
INSPECT = """(() => ({
  title: document.title,
  images: [...document.images].map(i => ({src: i.src.slice(-40), alt: i.alt, loaded: i.complete && i.naturalWidth > 0})),
  tables: [...document.querySelectorAll('table')].filter(t => t.offsetHeight > 0 && t.rows.length > 0).length,
  links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),
  footer: (document.querySelector('.run-facts') || {innerText: ''}).innerText,
  height: document.documentElement.scrollHeight,
}))()"""


class Browser:
    """One headless Chromium with a fresh profile, and one tab driven over its DevTools socket."""

    def __init__(self, timeout: float = 30):
        # Chromium's helper processes may still write to the profile as the browser exits: a leftover file
        # in the temporary folder is no test failure.
        self.profile = tempfile.TemporaryDirectory(prefix="rougelab-chromium-", ignore_cleanup_errors=True)
        self.process = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
                                        stderr=subprocess.PIPE, text=True)
        port = self._devtools_port(timeout)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=timeout) as reply:
            page = next(t for t in json.load(reply) if t["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=timeout,
                                                  suppress_origin=True)
        self.next_id, self.events, self.width = 0, [], 1280
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")

    def _devtools_port(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        for line in self.process.stderr:
            match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if match:
                return int(match.group(1))
            if time.monotonic() > deadline:
                break
        raise RuntimeError(f"{CHROMIUM} did not open its DevTools port")

    def send(self, method: str, **params) -> dict:
        """Call one DevTools method and return its result; events arriving meanwhile are kept."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self.events.append(message)

    def _wait_for(self, event: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == event for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {event} within {timeout} s")
            self.events.append(json.loads(self.socket.recv()))

    def open(self, url: str) -> dict:
        """Load ``url``; return what ``inspect`` finds."""
        self.events = []
        self.send("Page.navigate", url=url)
        return self.inspect()

    def inspect(self) -> dict:
        """Once the page has loaded: INSPECT's findings plus ``errors`` (console errors, exceptions, failed
        loads) and ``requests`` (every URL the page asked for since it was opened)."""
        self._wait_for("Page.loadEventFired")
        found = self.evaluate(INSPECT)
        found["errors"] = [_describe(e) for e in self.events if _is_error(e)]
        found["requests"] = [e["params"]["request"]["url"] for e in self.events
                             if e.get("method") == "Network.requestWillBeSent"]
        return found

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page."""
        return self.send("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def wait_until(self, expression: str, timeout: float = 30):
        """Poll ``expression`` until it is truthy; return its value (raise ``TimeoutError`` after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while not (value := self.evaluate(expression)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{expression} stayed false for {timeout} s")
            time.sleep(0.2)
        return value

    def type_and_enter(self, selector: str, text: str) -> dict:
        """Type ``text`` into the element ``selector`` picks, press Enter, and ``inspect`` the page it leads to."""
        self.events = []
        if not self.evaluate(f"(e => (e && (e.focus(), true)))(document.querySelector({json.dumps(selector)}))"):
            raise LookupError(f"no {selector} on the page")
        self.send("Input.insertText", text=text)
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13,
                      **({"text": "\r"} if kind == "keyDown" else {}))
        return self.inspect()

    def resize(self, width: int, height: int = 900) -> None:
        """Lay the page out for a window ``width`` pixels wide."""
        self.width = width
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def screenshot(self, path, max_height: int = 16000) -> None:
        """A PNG of the whole page (up to ``max_height`` pixels) at the window's width."""
        height = self.send("Runtime.evaluate", expression="document.documentElement.scrollHeight",
                           returnByValue=True)["result"]["value"]
        clip = {"x": 0, "y": 0, "width": self.width, "height": min(height, max_height), "scale": 1}
        shot = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True, clip=clip)
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        self.socket.close()
        self.process.terminate()
        self.process.wait(timeout=30)
        self.profile.cleanup()


def _is_error(event: dict) -> bool:
    method, params = event.get("method"), event.get("params", {})
    return ((method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"))
            or method == "Runtime.exceptionThrown"
            or (method == "Log.entryAdded" and params["entry"].get("level") == "error"))


def _describe(event: dict) -> str:
    params = event["params"]
    if event["method"] == "Log.entryAdded":
        return f"{params['entry'].get('source')}: {params['entry'].get('text')} {params['entry'].get('url', '')}"
    if event["method"] == "Runtime.exceptionThrown":
        return params["exceptionDetails"].get("text", "exception")
    return " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
