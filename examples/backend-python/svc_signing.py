"""The platform's request signing, in Python's standard library only.

Signing base: the bytes of ``v0:<timestamp>:`` followed by the raw body bytes. Signature: ``v0=`` + lowercase hex of
HMAC-SHA256 of the base, keyed with the signing secret. Verification: refuse a timestamp more than 300 s from now
(either way), and, for a receiver serving one mini app, another app's X-Svc-Mini-App; then compare in constant time. During a secret rotation the backend holds both secrets; the header
always carries exactly one signature.
"""

import hashlib
import hmac
import re
import time

REPLAY_WINDOW_SECONDS = 300

TIMESTAMP_HEADER = "X-Svc-Request-Timestamp"
SIGNATURE_HEADER = "X-Svc-Signature"
MINI_APP_HEADER = "X-Svc-Mini-App"

# [0-9], not \d (which takes any Unicode digit), and fullmatch, not $ (which takes a final newline).
_TIMESTAMP = re.compile(r"[0-9]{1,15}")
_SIGNATURE = re.compile(r"v0=[0-9a-f]{64}")


class SignatureError(Exception):
    """A signature check failed. ``reason`` uses svc-sdk/server's names; the message never holds a secret."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def sign(secret, timestamp, body):
    """The ``X-Svc-Signature`` value for ``body`` (bytes) at ``timestamp`` (int seconds, or the header's text)."""
    base = b"v0:" + str(timestamp).encode("ascii") + b":" + body
    return "v0=" + hmac.new(secret.encode("utf-8"), base, hashlib.sha256).hexdigest()


def signed_headers(secret, mini_app_id, body, timestamp=None):
    """The four headers of a signed server API request (or webhook)."""
    timestamp = int(time.time()) if timestamp is None else timestamp
    return {
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: sign(secret, timestamp, body),
        MINI_APP_HEADER: mini_app_id,
        "Content-Type": "application/json",
    }


def _header(headers, name):
    # Header names are case-insensitive: http.server's message object already is, a plain dict is not.
    if hasattr(headers, "get_all"):
        return headers.get(name)
    for key, value in headers.items():
        if key.lower() == name.lower():
            return value
    return None


def verify(headers, body, secrets, now=None, tolerance=REPLAY_WINDOW_SECONDS, mini_app_id=None):
    """Verifies a signed request against the exact ``body`` bytes with any of ``secrets``; returns the timestamp.

    With ``mini_app_id``, the request's ``X-Svc-Mini-App`` must name that mini app. Raises SignatureError naming the
    reason: missing-header, malformed-header, stale-timestamp, future-timestamp, wrong-mini-app, malformed-signature,
    bad-signature or no-secret.
    """
    secrets = [s for s in secrets if s]
    if not secrets:
        raise SignatureError("no-secret", "no signing secret configured: set SVC_SIGNING_SECRET.")
    stamp = _header(headers, TIMESTAMP_HEADER)
    signature = _header(headers, SIGNATURE_HEADER)
    for name, value in ((TIMESTAMP_HEADER, stamp), (SIGNATURE_HEADER, signature)):
        if not value:
            raise SignatureError("missing-header", f"the {name} header is missing: the request is not signed.")
    if not _TIMESTAMP.fullmatch(stamp):
        raise SignatureError(
            "malformed-header", f"{TIMESTAMP_HEADER} must be whole seconds since the Unix epoch: 1 to 15 decimal digits."
        )
    now = int(time.time()) if now is None else now
    skew = int(stamp) - now
    if skew < -tolerance:
        raise SignatureError("stale-timestamp", f"the timestamp is {-skew} s old, more than {tolerance} s.")
    if skew > tolerance:
        raise SignatureError("future-timestamp", f"the timestamp is {skew} s ahead, more than {tolerance} s.")
    if mini_app_id is not None:
        app = _header(headers, MINI_APP_HEADER)
        if not app:
            raise SignatureError("missing-header", f"the {MINI_APP_HEADER} header is missing.")
        if app != mini_app_id:
            raise SignatureError("wrong-mini-app", f"{MINI_APP_HEADER} names another mini app than this one.")
    if not _SIGNATURE.fullmatch(signature):
        raise SignatureError(
            "malformed-signature", f"{SIGNATURE_HEADER} must be exactly 'v0=' and 64 lowercase hex digits."
        )
    for secret in secrets:
        # compare_digest runs in constant time for inputs of equal length, which the pattern above ensures.
        if hmac.compare_digest(sign(secret, stamp, body), signature):
            return int(stamp)
    raise SignatureError(
        "bad-signature",
        f"the signature matches none of the {len(secrets)} configured secret(s): check the secret, and verify the "
        "raw body before any JSON parsing.",
    )
