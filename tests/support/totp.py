"""The code an authenticator app shows (RFC 6238: HMAC-SHA1, 6 digits, 30
seconds), computed in the tests from the secret the site shows, as a phone
would."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time

PERIOD = 30


def period(at: float | None = None) -> int:
    """The number of the 30-second step at ``at`` (now by default)."""
    return int(time.time() if at is None else at) // PERIOD


def totp_code(secret: str, at: float | None = None) -> str:
    key = base64.b32decode(secret.replace(" ", "").upper())
    digest = hmac.new(key, struct.pack(">Q", period(at)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"
