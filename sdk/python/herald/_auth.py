"""User tokens for secure mode and the deprecated HMAC user signature."""

import base64
import hashlib
import hmac
import json
import time
from typing import Optional, Union

from ._rsa import RSAPrivateKey, parse_private_key


def _b64url(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode("ascii")


def _json64(o: object) -> str:
    return _b64url(json.dumps(o, separators=(",", ":")).encode("utf-8"))


def sign_user_token(key: Union[RSAPrivateKey, str, bytes], api_key: str, user_identifier: str,
                    ttl: float = 600, *, now: Optional[float] = None) -> str:
    """Sign a user JWT for secure mode.

    RS256 with the app's private key (the key generated in the console; a PEM string or a
    parsed RSAPrivateKey), subject the user identifier, the apiKey claim naming the app,
    iat and exp = now + ttl seconds. Herald refuses tokens without exp unless the app allows
    long-lived tokens, so ttl must be positive; keep it short (minutes) and sign anew.
    """
    if not isinstance(key, RSAPrivateKey):
        key = parse_private_key(key)
    if not user_identifier:
        raise ValueError("herald: a user token needs a user identifier")
    if ttl <= 0:
        raise ValueError("herald: a user token needs a positive lifetime (exp)")
    t = int(time.time() if now is None else now)
    header = {"alg": "RS256", "typ": "JWT"}
    claims = {"sub": user_identifier, "iat": t, "exp": t + int(ttl)}
    if api_key:
        claims["apiKey"] = api_key
    signing = _json64(header) + "." + _json64(claims)
    return signing + "." + _b64url(key.sign_rs256(signing.encode("ascii")))


def user_signature(api_secret: str, user_identifier: str) -> str:
    """The deprecated HMAC user signature (...USER-SIGNATURE header) for apps that turn HMAC
    authentication on: base64(HMAC-SHA256(API secret, user identifier)). Prefer secure mode
    (sign_user_token)."""
    mac = hmac.new(api_secret.encode("utf-8"), user_identifier.encode("utf-8"), hashlib.sha256)
    return base64.b64encode(mac.digest()).decode("ascii")
