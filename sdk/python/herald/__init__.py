"""Herald's official Python client for the developer API (/v3).

    import herald

    client = herald.Client()  # HERALD_URL, HERALD_API_KEY, HERALD_API_SECRET
    res = client.send({"title": "Welcome"}, recipients=["alice"])
    for n in client.as_user("alice").notifications():
        print(n["id"], n["title"])

Standard library only. Schema types (herald.types) are generated from api/v3/openapi.json.
"""

from . import types
from ._auth import sign_user_token, user_signature
from ._client import DEFAULT_HEADER_PREFIX, Client, Recipient, __version__
from ._errors import (APIError, AuthenticationError, BadRequestError, ConfigurationError, ConflictError,
                      HeraldError, KeyFormatError, NotFoundError, PermissionDeniedError, RateLimitError,
                      ServerError, TransportError, UnprocessableEntityError)
from ._pages import iterate_pages
from ._retry import DEFAULT_RETRY, RetryPolicy
from ._rsa import RSAPrivateKey, parse_private_key
from ._transport import Request, Response, Transport, UrllibTransport
from ._user import FILTERS, UserClient
from ._webhooks import DEFAULT_TOLERANCE, WebhookVerificationError, sign_webhook, verify_webhook

__all__ = [
    "APIError",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ConfigurationError",
    "ConflictError",
    "DEFAULT_HEADER_PREFIX",
    "DEFAULT_RETRY",
    "DEFAULT_TOLERANCE",
    "FILTERS",
    "HeraldError",
    "KeyFormatError",
    "NotFoundError",
    "PermissionDeniedError",
    "RSAPrivateKey",
    "RateLimitError",
    "Recipient",
    "Request",
    "Response",
    "RetryPolicy",
    "ServerError",
    "Transport",
    "TransportError",
    "UnprocessableEntityError",
    "UrllibTransport",
    "UserClient",
    "WebhookVerificationError",
    "__version__",
    "iterate_pages",
    "parse_private_key",
    "sign_user_token",
    "sign_webhook",
    "types",
    "user_signature",
    "verify_webhook",
]
