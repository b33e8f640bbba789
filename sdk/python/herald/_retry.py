"""Retry policy: capped exponential backoff with jitter, and Retry-After."""

import email.utils
import random
import time
import uuid
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class RetryPolicy:
    """How failed attempts are retried.

    Retry n (from 0) waits a random time in [d/2, d], d = min(base_delay * 2**n,
    max_delay), or the server's Retry-After when longer, up to max_retry_after (a longer
    Retry-After raises the 429 at once). RetryPolicy(max_retries=0) turns retries off.
    """

    #: How many times a request is retried after its first attempt.
    max_retries: int = 3
    #: Seconds before the first retry (before jitter).
    base_delay: float = 0.25
    #: Cap of the exponential wait, in seconds.
    max_delay: float = 5.0
    #: The longest Retry-After honoured, in seconds.
    max_retry_after: float = 60.0

    def backoff(self, attempt: int) -> float:
        """The jittered wait in seconds before retry attempt+1."""
        d = self.base_delay * (2 ** min(attempt, 32))
        if self.max_delay > 0:
            d = min(d, self.max_delay)
        if d <= 0:
            return 0.0
        return random.uniform(d / 2, d)


#: The policy of a new client: 3 retries from 250 ms, capped at 5 s.
DEFAULT_RETRY = RetryPolicy()


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(int(value))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    wait = when.timestamp() - (time.time() if now is None else now)
    return wait if wait > 0 else None


def new_idempotency_key() -> str:
    """A random UUID (version 4)."""
    return str(uuid.uuid4())
