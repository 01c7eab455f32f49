"""A vendor backend for the svc mini app platform in Python's standard library only.

    python3 svc_backend.py serve --env backend.env [--port 8000]
        Receives webhooks at POST /svc/webhooks: verifies each one, runs it at most once (the key is the SHA-256 of
        the body), and deletes a person's data on user.deprovisioned. GET /people/<app_user_id> shows what it holds.
        GET /api/whoami, called by the app with Authorization: Bearer <svc.auth.getToken()>, verifies the token
        against the realm's keys and answers the identity it carries.
    python3 svc_backend.py post-card --env backend.env --room <room_id> --user <app_user_id> --title T --body B
        Posts a card through the server API, signed.
    python3 svc_backend.py vectors <signing-vectors.json>
        Checks svc_signing against every signing test vector.
    python3 svc_backend.py tokens <token-vectors.json>
        Checks svc_tokens against every token test vector, and its key set against their unknown_kid rule.

The env file is the one ``svc dev --backend-env <file>`` writes (SVC_API_BASE, SVC_MINI_APP_ID, SVC_SIGNING_SECRET,
and SVC_SIGNING_SECRET_PREVIOUS during a rotation; SVC_AUTH_URL, SVC_REALM, SVC_AUDIENCE and SVC_APP_ORIGIN for the
app's tokens); it is read again for each request, so a rotation applies at once.
"""

import argparse
import base64
import hashlib
import json
import re
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import svc_signing
import svc_tokens

MAX_BODY = 1024 * 1024


def well_formed(value):
    """Whether every string of a parsed JSON value, keys too, is well-formed Unicode: json.loads lets a \\ud800
    escape without its low half through, which no UTF-8 can carry (encoding it raises), and which the platform never
    signs."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return True

def read_env(path):
    """KEY=value lines, as svc dev --backend-env writes them."""
    values = {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                key, value = line.split("=", 1)
                values[key.strip()] = value.strip()
    return values


class Store:
    """What the backend holds: people it knows, and the deliveries it processed (for idempotency)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.people = {}
        self.processed = set()

    def handle(self, key, event):
        """Runs an event once; returns False when this delivery was processed already (a retry)."""
        with self.lock:
            if key in self.processed:
                return False
            name = event["event"]
            user = event.get("app_user_id")
            if name == "installation.created":
                self.people.setdefault(user, {"tenant_id": event["tenant_id"], "scopes": []})
            elif name == "scope.granted":
                person = self.people.setdefault(user, {"tenant_id": event["tenant_id"], "scopes": []})
                if event["scope"] not in person["scopes"]:
                    person["scopes"].append(event["scope"])
            elif name == "scope.revoked" and user in self.people:
                self.people[user]["scopes"] = [s for s in self.people[user]["scopes"] if s != event["scope"]]
            elif name in ("user.deprovisioned", "installation.deleted"):
                # A deletion instruction: deleting what is already gone is not an error.
                self.people.pop(user, None)
            self.processed.add(key)
            return True


def make_handler(env_path, store):
    # One key set per realm: the env file may name another svc dev's realm after a restart.
    key_sets = {}

    class Handler(BaseHTTPRequestHandler):
        def answer(self, status, body, headers=()):
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def cors(self, env):
            """The app calls from its package's origin: allow exactly that one, never *."""
            origin = self.headers.get("Origin")
            if origin and origin == env.get("SVC_APP_ORIGIN"):
                return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
            return []

        def do_OPTIONS(self):
            env = read_env(env_path)
            allowed = self.cors(env)
            if self.path != "/api/whoami" or not allowed:
                return self.answer(403, {"error": "origin not allowed"})
            self.send_response(204)
            for name, value in allowed + [
                ("Access-Control-Allow-Methods", "GET"),
                ("Access-Control-Allow-Headers", "authorization"),
                ("Access-Control-Max-Age", "600"),
            ]:
                self.send_header(name, value)
            self.end_headers()

        def whoami(self):
            env = read_env(env_path)
            if not all(env.get(name) for name in ("SVC_AUTH_URL", "SVC_REALM", "SVC_AUDIENCE")):
                return self.answer(500, {"error": "set SVC_AUTH_URL, SVC_REALM and SVC_AUDIENCE in the env file"})
            issuer = f"{env['SVC_AUTH_URL'].rstrip('/')}/realms/{env['SVC_REALM']}"
            keys = key_sets.setdefault(issuer, svc_tokens.KeySet(f"{issuer}/protocol/openid-connect/certs"))
            match = re.fullmatch(r"Bearer +(\S+)", self.headers.get("Authorization") or "", re.IGNORECASE)
            try:
                if not match:
                    raise svc_tokens.TokenError("missing-token", "send Authorization: Bearer <token>.")
                identity = svc_tokens.verify(match.group(1), keys, issuer, env["SVC_AUDIENCE"])
            except svc_tokens.TokenError as error:
                status = 503 if error.reason == "keys-unavailable" else 401
                challenge = [("WWW-Authenticate", 'Bearer error="invalid_token"')] if status == 401 else []
                body = {"error": error.reason, "message": str(error)}
                return self.answer(status, body, challenge + self.cors(env))
            self.answer(200, identity, self.cors(env))

        def do_GET(self):
            if self.path == "/api/whoami":
                return self.whoami()
            parts = self.path.split("/")
            if len(parts) == 3 and parts[1] == "people":
                user = urllib.parse.unquote(parts[2])
                with store.lock:
                    person = store.people.get(user)
                return self.answer(200, person) if person else self.answer(404, {"error": "unknown person"})
            self.answer(404, {"error": "not found"})

        def do_POST(self):
            if self.path != "/svc/webhooks":
                return self.answer(404, {"error": "not found"})
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                return self.answer(413, {"error": "body too large"})
            # The raw bytes, verified before any JSON parsing.
            body = self.rfile.read(length)
            env = read_env(env_path)
            secrets = [env.get("SVC_SIGNING_SECRET"), env.get("SVC_SIGNING_SECRET_PREVIOUS")]
            try:
                svc_signing.verify(self.headers, body, secrets)
            except svc_signing.SignatureError as error:
                return self.answer(401, {"error": error.reason, "message": str(error)})
            try:
                event = json.loads(body.decode("utf-8"))
            except ValueError:
                event = None
            if not isinstance(event, dict) or not isinstance(event.get("event"), str) or not well_formed(event):
                return self.answer(400, {"error": "invalid-payload"})
            if event.get("mini_app_id") != env.get("SVC_MINI_APP_ID"):
                return self.answer(400, {"error": "wrong-mini-app"})
            fresh = store.handle(hashlib.sha256(body).hexdigest(), event)
            self.answer(200, {"ok": True} if fresh else {"ok": True, "duplicate": True})

        def log_message(self, format, *args):
            pass

    return Handler


def serve(args):
    store = Store()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(args.env, store))
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/svc/webhooks", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


def post_card(args):
    env = read_env(args.env)
    card = {"title": args.title, "body": args.body}
    payload = {"mini_app_id": env["SVC_MINI_APP_ID"], "app_user_id": args.user, "card": card}
    # The bytes signed are the bytes sent.
    body = json.dumps(payload).encode("utf-8")
    url = f"{env['SVC_API_BASE'].rstrip('/')}/rooms/{urllib.parse.quote(args.room, safe='')}/cards"
    headers = svc_signing.signed_headers(env["SVC_SIGNING_SECRET"], env["SVC_MINI_APP_ID"], body)
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            print(response.status, response.read().decode("utf-8"))
            return 0
    except urllib.error.HTTPError as error:
        # Problem details: the detail says what to do.
        problem = json.loads(error.read().decode("utf-8") or "{}")
        print(f"{error.code} {problem.get('type', '')}: {problem.get('detail', '')}", file=sys.stderr)
        return 1


def vectors(args):
    with open(args.file, encoding="utf-8") as file:
        cases = json.load(file)["vectors"]
    failed = []
    for case in cases:
        body = base64.b64decode(case["body_base64"])
        try:
            svc_signing.verify(
                case["headers"], body, case["secrets"], now=case["now"], mini_app_id=case.get("mini_app_id")
            )
            outcome = "valid"
        except svc_signing.SignatureError as error:
            outcome = error.reason
        expected = "valid" if case["valid"] else case["reason"]
        if outcome == "valid" and case["valid"]:
            # The header's text as received: a timestamp with leading zeros is signed with them.
            stamp = case["headers"][svc_signing.TIMESTAMP_HEADER]
            if svc_signing.sign(case["signed_with"], stamp, body) != case["headers"][svc_signing.SIGNATURE_HEADER]:
                outcome = "signs differently"
        if outcome != expected:
            failed.append(f"{case['name']}: expected {expected}, got {outcome}")
    print(f"{len(cases) - len(failed)} of {len(cases)} signing vectors pass")
    for line in failed:
        print(f"  FAIL {line}", file=sys.stderr)
    return 1 if failed else 0


def tokens(args):
    with open(args.file, encoding="utf-8") as file:
        content = json.load(file)
    held = content["verifier"]
    # The key set as given, not fetched: the vectors' jwks_uri names no server.
    keys = svc_tokens.KeySet(keys=content["jwks"]["keys"])
    failed = []
    for case in content["vectors"]:
        try:
            identity = svc_tokens.verify(case["token"], keys, held["issuer"], held["audience"], now=held["now"])
            outcome = "valid" if identity == case.get("expect") else f"valid, but {json.dumps(identity)}"
        except svc_tokens.TokenError as error:
            outcome = error.reason
        expected = "valid" if case["valid"] else case["reason"]
        if outcome != expected:
            failed.append(f"{case['name']}: expected {expected}, got {outcome}")
    print(f"{len(content['vectors']) - len(failed)} of {len(content['vectors'])} token vectors pass")
    for line in failed:
        print(f"  FAIL {line}", file=sys.stderr)
    refetch = check_unknown_kid(content)
    if not refetch:
        print("unknown kid: the key set fetched again once, at most every 30 s")
    for line in refetch:
        print(f"  FAIL unknown kid: {line}", file=sys.stderr)
    return 1 if failed or refetch else 0


def check_unknown_kid(content):
    """The vectors' unknown_kid rule, with a clock and key set answers of our own: a rotation not yet seen."""
    held = content["verifier"]
    token = next(case["token"] for case in content["vectors"] if case["valid"])
    kid = json.loads(svc_tokens.b64url_decode(token.split(".")[0]))["kid"]
    before = [key for key in content["jwks"]["keys"] if key["kid"] != kid]
    answers, fetches, now = [before, content["jwks"]["keys"]], [], [0]

    def fetch():
        fetches.append(now[0])
        return answers[min(len(fetches), len(answers)) - 1]

    keys = svc_tokens.KeySet("https://keys.invalid/", clock=lambda: now[0], fetch=fetch)

    def outcome():
        try:
            svc_tokens.verify(token, keys, held["issuer"], held["audience"], now=held["now"])
            return "valid"
        except svc_tokens.TokenError as error:
            return error.reason

    problems = []
    # Fetched first at 0 without the token's key: refused, and no second fetch within 30 s.
    for at, expected, count in ((0, "unknown-key", 1), (29, "unknown-key", 1), (30, "valid", 2), (31, "valid", 2)):
        now[0] = at
        got = outcome()
        if got != expected or len(fetches) != count:
            problems.append(f"at {at} s expected {expected} after {count} fetch(es), got {got} after {len(fetches)}")
    return problems


def main():
    parser = argparse.ArgumentParser(description="A vendor backend for the svc platform, standard library only.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="receive webhooks, answer the app's GET /api/whoami")
    run.add_argument("--env", required=True, help="the file svc dev --backend-env writes")
    run.add_argument("--port", type=int, default=8000)
    card = commands.add_parser("post-card", help="post a card through the server API")
    card.add_argument("--env", required=True)
    card.add_argument("--room", required=True)
    card.add_argument("--user", required=True, help="the app user id (the sub of the person's token)")
    card.add_argument("--title", required=True)
    card.add_argument("--body", default="")
    check = commands.add_parser("vectors", help="check the signing against the test vectors")
    check.add_argument("file")
    check_tokens = commands.add_parser("tokens", help="check the token verification against the test vectors")
    check_tokens.add_argument("file")
    args = parser.parse_args()
    if args.command == "serve":
        return serve(args)
    return {"post-card": post_card, "vectors": vectors, "tokens": tokens}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
