#!/usr/bin/python3
"""WebKitGTK smoke test of the Switchboard dashboard.

Safari's engine is not in the Chromium suite, so this script loads the
dashboard in WebKitGTK (WebKit2 4.1, the engine of GNOME Web and of Safari's
family) and checks the three things every visitor relies on: the page loads
with the access token, the event stream delivers live updates, and a server's
drawer opens.

Usage (the Go test e2e/webkit_smoke_test.go drives it against a real
instance):

    xvfb-run -a /usr/bin/python3 e2e/webkit/smoke.py [--expect NAME=STATE]
        [--drawer NAME] [--timeout SECONDS] 'http://127.0.0.1:PORT/?token=...'

With --expect it prints a line "READY" once the stream's first event has
been swapped in, then waits for the chip of NAME to show STATE (the caller
causes that change). With --drawer it opens NAME's drawer. It exits 0 and
prints "ok: ..." when every step passed, and exits 1 with "FAIL: ..." on
stderr at the first step that did not happen within the timeout.
"""

import argparse
import json
import sys
import time

try:
    import gi

    gi.require_version("Gtk", "3.0")
    gi.require_version("WebKit2", "4.1")
    from gi.repository import GLib, Gtk, WebKit2
except (ImportError, ValueError) as exc:  # pragma: no cover - environment
    print(f"FAIL: WebKitGTK is not installed (apt-get install gir1.2-webkit2-4.1 python3-gi): {exc}", file=sys.stderr)
    sys.exit(1)

# RECORDER runs before the page's own scripts, so the stream's first event
# is counted even when it arrives before the load finishes. htmx's SSE
# extension fires htmx:sseOpen and htmx:sseMessage, both bubbling to the
# document; uncaught errors are kept because an engine-specific one is
# exactly what this smoke test is for.
RECORDER = """
window.__smoke = {open: 0, messages: 0, errors: []};
document.addEventListener('htmx:sseOpen', () => { window.__smoke.open++; }, true);
document.addEventListener('htmx:sseMessage', () => { window.__smoke.messages++; }, true);
window.addEventListener('error', e => {
  window.__smoke.errors.push(String(e.message) + ' at ' + e.filename + ':' + e.lineno);
});
window.addEventListener('unhandledrejection', e => {
  window.__smoke.errors.push('unhandled rejection: ' + String(e.reason));
});
"""


class Failure(Exception):
    """Failure is a step that did not happen; its text says which."""


class Browser:
    """Browser is one WebKitGTK view in a window, driven synchronously by
    spinning the GLib main context until each step's answer arrives."""

    def __init__(self, width, height):
        manager = WebKit2.WebsiteDataManager.new_ephemeral()
        context = WebKit2.WebContext.new_with_website_data_manager(manager)
        content = WebKit2.UserContentManager()
        content.add_script(
            WebKit2.UserScript.new(
                RECORDER,
                WebKit2.UserContentInjectedFrames.TOP_FRAME,
                WebKit2.UserScriptInjectionTime.START,
                None,
                None,
            )
        )
        self.view = WebKit2.WebView(web_context=context, user_content_manager=content)
        self.window = Gtk.OffscreenWindow()
        self.window.set_default_size(width, height)
        self.window.add(self.view)
        self.window.show_all()
        self.loaded = False
        self.load_error = None
        self.view.connect("load-changed", self._on_load_changed)
        self.view.connect("load-failed", self._on_load_failed)
        self.view.connect("web-process-terminated", self._on_crash)
        # A ticker wakes the blocking main-context iteration, so every wait
        # below notices its deadline even when nothing else happens.
        GLib.timeout_add(50, lambda: True)

    def _on_load_changed(self, _view, event):
        if event == WebKit2.LoadEvent.FINISHED:
            self.loaded = True

    def _on_load_failed(self, _view, _event, uri, error):
        self.load_error = f"{uri}: {error.message}"
        return False

    def _on_crash(self, _view, reason):
        self.load_error = f"the web process ended ({reason.value_nick})"

    def spin_until(self, done, deadline, what):
        """spin_until runs the main loop until done() is true, failing with
        what at the deadline or when the page could not load."""
        ctx = GLib.MainContext.default()
        while not done():
            if self.load_error:
                raise Failure(f"{what}: {self.load_error}")
            if time.monotonic() > deadline:
                raise Failure(f"{what}: not within the timeout")
            ctx.iteration(True)

    def load(self, url, deadline):
        self.view.load_uri(url)
        self.spin_until(lambda: self.loaded, deadline, "load the dashboard")

    def js(self, source, deadline):
        """js evaluates source (an expression returning JSON text) and
        returns the decoded value."""
        box = {}

        def finish(view, result, _data):
            try:
                box["value"] = view.evaluate_javascript_finish(result)
            except GLib.Error as exc:
                box["error"] = exc.message

        self.view.evaluate_javascript(source, -1, None, None, None, finish, None)
        self.spin_until(lambda: box, deadline, "evaluate a script")
        if "error" in box:
            raise Failure(f"script {source[:60]!r}…: {box['error']}")
        return json.loads(box["value"].to_string())

    def wait_true(self, predicate, deadline, what):
        """wait_true polls the JavaScript predicate every 100 ms."""
        source = f"JSON.stringify(!!({predicate}))"
        while not self.js(source, deadline):
            pause = time.monotonic() + 0.1
            self.spin_until(lambda: time.monotonic() > pause, deadline, what)
            if time.monotonic() > deadline:
                raise Failure(f"{what}: not within the timeout")


def chip_state(name):
    return (
        "[...document.querySelectorAll('[data-testid=\"status-chip\"]')]"
        f".filter(c => c.dataset.server === {json.dumps(name)}).map(c => c.dataset.state)"
    )


def smoke(args):
    deadline = time.monotonic() + args.timeout
    b = Browser(1400, 900)
    b.load(args.url, deadline)

    if not b.js("JSON.stringify(!!document.querySelector('[data-testid=\"live\"]'))", deadline):
        title = b.js("JSON.stringify(document.title)", deadline)
        raise Failure(f"the page {title!r} is not the dashboard (was the token accepted?)")
    b.wait_true("window.__smoke && window.__smoke.messages > 0", deadline,
                "the event stream's first event swapped into the page")
    steps = ["dashboard loaded", "event stream connected"]

    if args.expect:
        name, _, state = args.expect.partition("=")
        print("READY", flush=True)
        try:
            b.wait_true(f"{chip_state(name)}.includes({json.dumps(state)})", deadline,
                        f"a live update turning {name}'s chip {state}")
        except Failure as exc:
            seen = b.js(f"JSON.stringify({chip_state(name)})", time.monotonic() + 5)
            raise Failure(f"{exc} ({name}'s chips show {seen})") from None
        steps.append(f"{name} turned {state} live")

    if args.drawer:
        sel = json.dumps(f'[data-testid="drawer"][data-server={json.dumps(args.drawer)}]')
        opener = (
            "(() => { const n = " + json.dumps(args.drawer) + ";"
            " const b = [...document.querySelectorAll('[data-testid=\"row-open\"], [data-testid=\"chip-button\"]')]"
            "  .find(e => e.closest('[data-server]')?.dataset.server === n && e.getClientRects().length > 0);"
            " if (b) b.click(); return JSON.stringify(!!b); })()"
        )
        if not b.js(opener, deadline):
            raise Failure(f"no visible button opens the drawer of {args.drawer}")
        b.wait_true(f"(() => {{ const d = document.querySelector({sel}); return d && d.getClientRects().length > 0; }})()",
                    deadline, f"the drawer of {args.drawer} opens")
        steps.append(f"drawer of {args.drawer} opened")

    errors = b.js("JSON.stringify(window.__smoke.errors)", deadline)
    if errors:
        raise Failure("uncaught script errors in WebKit: " + "; ".join(errors))
    print("ok: " + ", ".join(steps), flush=True)


def main():
    p = argparse.ArgumentParser(description="WebKitGTK smoke test of the Switchboard dashboard")
    p.add_argument("url", help="the sign-in link the instance printed (with ?token=)")
    p.add_argument("--expect", help="NAME=STATE: print READY, then wait for NAME's chip to show STATE")
    p.add_argument("--drawer", help="open the drawer of this server")
    p.add_argument("--timeout", type=float, default=60, help="seconds for all steps together")
    args = p.parse_args()
    try:
        smoke(args)
    except Failure as exc:
        print(f"FAIL: {exc}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
