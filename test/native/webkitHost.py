#!/usr/bin/env python3
"""A native WebView host in WebKitGTK, as an iOS WKWebView host is built (PROTOCOL.md, "Native bridges").

It registers the `svc` script message handler (the page then has `window.webkit.messageHandlers.svc`, as on iOS),
injects the launch snapshot and dist/native-adapter.js at document start into the top frame only, and accepts a
message only from the app's top frame. It speaks JSON lines on stdin/stdout with the test (test/native/*.ts):

  in:  {"cmd": "load", "url": ...} | {"cmd": "deliver", "json": ...} | {"cmd": "eval", "id": n, "fn": ..., "arg": ...}
       | {"cmd": "reload"} | {"cmd": "quit"}
  out: {"event": "ready"} | {"event": "loaded", "url": ...} | {"event": "message", "json": ...}
       | {"event": "refused", "why": ...} | {"event": "eval", "id": n, "ok": bool, "value"|"error": ...}
       | {"event": "frame", "frame": ...} (with --answer: each frame this host answered itself)

With --answer it is also the host: it answers the app's frames itself, written from PROTOCOL.md alone (no code of
the SDK), instead of relaying them to the test.
"""
import argparse
import base64
import json
import secrets
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--snapshot", required=True, help="the launch snapshot, JSON")
parser.add_argument("--adapter", required=True, help="path of dist/native-adapter.js")
parser.add_argument("--answer", action="store_true", help="answer the app's frames here (PROTOCOL.md host)")
parser.add_argument("--no-frame-check", action="store_true", help="accept messages from any frame (unsafe)")
args = parser.parse_args()


def emit(event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


# WebKitGTK does not tell a script message's frame (iOS has WKScriptMessage.frameInfo). The top-frame-only script
# below wraps the top frame's handler, keeping the real post in a closure, and adds a secret of this process to each
# message; a child frame has no such script, so what it posts through its own `webkit.messageHandlers.svc` arrives
# without the secret and is refused. (`window.webkit` itself cannot be redefined: it is not configurable.)
token = secrets.token_hex(16)
guard = """(() => {
  const handler = window.webkit.messageHandlers.svc;
  const post = handler.postMessage.bind(handler);
  const token = %s;
  handler.postMessage = (json) => post(JSON.stringify({ token, json }));
})();""" % json.dumps(token)
with open(args.adapter, encoding="utf-8") as f:
    adapter = f.read()
boot = "window.__svc_launch = %s;\n%s\n%s" % (args.snapshot, "" if args.no_frame_check else guard, adapter)

manager = WebKit2.UserContentManager()
manager.add_script(
    WebKit2.UserScript.new(
        boot,
        WebKit2.UserContentInjectedFrames.TOP_FRAME,
        WebKit2.UserScriptInjectionTime.START,
        None,
        None,
    )
)
manager.register_script_message_handler("svc")
view = WebKit2.WebView.new_with_user_content_manager(manager)
window = Gtk.Window()
window.set_default_size(800, 600)
window.add(view)
window.show_all()


def deliver(frame_json):
    # A JSON string literal is a JavaScript string literal: json.dumps escapes quotes, backslashes, control
    # characters and (ensure_ascii) U+2028/U+2029, so the frame reaches __svc_receive exactly as sent.
    view.evaluate_javascript("__svc_receive(%s)" % json.dumps(frame_json), -1, None, None, None, None, None)


# ---------------------------------------------------------------- the host written from PROTOCOL.md alone
store = {}
answered = {"channels": 0, "handlers": []}


def answer_frame(frame):
    emit({"event": "frame", "frame": frame})
    if frame.get("svc") == "hello":
        answered["channels"] += 1  # a later hello: a new page or client; nothing of ours is pending
        return
    if frame.get("svc") != 1 or not isinstance(frame.get("method"), str):
        return
    method, params, fid = frame["method"], frame.get("params") or {}, frame.get("id")
    if method == "actions.handlers":
        answered["handlers"] = params.get("names", [])
        return
    if fid is None:
        return  # notifications (ui.close, ui.toast, rpc.close...) want no answer

    def reply(result=None, error=None):
        out = {"svc": 1, "id": fid}
        if error:
            out["error"] = {"code": error[0], "message": error[1], "retriable": False}
        else:
            out["result"] = result  # void operations: null (PROTOCOL.md allows it; the app gets undefined)
        deliver(json.dumps(out))

    key = params.get("key")
    if method in ("storage.get", "storage.set", "storage.remove") and not (isinstance(key, str) and key):
        return reply(error=("ERR_INVALID_ARGUMENT", "svc.%s(): key must be a non-empty string." % method))
    if method == "identity.get":
        return reply({"app_user_id": "u-native", "tenant_id": "t-1", "locale": "en", "display_name": "Ada"})
    if method == "auth.state":
        return reply("signed-in")
    if method == "storage.get":
        if key in store:
            return reply(store[key])
        return deliver(json.dumps({"svc": 1, "id": fid}))  # no value: no `result`
    if method == "storage.set":
        store[key] = params.get("value")
        return reply(None)
    if method == "storage.remove":
        store.pop(key, None)
        return reply(None)
    if method == "storage.clear":
        store.clear()
        return reply(None)
    if method == "files.save":
        blob = params.get("blob") or {}
        size = len(base64.b64decode(blob.get("$blob", "")))
        return reply({"file_id": "native:%s:%d:%s" % (params.get("name"), size, blob.get("type"))})
    if method == "rpc.ping":
        return reply(None)
    reply(error=("ERR_UNSUPPORTED", "svc.%s is not supported by this host." % method))


def on_message(_manager, result):
    value = result.get_js_value() if hasattr(result, "get_js_value") else result
    text = value.to_string()
    if args.no_frame_check:
        frame_json = text
    else:
        try:
            envelope = json.loads(text)
        except ValueError:
            return emit({"event": "refused", "why": "not JSON"})
        if not isinstance(envelope, dict) or envelope.get("token") != token:
            return emit({"event": "refused", "why": "not from the app's top frame"})
        frame_json = envelope.get("json")
    if not isinstance(frame_json, str):
        return emit({"event": "refused", "why": "not a string"})
    if args.answer:
        try:
            answer_frame(json.loads(frame_json))
        except ValueError:
            pass  # malformed JSON is dropped
    else:
        emit({"event": "message", "json": frame_json})


manager.connect("script-message-received::svc", on_message)


def on_load(_view, load_event):
    if load_event == WebKit2.LoadEvent.FINISHED:
        emit({"event": "loaded", "url": view.get_uri()})


view.connect("load-changed", on_load)


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
        view.load_uri(command["url"])
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
