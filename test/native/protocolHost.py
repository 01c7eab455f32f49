#!/usr/bin/env python3
"""A minimal native host written from PROTOCOL.md's text alone (section 4 with 2, 5 and 6), in WebKitGTK.

It shares no code with the project's test host (webkitHost.py) nor with the SDK: it is what an implementer who
read only PROTOCOL.md would write. Per launch it makes a secret, injects one script at document start into the top
frame only (the snapshot, the secret, dist/native-adapter.js), drops every message whose envelope lacks the secret,
refuses top-frame documents of other origins, and answers the app's frames itself: identity.get, auth.state, storage.*, files.save, rpc.ping, actions.handlers,
and the actions it invokes. The test drives it with JSON lines:

  in:  {"cmd": "load", "url": ...} | {"cmd": "eval", "id": n, "fn": ..., "arg": ...}
       | {"cmd": "invoke", "id": n, "name": ..., "input": ...} | {"cmd": "quit"}
  out: {"event": "ready"} | {"event": "loaded"} | {"event": "dropped"} | {"event": "frame", "frame": ...}
       | {"event": "navigation-refused"}
       | {"event": "invoked", "id": n, "result"|"error": ...} | {"event": "eval", "id": n, "ok": ..., ...}
"""
import argparse
import base64
import hmac
import json
import secrets
import sys
from urllib.parse import urlsplit

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

options = argparse.ArgumentParser()
options.add_argument("--snapshot", required=True)
options.add_argument("--adapter", required=True)
given = options.parse_args()

with open(given.adapter, encoding="utf-8") as adapter_file:
    ADAPTER_JS = adapter_file.read()


def say(event):
    print(json.dumps(event), flush=True)


def origin_of(url):
    parts = urlsplit(url)
    return "%s://%s" % (parts.scheme, parts.netloc)


class Launch:
    """One opening of the app: its secret, its channel's state."""

    def __init__(self, url):
        self.origin = origin_of(url)
        # "32 bytes from the system's cryptographic random source written as 64 lowercase hex characters."
        self.secret = secrets.token_bytes(32).hex()
        self.store = {}
        self.handlers = []
        self.pending = {}  # our request id -> the test's invoke id
        self.hellos = 0
        self.next_id = 0


launch = None
content = WebKit2.UserContentManager()
content.register_script_message_handler("svc")
webview = WebKit2.WebView.new_with_user_content_manager(content)
toplevel = Gtk.Window()
toplevel.add(webview)
toplevel.show_all()


def open_app(url):
    global launch
    launch = Launch(url)
    # "one script, at document start, into the top frame only, made of three parts in this order"
    script = "globalThis.__svc_launch = %s;\nglobalThis.__svc_secret = \"%s\";\n%s" % (
        given.snapshot,
        launch.secret,
        ADAPTER_JS,
    )
    content.remove_all_scripts()
    content.add_script(
        WebKit2.UserScript.new(
            script,
            WebKit2.UserContentInjectedFrames.TOP_FRAME,
            WebKit2.UserScriptInjectionTime.START,
            None,
            None,
        )
    )
    webview.load_uri(url)


def to_app(frame):
    # "call __svc_receive(<a JavaScript string literal of the JSON>)": json.dumps of the JSON text is one.
    webview.evaluate_javascript("__svc_receive(%s)" % json.dumps(json.dumps(frame)), -1, None, None, None, None, None)


def frame_from(message):
    """Step 4: the frame, or None to drop the message."""
    try:
        envelope = json.loads(message)
    except ValueError:
        return None
    if not isinstance(envelope, dict):
        return None
    secret, frame = envelope.get("secret"), envelope.get("frame")
    if not isinstance(secret, str) or not isinstance(frame, str):
        return None
    if not hmac.compare_digest(secret.encode("utf-8"), launch.secret.encode("utf-8")):
        return None
    return frame


def fail_pending(code):
    for invoke_id in launch.pending.values():
        say({"event": "invoked", "id": invoke_id, "error": {"code": code, "retriable": True}})
    launch.pending.clear()


def error(frame_id, code, message):
    to_app({"svc": 1, "id": frame_id, "error": {"code": code, "message": message, "retriable": False}})


def on_frame(frame):
    say({"event": "frame", "frame": frame})
    if not isinstance(frame, dict):
        return
    if frame.get("svc") == "hello":
        launch.hellos += 1
        if launch.hellos > 1:  # "a later hello means a new channel"
            fail_pending("ERR_DISCONNECTED")
            launch.handlers = []
        return
    if frame.get("svc") != 1:
        return
    frame_id, method, params = frame.get("id"), frame.get("method"), frame.get("params", {})
    if method is None:  # a response to one of our requests
        invoke_id = launch.pending.pop(frame_id, None)
        if invoke_id is not None:
            answer = {"error": frame["error"]} if "error" in frame else {"result": frame.get("result")}
            say({"event": "invoked", "id": invoke_id, **answer})
        return
    if not isinstance(params, dict):
        params = {}
    if method == "actions.handlers":
        names = params.get("names")
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            launch.handlers = names
        return
    if method == "rpc.close":
        fail_pending("ERR_DISCONNECTED")
        return
    if frame_id is None:
        return  # other notifications (ui.toast, ui.close, ...) want no answer
    answer_request(frame_id, method, params)


def answer_request(frame_id, method, params):
    def ok(result=None):
        to_app({"svc": 1, "id": frame_id, "result": result})

    fields = {
        "identity.get": set(),
        "auth.state": set(),
        "rpc.ping": set(),
        "storage.get": {"key"},
        "storage.set": {"key", "value"},
        "storage.remove": {"key"},
        "storage.clear": set(),
        "files.save": {"name", "blob"},
    }
    if method not in fields:
        return error(frame_id, "ERR_UNSUPPORTED", "svc.%s is not supported by this host." % method)
    unknown = sorted(set(params) - fields[method])
    if unknown:
        return error(frame_id, "ERR_INVALID_ARGUMENT", "svc.%s(): unknown field %s." % (method, unknown[0]))
    if "key" in fields[method] and not (isinstance(params.get("key"), str) and params["key"]):
        return error(frame_id, "ERR_INVALID_ARGUMENT", "svc.%s(): key must be a non-empty string." % method)
    if method == "identity.get":
        return ok({"app_user_id": "u-native", "tenant_id": "t-1", "locale": "en", "display_name": "Ada"})
    if method == "auth.state":
        return ok("signed-in")
    if method == "storage.clear":
        launch.store.clear()
    if method in ("rpc.ping", "storage.clear"):
        return ok()
    if method == "storage.get":
        if params["key"] in launch.store:
            return ok(launch.store[params["key"]])
        return to_app({"svc": 1, "id": frame_id})  # "a missing key is answered with no result"
    if method == "storage.set":
        launch.store[params["key"]] = params.get("value")
        return ok()
    if method == "storage.remove":
        launch.store.pop(params["key"], None)
        return ok()
    blob = params.get("blob")
    if not (isinstance(params.get("name"), str) and params["name"]):
        return error(frame_id, "ERR_INVALID_ARGUMENT", "svc.files.save(): name must be a non-empty string.")
    if not (isinstance(blob, dict) and isinstance(blob.get("$blob"), str)):
        return error(frame_id, "ERR_INVALID_ARGUMENT", "svc.files.save(): blob must be a Blob.")
    size = len(base64.b64decode(blob["$blob"]))
    ok({"file_id": "native:%s:%d:%s" % (params["name"], size, blob.get("type"))})


def invoke(invoke_id, name, action_input):
    # "Before sending actions.invoke the host checks ... that the app announced a handler for it"
    if name not in launch.handlers:
        return say({"event": "invoked", "id": invoke_id, "error": {"code": "ERR_ACTION_NO_HANDLER"}})
    launch.next_id += 1
    request_id = "host-%d" % launch.next_id
    launch.pending[request_id] = invoke_id
    context = {"invoked_by": "user", "confirmed": False}
    params = {"invocation": "inv-%d" % launch.next_id, "name": name, "input": action_input, "context": context}
    to_app({"svc": 1, "id": request_id, "method": "actions.invoke", "params": params})


def on_script_message(_content, message):
    value = message.get_js_value() if hasattr(message, "get_js_value") else message
    text = value.to_string() if value.is_string() else None
    frame_json = frame_from(text) if text is not None else None
    if frame_json is None:
        return say({"event": "dropped"})  # neither the message nor the secret is logged
    try:
        on_frame(json.loads(frame_json))
    except ValueError:
        pass  # "Malformed JSON is dropped."


content.connect("script-message-received::svc", on_script_message)


def on_decide_policy(_view, decision, kind):
    # Step 5, "Never load another origin in the app's WebView": a top-frame document of another origin never
    # commits, so the top-frame script (and the secret) never runs in it.
    if kind == WebKit2.PolicyDecisionType.RESPONSE and decision.is_main_frame_main_resource():
        if origin_of(decision.get_response().get_uri()) != launch.origin:
            decision.ignore()
            say({"event": "navigation-refused"})
            return True
    return False


webview.connect("decide-policy", on_decide_policy)
webview.connect(
    "load-changed",
    lambda _view, event: say({"event": "loaded"}) if event == WebKit2.LoadEvent.FINISHED else None,
)


def evaluate(eval_id, fn, arg):
    body = (
        "const v = await (%s)(JSON.parse(arg));"
        "return JSON.stringify({ v: v === undefined ? '__svc_undefined__' : v });" % fn
    )

    def finished(view, result):
        try:
            value = view.call_async_javascript_function_finish(result)
            value = value.get_js_value() if hasattr(value, "get_js_value") else value
            say({"event": "eval", "id": eval_id, "ok": True, "value": json.loads(value.to_string())["v"]})
        except GLib.Error as problem:
            say({"event": "eval", "id": eval_id, "ok": False, "error": problem.message})

    variables = GLib.Variant("a{sv}", {"arg": GLib.Variant("s", json.dumps(arg))})
    webview.call_async_javascript_function(body, -1, variables, None, None, None, finished)


def on_command(channel, _condition):
    line = channel.readline()
    if not line:
        Gtk.main_quit()
        return False
    command = json.loads(line)
    if command["cmd"] == "load":
        open_app(command["url"])
    elif command["cmd"] == "eval":
        evaluate(command["id"], command["fn"], command.get("arg"))
    elif command["cmd"] == "invoke":
        invoke(command["id"], command["name"], command.get("input", {}))
    elif command["cmd"] == "quit":
        Gtk.main_quit()
        return False
    return True


GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, on_command)
say({"event": "ready"})
Gtk.main()
