"""The site's Ed25519 key, which signs every published ``replay.json``.

``REPLAY_SIGNING_KEY`` (64 hex digits: the 32-byte private seed;
``python -c "import secrets; print(secrets.token_hex(32))"``) when set; else a
key derived from ``SECRET_KEY`` (HKDF-SHA256 with its own label, so neither
reveals the other). The public half is published at ``/fair-play/key.json``
and on every replay page; ``python -m games.engine.verify --key <hex>``
checks a file against it (docs/fair-play.md)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from games.verifier import sign_replay

DERIVATION_LABEL = b"dominoes replay signing key v1"


@lru_cache(maxsize=4)
def _key_from(configured: str, secret_key: str) -> Ed25519PrivateKey:
    if configured:
        try:
            seed = bytes.fromhex(configured.strip())
        except ValueError:
            seed = b""
        if len(seed) != 32:
            raise ImproperlyConfigured("REPLAY_SIGNING_KEY must be 64 hex digits (32 random bytes).")
    else:
        seed = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=DERIVATION_LABEL).derive(
            secret_key.encode()
        )
    return Ed25519PrivateKey.from_private_bytes(seed)


def private_key() -> Ed25519PrivateKey:
    return _key_from(getattr(settings, "REPLAY_SIGNING_KEY", ""), settings.SECRET_KEY)


def public_key_hex() -> str:
    return private_key().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def sign(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the site's signature (games.verifier.sign_replay)."""
    return sign_replay(data, private_key())
