"""The app-mode client."""

import datetime as _dt
import http.client
import json
import os
import time
import urllib.parse
from typing import (Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union,
                    cast)

from ._errors import ConfigurationError, TransportError, api_error
from ._retry import DEFAULT_RETRY, RetryPolicy, new_idempotency_key, parse_retry_after
from ._rsa import RSAPrivateKey, parse_private_key
from ._transport import Request, Transport, UrllibTransport, quote_segment as _quote
from ._types import (Category, Channel, Count, SendAccepted, SendRequest, SendRequestNotification,
                     Subscription, Topic, TopicAttachUsersItem, User,
                     WorkflowCancellation, WorkflowSchedule)

#: The SDK's version, sent in the User-Agent header.
__version__ = "0.1.0"

#: Prefix of the credential headers unless header_prefix says otherwise (the server's
#: HERALD_HEADER_PREFIX).
DEFAULT_HEADER_PREFIX = "X-SERVICE-"

#: A recipient of a send: a user identifier, or an object that creates or updates the user
#: ({"identifier": ..., "email": ..., "phoneNumber": ..., other profile keys}).
Recipient = Union[str, Mapping[str, Any]]

_IDEMPOTENT_METHODS = ("GET", "PUT", "DELETE", "HEAD")


def _time(t: Union[str, _dt.datetime]) -> str:
    if isinstance(t, _dt.datetime):
        if t.tzinfo is None:
            raise ValueError("herald: send_at must be timezone-aware (e.g. datetime.now(timezone.utc))")
        return t.isoformat()
    return t


class Client:
    """Herald's developer API (/v3) with the app's credentials.

    Sends, cancellations, schedules, users, categories, topics and subscriptions in app
    mode; as_user() acts on one user's behalf (inbox, profile, preferences, device connect).

    Every argument has an environment fallback: base_url HERALD_URL (default
    http://localhost:8080), api_key HERALD_API_KEY (required), api_secret HERALD_API_SECRET
    (app-mode calls need it; keep it on the server). A client is safe to share between
    threads.
    """

    def __init__(
        self,
        *,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        api_secret: Optional[str] = None,
        header_prefix: str = DEFAULT_HEADER_PREFIX,
        timeout: float = 30.0,
        retry: RetryPolicy = DEFAULT_RETRY,
        transport: Optional[Transport] = None,
        signing_key: Union[RSAPrivateKey, str, bytes, None] = None,
        token_ttl: float = 60.0,
        user_agent: Optional[str] = None,
    ) -> None:
        """Configure a client.

        header_prefix: prefix of the credential headers (the server's HERALD_HEADER_PREFIX).
        timeout: seconds per attempt. retry: the RetryPolicy (RetryPolicy(max_retries=0)
        turns retries off). transport: a callable taking a herald.Request and returning a
        herald.Response (default UrllibTransport(); pass UrllibTransport(opener) for a
        custom urllib opener). signing_key: the app's private key (PEM or parsed), so that
        as_user() signs a user JWT valid token_ttl seconds for each call (secure mode).
        """
        base = base_url or os.environ.get("HERALD_URL") or "http://localhost:8080"
        base = base.rstrip("/")
        if base.endswith("/v3"):
            base = base[: -len("/v3")]
        u = urllib.parse.urlsplit(base)
        if u.scheme not in ("http", "https") or not u.netloc:
            raise ConfigurationError("herald: base URL %r is not an absolute http(s) URL" % base)
        self.base_url = base
        self.api_key = api_key or os.environ.get("HERALD_API_KEY") or ""
        if not self.api_key:
            raise ConfigurationError("herald: no API key: pass api_key= or set HERALD_API_KEY")
        self.api_secret = api_secret if api_secret is not None else os.environ.get("HERALD_API_SECRET", "")
        self.header_prefix = header_prefix
        self.timeout = timeout
        self.retry = retry
        self.transport: Transport = transport or UrllibTransport()
        if signing_key is not None and not isinstance(signing_key, RSAPrivateKey):
            signing_key = parse_private_key(signing_key)
        self.signing_key: Optional[RSAPrivateKey] = signing_key
        self.token_ttl = token_ttl if token_ttl > 0 else 60.0
        self.user_agent = user_agent or "herald-python/" + __version__
        # Seams for tests.
        self._sleep: Callable[[float], None] = time.sleep
        self._new_key: Callable[[], str] = new_idempotency_key

    def __repr__(self) -> str:
        return "herald.Client(base_url=%r, api_key=%r)" % (self.base_url, self.api_key)

    # -- plumbing ----------------------------------------------------------------------

    def _app_headers(self) -> Dict[str, str]:
        h = {self.header_prefix + "API-KEY": self.api_key}
        if self.api_secret:
            h[self.header_prefix + "API-SECRET"] = self.api_secret
        return h

    def _request(
        self,
        method: str,
        path: str,
        *,
        headers: Mapping[str, str],
        body: Any = None,
        query: Optional[Mapping[str, Any]] = None,
        idempotent: bool = False,
    ) -> Any:
        """Send one call with retries; return its decoded JSON answer (None when empty).

        idempotent: repeating the request cannot change the outcome (a send with its
        Idempotency-Key, a mark), so timeouts, resets and 5xx may be retried; GET, PUT and
        DELETE always are. 429 is retried for every call.
        """
        url = self.base_url + "/v3" + path
        if query:
            q = {k: v for k, v in query.items() if v is not None}
            if q:
                url += "?" + urllib.parse.urlencode(q)
        data = None
        hdrs = dict(headers)
        if body is not None:
            data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            hdrs["Content-Type"] = "application/json"
        hdrs["Accept"] = "application/json"
        hdrs["User-Agent"] = self.user_agent
        idempotent = idempotent or method in _IDEMPOTENT_METHODS
        attempt = 0
        while True:
            req = Request(method=method, url=url, headers=dict(hdrs), body=data, timeout=self.timeout)
            try:
                res = self.transport(req)
            except (OSError, http.client.HTTPException) as e:
                if not idempotent or attempt >= self.retry.max_retries:
                    raise TransportError("herald: %s %s: %s" % (method, path, e), method=method, path=path) from e
                self._sleep(self.retry.backoff(attempt))
                attempt += 1
                continue
            if 200 <= res.status < 300:
                if not res.body.strip():
                    return None
                try:
                    return json.loads(res.body.decode("utf-8"))
                except ValueError as e:
                    raise TransportError("herald: decode the answer of %s %s: %s" % (method, path, e),
                                         method=method, path=path) from e
            err = api_error(res.status, res.body, parse_retry_after(res.header("Retry-After")), method, path)
            retryable = res.status == 429 or (res.status >= 500 and idempotent)
            if not retryable or attempt >= self.retry.max_retries:
                raise err
            wait = self.retry.backoff(attempt)
            if err.retry_after is not None and err.retry_after > wait:
                if err.retry_after > self.retry.max_retry_after:
                    raise err
                wait = err.retry_after
            self._sleep(wait)
            attempt += 1

    def _app(self, method: str, path: str, **kw: Any) -> Any:
        return self._request(method, path, headers=self._app_headers(), **kw)

    # -- sends -------------------------------------------------------------------------

    def send(
        self,
        notification: SendRequestNotification,
        *,
        recipients: Optional[Sequence[Recipient]] = None,
        topics: Optional[Sequence[str]] = None,
        data: Optional[Mapping[str, Any]] = None,
        override: Optional[Mapping[str, Any]] = None,
        send_at: Union[str, _dt.datetime, None] = None,
        idempotency_key: Optional[str] = None,
    ) -> SendAccepted:
        """Send a notification (POST /v3/notifications); return {"requestId": ...}.

        notification: title, message, icon, url, blocks, category, templateIdentifier and
        workflow ({"identifier": ..., "cancellationKey": ...}). recipients: user identifiers
        or objects creating or updating the user; topics: topic identifiers (either or both).
        override: delivery settings for this send (channels, channel.<channel>, provider
        configuration). send_at: a later time (an aware datetime or ISO 8601) schedules it.
        idempotency_key: the same key and body within 24 h answer the same requestId;
        without it one is generated per call and shared by its retries, so timeouts,
        resets, 429 and 5xx are retried without a second delivery.
        """
        req: Dict[str, Any] = {"notification": dict(notification)}
        send_to: Dict[str, Any] = {}
        if recipients is not None:
            send_to["recipients"] = [r if isinstance(r, str) else dict(r) for r in recipients]
        if topics is not None:
            send_to["topics"] = list(topics)
        if send_to:
            req["sendTo"] = send_to
        if data is not None:
            req["data"] = dict(data)
        if override is not None:
            req["override"] = dict(override)
        if send_at is not None:
            req["sendAt"] = _time(send_at)
        return self.send_request(cast(SendRequest, req), idempotency_key=idempotency_key)

    def send_request(self, request: SendRequest, *, idempotency_key: Optional[str] = None) -> SendAccepted:
        """Send a complete SendRequest body as it is (also the deprecated top-level
        recipients and category forms); see send()."""
        h = self._app_headers()
        h["Idempotency-Key"] = idempotency_key or self._new_key()
        return cast(SendAccepted, self._request("POST", "/notifications", headers=h, body=request, idempotent=True))

    def cancel_workflow_runs(self, cancellation_key: str, *,
                             recipients: Optional[Sequence[str]] = None) -> WorkflowCancellation:
        """Cancel the runs of sends made with notification.workflow.cancellationKey, of
        these recipients only when given (POST /v3/workflows/cancel)."""
        body: Dict[str, Any] = {"cancellationKey": cancellation_key}
        if recipients is not None:
            body["recipients"] = list(recipients)
        return cast(WorkflowCancellation, self._app("POST", "/workflows/cancel", body=body, idempotent=True))

    def create_schedule(
        self,
        workflow: str,
        cron: str,
        *,
        recipients: Optional[Sequence[Recipient]] = None,
        topics: Optional[Sequence[str]] = None,
        timezone: Optional[str] = None,
        data: Optional[Mapping[str, Any]] = None,
    ) -> WorkflowSchedule:
        """Create a recurring trigger of a published workflow (POST /v3/workflows/schedules):
        cron has five fields or @daily etc., in timezone (IANA; UTC by default)."""
        send_to: Dict[str, Any] = {}
        if recipients is not None:
            send_to["recipients"] = [r if isinstance(r, str) else dict(r) for r in recipients]
        if topics is not None:
            send_to["topics"] = list(topics)
        body: Dict[str, Any] = {"workflow": workflow, "cron": cron, "sendTo": send_to}
        if timezone is not None:
            body["timezone"] = timezone
        if data is not None:
            body["data"] = dict(data)
        return cast(WorkflowSchedule, self._app("POST", "/workflows/schedules", body=body))

    def list_schedules(self) -> List[WorkflowSchedule]:
        """The app's recurring workflow triggers (GET /v3/workflows/schedules)."""
        return cast(List[WorkflowSchedule], self._app("GET", "/workflows/schedules"))

    def delete_schedule(self, schedule_id: int) -> None:
        """Delete a recurring workflow trigger (DELETE /v3/workflows/schedules/{id})."""
        self._app("DELETE", "/workflows/schedules/%d" % schedule_id)

    # -- users and categories ----------------------------------------------------------

    def create_user(self, identifier: str, *, profile: Optional[Mapping[str, Any]] = None) -> User:
        """Create a user, or merge the profile of an existing one (POST /v3/users)."""
        body: Dict[str, Any] = {"identifier": identifier}
        if profile is not None:
            body["profile"] = dict(profile)
        return cast(User, self._app("POST", "/users", body=body))

    def put_user(self, identifier: str, profile: Optional[Mapping[str, Any]] = None, **fields: Any) -> User:
        """Create the user or merge these keys into its profile (PUT /v3/users/{identifier});
        profile keys come as a mapping, as keyword arguments, or both."""
        body = dict(profile or {})
        body.update(fields)
        return cast(User, self._app("PUT", "/users/" + _quote(identifier), body=body))

    def delete_user(self, identifier: str) -> None:
        """Delete a user with its inbox, preferences, subscriptions and devices."""
        self._app("DELETE", "/users/" + _quote(identifier))

    def _secret_headers(self) -> Dict[str, str]:
        if not self.api_secret:
            raise ConfigurationError("herald: categories need the API secret (api_secret= or HERALD_API_SECRET)")
        h = self._app_headers()
        h[self.header_prefix + "SECRET-KEY"] = self.api_secret
        return h

    def create_category(self, identifier: str, name: str, *, critical: Optional[bool] = None) -> Category:
        """Create a category (POST /v3/categories). Critical categories are delivered
        whatever the recipient's opt-outs."""
        body: Dict[str, Any] = {"identifier": identifier, "name": name}
        if critical is not None:
            body["critical"] = critical
        return cast(Category, self._request("POST", "/categories", headers=self._secret_headers(), body=body))

    def delete_category(self, category_id: int) -> None:
        """Delete a category (DELETE /v3/categories/{id})."""
        self._request("DELETE", "/categories/%d" % category_id, headers=self._secret_headers())

    # -- topics ------------------------------------------------------------------------

    def create_topic(self, identifier: str, name: str) -> Topic:
        """Create a topic (POST /v3/topics)."""
        return cast(Topic, self._app("POST", "/topics", body={"identifier": identifier, "name": name}))

    def list_topics(self) -> List[Topic]:
        """The app's topics (GET /v3/topics)."""
        return cast(List[Topic], self._app("GET", "/topics"))

    def rename_topic(self, topic_id: int, name: str) -> Topic:
        """Rename a topic (PATCH /v3/topics/{id})."""
        return cast(Topic, self._app("PATCH", "/topics/%d" % topic_id, body={"name": name}, idempotent=True))

    def delete_topic(self, topic_id: int) -> None:
        """Delete a topic (DELETE /v3/topics/{id})."""
        self._app("DELETE", "/topics/%d" % topic_id)

    def subscribe(self, topic_id: int, users: Iterable[Union[str, TopicAttachUsersItem]]) -> int:
        """Subscribe users to a topic (POST /v3/topics/{id}/users): identifiers, or
        {"identifier": ..., "channels": [...]}; returns the API's count."""
        items = [{"identifier": u} if isinstance(u, str) else dict(cast(Mapping[str, Any], u)) for u in users]
        out = cast(Count, self._app("POST", "/topics/%d/users" % topic_id, body={"users": items}, idempotent=True))
        return out["count"]

    def unsubscribe(self, topic_id: int, identifiers: Iterable[str]) -> int:
        """Remove users from a topic (POST /v3/topics/{id}/detachUsers); returns the count."""
        out = cast(Count, self._app("POST", "/topics/%d/detachUsers" % topic_id,
                                    body={"users": list(identifiers)}, idempotent=True))
        return out["count"]

    def update_subscription(self, topic_id: int, identifier: str,
                            channels: Sequence[Channel] = ()) -> Subscription:
        """Set the channels of a user's subscription to a topic; none means every channel
        (PUT /v3/topics/{id}/users/{identifier})."""
        return cast(Subscription, self._app("PUT", "/topics/%d/users/%s" % (topic_id, _quote(identifier)),
                                            body={"channels": list(channels)}))

    def list_subscriptions(self, identifier: str) -> List[Subscription]:
        """A user's topic subscriptions (GET /v3/topics/subscriptions/{identifier})."""
        return cast(List[Subscription], self._app("GET", "/topics/subscriptions/" + _quote(identifier)))

    def openapi(self) -> Dict[str, Any]:
        """The developer API's OpenAPI document as the server serves it (GET /v3/openapi.json)."""
        return cast(Dict[str, Any], self._request("GET", "/openapi.json", headers={}))

    # -- acting for a user -------------------------------------------------------------

    def as_user(self, identifier: str, *, token: Optional[str] = None, signature: Optional[str] = None,
                device_id: Optional[str] = None) -> "UserClient":
        """A client acting for the user (user mode): API key and user id, never the secret.

        token: a user JWT (secure mode; see sign_user_token); without one, a client with a
        signing_key signs a fresh token for each call. signature: the deprecated HMAC user
        signature (see user_signature). device_id: needed by connect_device().
        """
        return UserClient(self, identifier, token=token, signature=signature, device_id=device_id)


from ._user import UserClient  # noqa: E402  (UserClient refers back to Client)
