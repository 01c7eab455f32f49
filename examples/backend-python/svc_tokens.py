"""Verifying the token a mini app sends its backend, in Python's standard library only.

The rules, in the order svc-sdk/server applies them (docs/backend.md, "Verifying the app's token"): three base64url
parts; the issuer; the header's alg among the allowed ones (never none, never HMAC); the realm key of the token's kid,
fitting that alg (on an unknown kid the key set is fetched again, at most every 30 s); the signature; the claims
(exp, sub, iss, aud required; aud exactly the audience; exp and nbf with 5 s of tolerance; scope a string; act naming
its agent). Signatures: ES256 (P-256), EdDSA (Ed25519), RS256 and PS256, with pow() and hashlib.
"""

import base64
import hashlib
import json
import re
import threading
import time
import urllib.request

ALGORITHMS = ("RS256", "PS256", "ES256", "EdDSA")
CLOCK_TOLERANCE = 5
REFETCH_COOLDOWN = 30
CACHE_MAX_AGE = 600

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


class TokenError(Exception):
    """A token was refused. ``reason`` uses svc-sdk/server's names; the message never holds the token."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def b64url_decode(text):
    """Strict base64url without padding: base64.urlsafe_b64decode alone would skip '+', '/' and other characters."""
    if not isinstance(text, str) or not _BASE64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _json_object(part):
    try:
        value = json.loads(b64url_decode(part).decode("utf-8"))
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# P-256 (FIPS 186-4, D.1.2.3), affine coordinates; None is the point at infinity.
_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)


def _p256_add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and (a[1] + b[1]) % _P == 0:
        return None
    if a == b:
        slope = (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, _P) % _P
    else:
        slope = (b[1] - a[1]) * pow(b[0] - a[0], -1, _P) % _P
    x = (slope * slope - a[0] - b[0]) % _P
    return (x, (slope * (a[0] - x) - a[1]) % _P)


def _multiply(k, point, add, identity):
    # Double and add, for either curve: k times the point, `identity` its zero.
    result = identity
    while k:
        if k & 1:
            result = add(result, point)
        point = add(point, point)
        k >>= 1
    return result


def _p256_multiply(k, point):
    return _multiply(k, point, _p256_add, None)


def _verify_es256(jwk, data, signature):
    # The JWS form of an ECDSA signature is r and s, 32 bytes each (RFC 7518, section 3.4), not DER.
    if len(signature) != 64:
        return False
    q = (int.from_bytes(b64url_decode(jwk["x"]), "big"), int.from_bytes(b64url_decode(jwk["y"]), "big"))
    if not (q[0] < _P and q[1] < _P and (q[1] ** 2 - q[0] ** 3 + 3 * q[0] - _B) % _P == 0):
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if not (0 < r < _N and 0 < s < _N):
        return False
    z = int.from_bytes(hashlib.sha256(data).digest(), "big")
    w = pow(s, -1, _N)
    point = _p256_add(_p256_multiply(z * w % _N, _G), _p256_multiply(r * w % _N, q))
    return point is not None and point[0] % _N == r


# Ed25519 (RFC 8032, section 5.1), extended coordinates (X, Y, Z, T).
_EP = 2**255 - 19
_ED = -121665 * pow(121666, -1, _EP) % _EP
_EL = 2**252 + 27742317777372353535851937790883648493
_EB = (
    15112221349535400772501151409588531511454012693041857206046113283949847762202,
    46316835694926478169428394003475163141307993866256225615783033603165251855960,
    1,
    15112221349535400772501151409588531511454012693041857206046113283949847762202
    * 46316835694926478169428394003475163141307993866256225615783033603165251855960
    % _EP,
)


def _ed_add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa, bb = (y1 - x1) * (y2 - x2) % _EP, (y1 + x1) * (y2 + x2) % _EP
    cc, dd = 2 * _ED * t1 * t2 % _EP, 2 * z1 * z2 % _EP
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % _EP, g * h % _EP, f * g % _EP, e * h % _EP)


def _ed_multiply(k, point):
    return _multiply(k, point, _ed_add, (0, 1, 1, 0))


def _ed_decode(data):
    """The point of a 32-byte encoding, or None when it is none."""
    y = int.from_bytes(data, "little") & (2**255 - 1)
    sign = data[31] >> 7
    if y >= _EP:
        return None
    x2 = (y * y - 1) * pow(_ED * y * y + 1, -1, _EP) % _EP
    x = pow(x2, (_EP + 3) // 8, _EP)
    if (x * x - x2) % _EP:
        x = x * pow(2, (_EP - 1) // 4, _EP) % _EP
    if (x * x - x2) % _EP or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = _EP - x
    return (x, y, 1, x * y % _EP)


def _ed_encode(point):
    z = pow(point[2], -1, _EP)
    x, y = point[0] * z % _EP, point[1] * z % _EP
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _verify_eddsa(jwk, data, signature):
    if jwk.get("crv") != "Ed25519" or len(signature) != 64:
        return False
    public = b64url_decode(jwk["x"])
    a = _ed_decode(public) if len(public) == 32 else None
    s = int.from_bytes(signature[32:], "little")
    if a is None or s >= _EL:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + data).digest(), "little") % _EL
    minus_a = ((_EP - a[0]) % _EP, a[1], a[2], (_EP - a[3]) % _EP)
    # [S]B - [h]A, encoded, must be R byte for byte (as OpenSSL checks it).
    return _ed_encode(_ed_add(_ed_multiply(s, _EB), _ed_multiply(h, minus_a))) == signature[:32]


# The DER prefix of a SHA-256 DigestInfo (RFC 8017, section 9.2, note 1).
_SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


def _rsa_open(jwk, signature):
    """The RSA public operation on ``signature`` with the key ``jwk``: ``(modulus bits, bytes)``, or None when the key is
    under 2048 bits, or the signature is not the modulus's length or not below it (RFC 8017, sections 5.2.2, 8.1.2)."""
    n = int.from_bytes(b64url_decode(jwk["n"]), "big")
    e = int.from_bytes(b64url_decode(jwk["e"]), "big")
    size = (n.bit_length() + 7) // 8
    if n.bit_length() < 2048 or len(signature) != size or int.from_bytes(signature, "big") >= n:
        return None
    return n.bit_length(), pow(int.from_bytes(signature, "big"), e, n).to_bytes(size, "big")


def _verify_rs256(jwk, data, signature):
    opened = _rsa_open(jwk, signature)
    if opened is None:
        return False
    encoded = opened[1]
    digest = _SHA256_DIGEST_INFO + hashlib.sha256(data).digest()
    return encoded == b"\x00\x01" + b"\xff" * (len(encoded) - len(digest) - 3) + b"\x00" + digest


def _mgf1(seed, length):
    """MGF1 with SHA-256 (RFC 8017, appendix B.2.1)."""
    out = b"".join(hashlib.sha256(seed + i.to_bytes(4, "big")).digest() for i in range((length + 31) // 32))
    return out[:length]


def _verify_ps256(jwk, data, signature):
    # RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt (RFC 8017, section 9.1.2; RFC 7518, section 3.5).
    opened = _rsa_open(jwk, signature)
    if opened is None:
        return False
    bits, em = opened
    em_bits = bits - 1
    em_len = (em_bits + 7) // 8
    if len(em) > em_len and em[0] != 0:
        return False
    em = em[-em_len:]
    masked, h = em[: em_len - 33], em[em_len - 33 : -1]
    top = 8 * em_len - em_bits  # the leftmost bits, which must be zero
    if em[-1] != 0xBC or masked[0] >> (8 - top):
        return False
    db = bytearray(a ^ b for a, b in zip(masked, _mgf1(h, len(masked))))
    db[0] &= 0xFF >> top
    padding = em_len - 32 - 32 - 2
    if any(db[:padding]) or db[padding] != 1:
        return False
    salt = bytes(db[padding + 1 :])
    return hashlib.sha256(b"\x00" * 8 + hashlib.sha256(data).digest() + salt).digest() == h


_VERIFY = {"ES256": _verify_es256, "EdDSA": _verify_eddsa, "RS256": _verify_rs256, "PS256": _verify_ps256}
_KEY_TYPE = {"ES256": ("EC", "P-256"), "EdDSA": ("OKP", "Ed25519"), "RS256": ("RSA", None), "PS256": ("RSA", None)}


def _fits(jwk, alg, kid):
    """Whether ``jwk`` may verify a token of ``alg`` and ``kid``: the key decides the algorithm, never the token alone."""
    kty, crv = _KEY_TYPE[alg]
    return (
        isinstance(jwk, dict)
        and jwk.get("kty") == kty
        and (crv is None or jwk.get("crv") == crv)
        and (kid is None or jwk.get("kid") == kid)
        and jwk.get("alg", alg) == alg
        and jwk.get("use", "sig") == "sig"
    )


class KeySet:
    """The realm's keys from ``jwks_uri``: cached for 10 minutes, fetched again at most every 30 s on an unknown kid."""

    def __init__(self, jwks_uri=None, keys=None, clock=time.monotonic, fetch=None):
        """``keys`` alone: a fixed set, never fetched. ``fetch`` and ``clock`` replace the HTTP fetch and the clock."""
        self.jwks_uri = jwks_uri
        self.keys = keys
        self.clock = clock
        self.fetch = fetch or self._fetch_over_http
        self.fetched_at = None if keys is None else clock()
        self.lock = threading.Lock()

    def _fetch_over_http(self):
        with urllib.request.urlopen(self.jwks_uri, timeout=5) as response:
            return json.load(response)["keys"]

    def _fetch(self):
        try:
            keys = self.fetch()
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise TokenError("keys-unavailable", f"the realm keys at {self.jwks_uri} could not be fetched.") from error
        self.keys, self.fetched_at = keys, self.clock()

    def find(self, alg, kid):
        with self.lock:
            if self.keys is None or (self.jwks_uri and self.clock() - self.fetched_at > CACHE_MAX_AGE):
                self._fetch()
            found = [k for k in self.keys if _fits(k, alg, kid)]
            # The realm may have rotated its keys since they were fetched: once, never for every made-up kid.
            if not found and self.jwks_uri and self.clock() - self.fetched_at >= REFETCH_COOLDOWN:
                self._fetch()
                found = [k for k in self.keys if _fits(k, alg, kid)]
        if len(found) != 1:
            raise TokenError("unknown-key", "no key of the realm matches the token's kid and alg.")
        return found[0]


def _number(claims, name):
    value = claims.get(name)
    # bool is an int in Python, and no date.
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise TokenError("invalid-claim", f"the token's '{name}' claim is not a number.")
    return value


def verify(token, keys, issuer, audience, now=None, tolerance=CLOCK_TOLERANCE):
    """Verifies ``token`` against ``keys`` (a KeySet); returns ``{"sub", "scopes", "actor"?}`` or raises TokenError."""
    parts = token.split(".") if isinstance(token, str) else []
    if len(parts) != 3:
        raise TokenError("malformed", "the token is not a JWT (three dot-separated parts).")
    # The issuer first, unverified: a token of another realm would otherwise fail as an unknown key, hiding why.
    unverified = _json_object(parts[1])
    if unverified and isinstance(unverified.get("iss"), str) and unverified["iss"] != issuer:
        raise TokenError("wrong-issuer", f"the token was issued by {unverified['iss']}, not by {issuer}.")
    header = _json_object(parts[0])
    if header is None or "crit" in header or not isinstance(header.get("alg"), str) or not header["alg"]:
        raise TokenError("malformed", "the token's header is not a JSON object with an alg.")
    if header["alg"] not in ALGORITHMS:
        raise TokenError("algorithm-not-allowed", f"the algorithm {header['alg']!r} is not allowed.")
    kid = header.get("kid")
    jwk = keys.find(header["alg"], kid if isinstance(kid, str) else None)
    try:
        signature = b64url_decode(parts[2])
    except ValueError:
        raise TokenError("malformed", "the token's signature is not base64url.") from None
    if not _VERIFY[header["alg"]](jwk, f"{parts[0]}.{parts[1]}".encode("ascii"), signature):
        raise TokenError("bad-signature", "the token signature does not verify against the realm keys.")
    claims = _json_object(parts[1])
    if claims is None:
        raise TokenError("malformed", "the token's claims are not a JSON object.")
    for name in ("exp", "sub", "iss", "aud"):
        if name not in claims:
            raise TokenError("missing-claim", f"the token has no '{name}' claim.")
    if claims["iss"] != issuer:
        raise TokenError("wrong-issuer", "the token was issued by another issuer than this realm.")
    # Exactly the audience: an array naming other backends too is refused.
    if claims["aud"] != audience and claims["aud"] != [audience]:
        raise TokenError("wrong-audience", f"the token is for {json.dumps(claims['aud'])}, not for {audience!r}.")
    now = int(time.time()) if now is None else now
    _number(claims, "iat")
    nbf = _number(claims, "nbf")
    if nbf is not None and nbf > now + tolerance:
        raise TokenError("invalid-claim", "the token is not valid yet (nbf).")
    exp = _number(claims, "exp")
    if exp <= now - tolerance:
        raise TokenError("expired", "the token has expired: the app calls svc.auth.getToken() before each use.")
    sub, scope, act = claims["sub"], claims.get("scope"), claims.get("act")
    if not isinstance(sub, str) or not sub:
        raise TokenError("invalid-claim", "the token's 'sub' claim is not a string.")
    if scope is not None and not isinstance(scope, str):
        raise TokenError("invalid-claim", "the token's 'scope' claim is not a string of space-separated scopes.")
    if act is not None and not (isinstance(act, dict) and isinstance(act.get("sub"), str) and act["sub"]):
        raise TokenError("invalid-claim", "the token's 'act' claim names no agent (act.sub).")
    # Split on spaces only, as the scope claim is defined (RFC 8693, section 4.2).
    identity = {"sub": sub, "scopes": [s for s in (scope or "").split(" ") if s]}
    if act is not None:
        identity["actor"] = {"sub": act["sub"]}
    return identity
