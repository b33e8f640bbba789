"""Acting on one user's behalf (user mode)."""

from datetime import datetime
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ._auth import sign_user_token
from ._errors import ConfigurationError
from ._pages import iterate_pages
from ._transport import quote_segment
from ._types import (BulkResult, Category, ChannelSwitches, Connection, ConnectRequestDeviceType,
                     Deleted, FlowPreference, FlowPreferenceUpdateWorkflowsItem, InAppTranslations,
                     JsonPatchItem, Notification, NotificationPage, Preference,
                     PreferenceUpdatePreferenceItem, Profile, PushSubscription, QuietHours,
                     QuietHoursUpdate, QuietHoursUpdateDaysItem, RealtimeToken, Snoozed,
                     WebPushSubscription)

if TYPE_CHECKING:
    from ._client import Client

#: The filter values of the inbox list.
FILTERS = ("unread", "read", "seen", "unseen", "interacted")


class UserClient:
    """Calls on one user's behalf: inbox, profile, preferences, categories and device
    connect. It sends the API key and the user id, and in secure mode a user JWT; never the
    API secret. Get one from Client.as_user()."""

    def __init__(self, client: "Client", identifier: str, *, token: Optional[str] = None,
                 signature: Optional[str] = None, device_id: Optional[str] = None) -> None:
        if not identifier:
            raise ConfigurationError("herald: as_user needs a user identifier")
        self.client = client
        self.identifier = identifier
        self.token = token
        self.signature = signature
        self.device_id = device_id

    def __repr__(self) -> str:
        return "herald.UserClient(%r)" % self.identifier

    def _headers(self) -> Dict[str, str]:
        c = self.client
        p = c.header_prefix
        h = {p + "API-KEY": c.api_key, p + "USER-ID": self.identifier}
        tok = self.token
        if not tok and c.signing_key is not None:
            tok = sign_user_token(c.signing_key, c.api_key, self.identifier, c.token_ttl)
        if tok:
            h["Authorization"] = "Bearer " + tok
        if self.signature:
            h[p + "USER-SIGNATURE"] = self.signature
        if self.device_id:
            h[p + "DEVICE-ID"] = self.device_id
        return h

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        return self.client._request(method, path, headers=self._headers(), **kw)

    # -- the inbox ---------------------------------------------------------------------

    def list_notifications(self, *, page_no: Optional[int] = None, limit: Optional[int] = None,
                           filter: Optional[str] = None, category: Optional[str] = None) -> NotificationPage:
        """One page of the inbox, newest first (GET /v3/notifications): page_no from 1,
        limit up to 20 (default 10), filter one of FILTERS, category an identifier. The
        answer has data, unreadCount and pagination.totalCount."""
        q = {"pageNo": page_no, "limit": limit, "filter": filter, "category": category}
        return cast(NotificationPage, self._call("GET", "/notifications", query=q))

    def notifications(self, *, limit: int = 20, filter: Optional[str] = None,
                      category: Optional[str] = None, page_no: int = 1) -> Iterator[Notification]:
        """Every notification of the inbox that the filters select, page after page from
        page_no, limit per page (20, the most, by default); pages are fetched as the
        iteration reaches them."""
        limit = limit if limit > 0 else 20
        page_no = page_no if page_no > 0 else 1

        def fetch(i: int) -> Tuple[List[Notification], bool]:
            n = page_no + i
            p = self.list_notifications(page_no=n, limit=limit, filter=filter, category=category)
            data = p.get("data") or []
            seen = (n - 1) * limit + len(data)
            pagination = p.get("pagination")
            total = pagination.get("totalCount") if pagination else None
            more = len(data) == limit and (total is None or seen < total)
            return data, more

        return iterate_pages(fetch)

    def notification(self, notification_id: int) -> Notification:
        """One notification (GET /v3/notifications/{id}; marks it seen)."""
        return cast(Notification, self._call("GET", "/notifications/%d" % notification_id))

    def _mark(self, method: str, notification_id: int, suffix: str, body: Any = None) -> Notification:
        return cast(Notification, self._call(method, "/notifications/%d%s" % (notification_id, suffix),
                                             body=body, idempotent=True))

    def mark_seen(self, notification_id: int) -> Notification:
        """Mark a notification seen."""
        return self._mark("POST", notification_id, "/views")

    def mark_unseen(self, notification_id: int) -> Notification:
        """Mark a notification unseen."""
        return self._mark("DELETE", notification_id, "/views")

    def mark_read(self, notification_id: int) -> Notification:
        """Mark a notification read."""
        return self._mark("POST", notification_id, "/reads")

    def mark_unread(self, notification_id: int) -> Notification:
        """Mark a notification unread."""
        return self._mark("DELETE", notification_id, "/reads")

    def click(self, notification_id: int) -> Notification:
        """Record a click on a notification."""
        return self._mark("POST", notification_id, "/click")

    def set_state(self, notification_id: int, state: str) -> Notification:
        """Set a notification's free-form state (seen, read and clicked also set their times)."""
        return self._mark("PUT", notification_id, "/state", {"state": state})

    def snooze(self, notification_id: int, until: Union[datetime, str]) -> Snoozed:
        """Snooze a notification until a time (an aware datetime or an RFC 3339 string): it
        leaves the list and the counts and comes back unread then."""
        when = until if isinstance(until, str) else until.isoformat()
        return cast(Snoozed, self._call("PUT", "/notifications/%d/snooze" % notification_id,
                                        body={"until": when}, idempotent=True))

    def unsnooze(self, notification_id: int) -> Notification:
        """Bring a snoozed notification back now, unread."""
        return self._mark("DELETE", notification_id, "/snooze")

    def delete_notification(self, notification_id: int) -> Deleted:
        """Remove a notification from the inbox (deleting it again succeeds)."""
        return cast(Deleted, self._call("DELETE", "/notifications/%d" % notification_id))

    def _bulk(self, what: str, page: Optional[int] = None, limit: Optional[int] = None) -> BulkResult:
        return cast(BulkResult, self._call("POST", "/notifications/" + what,
                                           query={"page": page, "limit": limit}, idempotent=True))

    def mark_all_seen(self, *, page: Optional[int] = None, limit: Optional[int] = None) -> BulkResult:
        """Mark every notification seen, or one page of the list (page and limit)."""
        return self._bulk("markAllNotificationsAsSeen", page, limit)

    def mark_all_read(self, *, page: Optional[int] = None, limit: Optional[int] = None) -> BulkResult:
        """Mark every notification read, or one page of the list (page and limit)."""
        return self._bulk("markAllNotificationsAsRead", page, limit)

    def delete_all(self) -> BulkResult:
        """Remove every notification of the user."""
        return self._bulk("markAllNotificationsAsDeleted")

    # -- profile and preferences -------------------------------------------------------

    def profile(self) -> Profile:
        """The user's profile (GET /v3/profile)."""
        return cast(Profile, self._call("GET", "/profile"))

    def update_profile(self, fields: Optional[Mapping[str, Any]] = None, **more: Any) -> Profile:
        """Set these profile keys, keeping the others (PUT /v3/profile)."""
        body = dict(fields or {})
        body.update(more)
        return cast(Profile, self._call("PUT", "/profile", body=body))

    def patch_profile(self, operations: Sequence[JsonPatchItem]) -> Profile:
        """Apply RFC 6902 operations to the profile, all or none (PATCH /v3/profile)."""
        return cast(Profile, self._call("PATCH", "/profile", body=[dict(op) for op in operations]))

    def merge_profile(self, patch: Mapping[str, Any]) -> Profile:
        """Apply an RFC 7386 merge patch: each key replaces the profile's, None removes it,
        a dict merges (PATCH /v3/profile)."""
        return cast(Profile, self._call("PATCH", "/profile", body=dict(patch)))

    def preferences(self) -> List[Preference]:
        """The user's channel switches per category (GET /v3/preferences)."""
        return cast(List[Preference], self._call("GET", "/preferences"))

    def update_preferences(self, preference: Sequence[PreferenceUpdatePreferenceItem]) -> None:
        """Turn channels on or off per category (PATCH /v3/preferences):
        [{"categoryId": 3, "channels": [{"channel": "email", "enabled": False}]}]."""
        self._call("PATCH", "/preferences", body={"preference": [dict(p) for p in preference]}, idempotent=True)

    def channel_preferences(self) -> ChannelSwitches:
        """The user's switch per channel as a whole (GET /v3/preferences/channels)."""
        return cast(ChannelSwitches, self._call("GET", "/preferences/channels"))

    def set_channel_preferences(self, switches: Optional[ChannelSwitches] = None, **channels: bool) -> ChannelSwitches:
        """Turn whole channels on or off, e.g. set_channel_preferences(sms=False); channels
        not named keep their switch (PUT /v3/preferences/channels). Answers every switch."""
        body: Dict[str, Any] = dict(switches or {})
        body.update(channels)
        return cast(ChannelSwitches, self._call("PUT", "/preferences/channels", body=body))

    def quiet_hours(self) -> QuietHours:
        """The user's quiet hours and time zone (GET /v3/preferences/quiet-hours)."""
        return cast(QuietHours, self._call("GET", "/preferences/quiet-hours"))

    def set_quiet_hours(self, *, start: Optional[str] = None, end: Optional[str] = None,
                        days: Optional[Sequence[QuietHoursUpdateDaysItem]] = None, timezone: Optional[str] = None,
                        enabled: Optional[bool] = None) -> QuietHours:
        """Set the user's quiet hours, e.g. set_quiet_hours(start="22:00", end="07:00",
        days=["saturday", "sunday"], timezone="Europe/Paris"), or remove them with
        set_quiet_hours(enabled=False) (PUT /v3/preferences/quiet-hours). Non-critical email,
        SMS and push inside them wait until they end."""
        body: Dict[str, Any] = {}
        for key, value in (("start", start), ("end", end), ("timezone", timezone), ("enabled", enabled)):
            if value is not None:
                body[key] = value
        if days is not None:
            body["days"] = list(days)
        return cast(QuietHours, self._call("PUT", "/preferences/quiet-hours", body=cast(QuietHoursUpdate, body), idempotent=True))

    def workflow_preferences(self) -> List[FlowPreference]:
        """The user's switches per published workflow (GET /v3/preferences/workflows)."""
        return cast(List[FlowPreference], self._call("GET", "/preferences/workflows"))

    def update_workflow_preferences(self, workflows: Sequence[FlowPreferenceUpdateWorkflowsItem]) -> List[FlowPreference]:
        """Set some switches per workflow (PATCH /v3/preferences/workflows):
        [{"identifier": "billing-reminder", "enabled": False, "channels": {"sms": False}}]."""
        return cast(List[FlowPreference], self._call("PATCH", "/preferences/workflows",
                                                     body={"workflows": [dict(w) for w in workflows]},
                                                     idempotent=True))

    def categories(self) -> List[Category]:
        """The app's categories (GET /v3/categories)."""
        return cast(List[Category], self._call("GET", "/categories"))

    def translations(self, *, locale: Optional[str] = None) -> InAppTranslations:
        """The inbox UI strings for locale (default: the profile's locale)."""
        return cast(InAppTranslations, self._call("GET", "/translations/inapp", query={"locale": locale}))

    # -- devices and realtime ----------------------------------------------------------

    def connect_device(self, device_type: ConnectRequestDeviceType = "browser") -> Connection:
        """Connect the user's device (POST /v3/sdk/connect; needs as_user(device_id=...)):
        the unread count and the app's channels and categories."""
        if not self.device_id:
            raise ConfigurationError("herald: connect_device needs as_user(..., device_id=...)")
        return cast(Connection, self._call("POST", "/sdk/connect", body={"deviceType": device_type},
                                           idempotent=True))

    def realtime_token(self) -> RealtimeToken:
        """A short-lived token for the realtime endpoint (POST /v3/sdk/realtimeTokenRequests)."""
        return cast(RealtimeToken, self._call("POST", "/sdk/realtimeTokenRequests"))

    def save_web_push_subscription(self, device_id: str, subscription: PushSubscription) -> WebPushSubscription:
        """Store the browser's PushSubscription.toJSON() for a connected device
        (POST /v3/devices/{deviceId}/webPushSubscription)."""
        return cast(WebPushSubscription, self._call("POST", "/devices/%s/webPushSubscription" % quote_segment(device_id),
                                                    body=dict(subscription), idempotent=True))
