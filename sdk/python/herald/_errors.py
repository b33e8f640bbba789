"""Errors of the Herald client."""

import json
from typing import Any, List, Optional


class HeraldError(Exception):
    """Base class of every error the client raises."""


class ConfigurationError(HeraldError, ValueError):
    """The client is missing a setting (an API key, an absolute base URL, a secret, ...)."""


class KeyFormatError(HeraldError, ValueError):
    """A private key that cannot be read (not PEM, not RSA, encrypted, malformed)."""


class TransportError(HeraldError):
    """The request got no answer: connection refused or reset, a timeout, a broken answer.

    The underlying exception is __cause__. Sends and idempotent calls were retried before
    this was raised.
    """

    def __init__(self, message: str, *, method: str = "", path: str = "") -> None:
        super().__init__(message)
        self.method = method
        self.path = path


class APIError(HeraldError):
    """An answer of the API with a status of 400 or more.

    Subclasses name the common statuses (BadRequestError, AuthenticationError,
    NotFoundError, ConflictError, UnprocessableEntityError, RateLimitError, ServerError);
    catch APIError to handle them all.
    """

    #: HTTP status code.
    status: int
    #: The API's message; for a 400 the problems joined with "; ".
    message: str
    #: Every problem of a 400 answer (the API's message list), one per violated rule.
    problems: List[str]
    #: Set on 5xx answers: look it up in the server's log.
    request_id: Optional[str]
    #: Seconds the API asked to wait on a 429 (Retry-After), None otherwise.
    retry_after: Optional[float]
    #: The raw answer.
    body: bytes

    def __init__(self, status: int, body: bytes = b"", retry_after: Optional[float] = None,
                 method: str = "", path: str = "") -> None:
        self.status = status
        self.body = body
        self.retry_after = retry_after
        self.method = method
        self.path = path
        self.message = ""
        self.problems = []
        self.request_id = None
        env: Any = None
        try:
            env = json.loads(body.decode("utf-8")) if body else None
        except (ValueError, UnicodeDecodeError):
            env = None
        if isinstance(env, dict):
            rid = env.get("requestId")
            if isinstance(rid, str) and rid:
                self.request_id = rid
            msg = env.get("message")
            if isinstance(msg, list):
                self.problems = [str(m) for m in msg]
                self.message = "; ".join(self.problems)
            elif isinstance(msg, str):
                self.message = msg
        super().__init__(str(self))

    @property
    def temporary(self) -> bool:
        """Whether the request may succeed when retried (429 and 5xx)."""
        return self.status == 429 or self.status >= 500

    def __str__(self) -> str:
        msg = self.message or self.body.decode("utf-8", "replace").strip()
        where = ("%s %s: " % (self.method, self.path)) if self.method else ""
        if self.request_id:
            return "herald: %s%d %s (request id %s)" % (where, self.status, msg, self.request_id)
        return "herald: %s%d %s" % (where, self.status, msg)

    def __repr__(self) -> str:
        return "%s(status=%d, message=%r, problems=%r, request_id=%r)" % (
            type(self).__name__, self.status, self.message, self.problems, self.request_id)


class BadRequestError(APIError):
    """400: the request is invalid; problems lists every violated rule and nothing changed."""


class AuthenticationError(APIError):
    """401: credentials are missing or wrong (in secure mode: no valid user JWT)."""


class PermissionDeniedError(APIError):
    """403: the credentials may not do this."""


class NotFoundError(APIError):
    """404: the resource does not exist, or is not the caller's."""


class ConflictError(APIError):
    """409: an identifier already used."""


class UnprocessableEntityError(APIError):
    """422: e.g. a workflow that does not exist, or an Idempotency-Key reused with another body."""


class RateLimitError(APIError):
    """429: the app's send rate or quota is used up; retry_after says when to try again."""


class ServerError(APIError):
    """5xx: a server fault; request_id names it in the server's log."""


_BY_STATUS = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def api_error(status: int, body: bytes, retry_after: Optional[float] = None,
              method: str = "", path: str = "") -> APIError:
    """The APIError subclass for status."""
    cls = _BY_STATUS.get(status, ServerError if status >= 500 else APIError)
    return cls(status, body, retry_after, method, path)
