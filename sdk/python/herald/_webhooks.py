"""Verification of event webhooks (Standard Webhooks, https://www.standardwebhooks.com)."""

import base64
import binascii
import hashlib
import hmac
import time
from typing import Any, Mapping, Optional, Union

from ._errors import HeraldError

#: How far webhook-timestamp may be from now, in seconds.
DEFAULT_TOLERANCE = 300


class WebhookVerificationError(HeraldError):
    """The webhook is not authentic: a header is missing, the timestamp is too old or too
    new, or no signature matches. Answer such a request with 400 or 401 and ignore it."""


def _header(headers: Any, name: str) -> Optional[str]:
    get = getattr(headers, "get", None)
    if get is not None:
        v = get(name)
        if v is None:
            v = get(name.title())
        if v is not None:
            return str(v)
    if hasattr(headers, "items"):
        for k, v in headers.items():
            if str(k).lower() == name:
                return str(v)
    return None


def _secret_bytes(secret: Union[str, bytes]) -> bytes:
    if isinstance(secret, bytes):
        return secret
    if secret.startswith("whsec_"):
        try:
            return base64.b64decode(secret[len("whsec_"):], validate=True)
        except (binascii.Error, ValueError) as e:
            raise ValueError("herald: the webhook secret is not whsec_<base64>") from e
    return secret.encode("utf-8")


def sign_webhook(secret: Union[str, bytes], msg_id: str, timestamp: int, body: bytes) -> str:
    """The webhook-signature value ("v1,<base64>") of a message: HMAC-SHA256 with the
    secret's key over "<id>.<timestamp>.<body>". Useful to test a receiver."""
    signed = msg_id.encode("utf-8") + b"." + str(int(timestamp)).encode("ascii") + b"." + body
    mac = hmac.new(_secret_bytes(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode("ascii")


def verify_webhook(secret: Union[str, bytes], headers: Mapping[str, str], body: Union[bytes, str], *,
                   tolerance: float = DEFAULT_TOLERANCE, now: Optional[float] = None) -> None:
    """Check that an event webhook comes from Herald, or raise WebhookVerificationError.

    secret is the endpoint's signing secret ("whsec_<base64>", as the console shows it; raw
    bytes are used as the key as they are). headers are the request's headers (any mapping;
    webhook-id, webhook-timestamp and webhook-signature are looked up case-insensitively)
    and body the raw request body, before any JSON parsing. The timestamp must be within
    tolerance seconds (5 minutes) of now; webhook-signature may list several space-separated
    signatures (during a secret rotation): one matching v1 signature is enough. Signatures
    are compared in constant time.
    """
    msg_id = _header(headers, "webhook-id")
    ts = _header(headers, "webhook-timestamp")
    sigs = _header(headers, "webhook-signature")
    if not msg_id or not ts or not sigs:
        raise WebhookVerificationError("herald: webhook-id, webhook-timestamp or webhook-signature is missing")
    try:
        t = int(ts.strip())
    except ValueError:
        raise WebhookVerificationError("herald: webhook-timestamp is not a number of seconds") from None
    current = time.time() if now is None else now
    if abs(current - t) > tolerance:
        raise WebhookVerificationError("herald: webhook-timestamp is outside the %gs tolerance" % tolerance)
    if isinstance(body, str):
        body = body.encode("utf-8")
    want = sign_webhook(secret, msg_id, t, body).split(",", 1)[1].encode("ascii")
    for sig in sigs.split():
        version, _, value = sig.partition(",")
        if version == "v1" and hmac.compare_digest(value.encode("ascii", "replace"), want):
            return
    raise WebhookVerificationError("herald: no webhook signature matches")
