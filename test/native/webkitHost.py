#!/usr/bin/env python3
"""The project's native WebView test host in WebKitGTK, built as an iOS WKWebView host is (PROTOCOL.md, section 4).

It registers the `svc` script message handler (the page then has `window.webkit.messageHandlers.svc`, as on iOS),
and for each launch (each `load`) makes a new secret and injects the snapshot, the secret and
dist/native-adapter.js at document start into the top frame only. It relays to the test the frame of every message
that carries the launch's secret, drops every other message, and never lets the top frame load another origin. It
speaks JSON lines on stdin/stdout with the test (test/native/startNativeHost.ts):

  in:  {"cmd": "load", "url": ...} | {"cmd": "deliver", "json": ...} | {"cmd": "eval", "id": n, "fn": ..., "arg": ...}
       | {"cmd": "reload"} | {"cmd": "quit"}
  out: {"event": "ready"} | {"event": "loaded", "url": ...} | {"event": "message", "json": ...}
       | {"event": "refused", "why": ...} | {"event": "navigation-refused"}
       | {"event": "eval", "id": n, "ok": bool, "value"|"error": ...}

The host the SDK's answers come from is `createHost` in the test; test/native/protocolHost.py is a second host,
written from PROTOCOL.md alone, that answers by itself.
"""
import argparse
import hmac
import json
import secrets
import sys
from urllib.parse import urlsplit

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--snapshot", required=True, help="the launch snapshot, JSON")
parser.add_argument("--adapter", required=True, help="path of dist/native-adapter.js")
parser.add_argument("--no-secret-check", action="store_true", help="take any envelope's frame (unsafe: to show why)")
parser.add_argument("--no-secret", action="store_true", help="inject no secret (the adapter must refuse)")
args = parser.parse_args()


def emit(event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


with open(args.adapter, encoding="utf-8") as f:
    adapter = f.read()

manager = WebKit2.UserContentManager()
manager.register_script_message_handler("svc")
view = WebKit2.WebView.new_with_user_content_manager(manager)
window = Gtk.Window()
window.set_default_size(800, 600)
window.add(view)
window.show_all()

# The launch's secret: made anew by each launch, kept in memory only, never printed.
launch = {"secret": "", "origin": ""}


def origin(url):
    parts = urlsplit(url)
    return "%s://%s" % (parts.scheme, parts.netloc)


def start_launch(url):
    launch["secret"] = secrets.token_hex(32)
    launch["origin"] = origin(url)
    secret_line = "" if args.no_secret else "globalThis.__svc_secret = %s;\n" % json.dumps(launch["secret"])
    boot = "globalThis.__svc_launch = %s;\n%s%s" % (args.snapshot, secret_line, adapter)
    manager.remove_all_scripts()
    manager.add_script(
        WebKit2.UserScript.new(
            boot,
            WebKit2.UserContentInjectedFrames.TOP_FRAME,
            WebKit2.UserScriptInjectionTime.START,
            None,
            None,
        )
    )
    view.load_uri(url)


def deliver(frame_json):
    # A JSON string literal is a JavaScript string literal: json.dumps escapes quotes, backslashes, control
    # characters and (ensure_ascii) U+2028/U+2029, so the frame reaches __svc_receive exactly as sent.
    view.evaluate_javascript("__svc_receive(%s)" % json.dumps(frame_json), -1, None, None, None, None, None)


def frame_of(text):
    """The frame an envelope carries, or why the message is refused."""
    try:
        envelope = json.loads(text)
    except ValueError:
        return None, "not JSON"
    if not isinstance(envelope, dict) or not isinstance(envelope.get("frame"), str):
        return None, "not an envelope"
    if args.no_secret_check:
        return envelope["frame"], None
    given = envelope.get("secret")
    if not isinstance(given, str) or not hmac.compare_digest(given.encode(), launch["secret"].encode()):
        return None, "without the launch's secret"
    return envelope["frame"], None


def on_message(_manager, result):
    value = result.get_js_value() if hasattr(result, "get_js_value") else result
    frame, why = frame_of(value.to_string() if value.is_string() else "")
    if frame is None:
        emit({"event": "refused", "why": why})
    else:
        emit({"event": "message", "json": frame})


manager.connect("script-message-received::svc", on_message)


def on_load(_view, load_event):
    if load_event == WebKit2.LoadEvent.FINISHED:
        emit({"event": "loaded", "url": view.get_uri()})


view.connect("load-changed", on_load)


def on_decide_policy(_view, decision, kind):
    # A top-frame document of another origin never commits: the top-frame script would hand it the secret.
    if kind == WebKit2.PolicyDecisionType.RESPONSE and decision.is_main_frame_main_resource():
        if origin(decision.get_response().get_uri()) != launch["origin"]:
            decision.ignore()
            emit({"event": "navigation-refused"})
            return True
    return False


view.connect("decide-policy", on_decide_policy)


def run_eval(cid, fn, arg):
    body = (
        "const v = await (%s)(JSON.parse(arg));"
        "return JSON.stringify({ v: v === undefined ? '__svc_undefined__' : v });" % fn
    )

    def done(source, res):
        try:
            out = source.call_async_javascript_function_finish(res)
            value = out.get_js_value() if hasattr(out, "get_js_value") else out
            emit({"event": "eval", "id": cid, "ok": True, "value": json.loads(value.to_string())["v"]})
        except Exception as error:  # the page threw or rejected
            emit({"event": "eval", "id": cid, "ok": False, "error": str(error)})

    arguments = GLib.Variant("a{sv}", {"arg": GLib.Variant("s", json.dumps(arg))})
    view.call_async_javascript_function(body, -1, arguments, None, None, None, done)


def on_stdin(channel, _condition):
    line = channel.readline()
    if not line:
        Gtk.main_quit()
        return False
    command = json.loads(line)
    kind = command.get("cmd")
    if kind == "load":
        start_launch(command["url"])
    elif kind == "reload":
        view.reload()
    elif kind == "deliver":
        deliver(command["json"])
    elif kind == "eval":
        run_eval(command["id"], command["fn"], command.get("arg"))
    elif kind == "quit":
        Gtk.main_quit()
        return False
    return True


GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, on_stdin)
emit({"event": "ready"})
Gtk.main()
