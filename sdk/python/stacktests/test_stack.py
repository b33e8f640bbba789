"""The Python SDK against a real Herald stack.

integration/sdk (TestPythonSDK, in `make test`) starts the stack and runs this module with
the environment below; run alone, every test is skipped. Every request of the SDK goes
through a proxy that checks it against the OpenAPI document.
"""

import datetime as dt
import json
import os
import threading
import time
import unittest
import uuid
from typing import Callable, List

import herald

ENV = os.environ.get
STACK = ENV("HERALD_TEST_STACK") == "1"
RESULTS: dict = {"tokens": {}}


def tearDownModule():  # noqa: N802
    if STACK and ENV("HERALD_TEST_RESULTS"):
        with open(ENV("HERALD_TEST_RESULTS"), "w") as f:
            json.dump(RESULTS, f)


def eventually(what: str, cond: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.2)


class Counting:
    """A transport that records the status of every attempt (0 for no answer)."""

    def __init__(self) -> None:
        self.inner = herald.UrllibTransport()
        self.statuses: List[int] = []
        self.lock = threading.Lock()

    def __call__(self, req: herald.Request) -> herald.Response:
        try:
            res = self.inner(req)
        except Exception:
            with self.lock:
                self.statuses.append(0)
            raise
        with self.lock:
            self.statuses.append(res.status)
        return res


def read(path: str) -> str:
    with open(path) as f:
        return f.read()


@unittest.skipUnless(STACK, "needs a stack: run by integration/sdk TestPythonSDK")
class Stack(unittest.TestCase):
    def setUp(self) -> None:
        # HERALD_URL, HERALD_API_KEY and HERALD_API_SECRET come from the environment.
        self.c = herald.Client()

    def inbox(self, user: herald.UserClient) -> list:
        return user.list_notifications()["data"]

    def test_send_reaches_the_inbox(self):
        cat = self.c.create_category("onboarding", "Onboarding")
        self.assertGreater(cat["id"], 0)
        res = self.c.send({"title": "Welcome", "message": "Hello", "category": "onboarding"},
                          recipients=["alice", {"identifier": "bob", "email": "bob@example.com", "name": "Bob"}],
                          data={"orderId": 42})
        uuid.UUID(res["requestId"])
        bob = self.c.as_user("bob")
        eventually("the notification in bob's inbox", lambda: len(self.inbox(bob)) == 1)
        page = bob.list_notifications()
        n = page["data"][0]
        self.assertEqual((n["title"], n["message"], n["data"], n["category"]["identifier"], page["unreadCount"]),
                         ("Welcome", "Hello", {"orderId": 42}, "onboarding", 1))
        eventually("the notification in alice's inbox", lambda: len(self.inbox(self.c.as_user("alice"))) == 1)

        # State changes on bob's behalf.
        self.assertIsNotNone(bob.mark_read(n["id"])["readAt"])
        unread = bob.list_notifications(filter="unread")
        self.assertEqual((unread["data"], unread["unreadCount"]), ([], 0))
        self.assertIsNone(bob.mark_unread(n["id"]).get("readAt"))
        self.assertIsNotNone(bob.mark_seen(n["id"])["seenAt"])
        self.assertIsNotNone(bob.click(n["id"])["clickedAt"])
        self.assertEqual(bob.set_state(n["id"], "archived")["state"], "archived")
        self.assertEqual(bob.notification(n["id"])["id"], n["id"])
        self.assertEqual(bob.mark_all_read()["unreadCount"], 0)
        bob.delete_notification(n["id"])
        with self.assertRaises(herald.NotFoundError):
            bob.notification(n["id"])
        self.assertEqual(bob.delete_all()["count"], 0)

    def test_profile_preferences_and_device(self):
        self.c.put_user("frank", {"name": "Frank"}, plan="free")
        self.c.create_category("billing", "Billing")
        frank = self.c.as_user("frank", device_id="laptop-1")
        self.assertEqual(frank.update_profile(plan="pro"), {"name": "Frank", "plan": "pro"})
        self.assertEqual(frank.merge_profile({"plan": None, "tz": "UTC"}), {"name": "Frank", "tz": "UTC"})
        self.assertEqual(frank.patch_profile([{"op": "replace", "path": "/tz", "value": "CET"}])["tz"], "CET")
        with self.assertRaises(herald.BadRequestError):
            frank.patch_profile([{"op": "test", "path": "/tz", "value": "UTC"}])
        self.assertEqual(frank.profile()["tz"], "CET")

        prefs = frank.preferences()
        billing = next(p for p in prefs if p["category"]["identifier"] == "billing")
        frank.update_preferences([{"categoryId": billing["category"]["id"],
                                   "channels": [{"channel": "inApp", "enabled": False}]}])
        billing = next(p for p in frank.preferences() if p["category"]["identifier"] == "billing")
        self.assertIn({"channel": "inApp", "enabled": False}, billing["channelPreferences"])
        self.assertFalse(frank.set_channel_preferences(sms=False)["sms"])
        self.assertFalse(frank.channel_preferences()["sms"])
        self.assertEqual(frank.workflow_preferences(), [])
        self.assertIn("billing", [c["identifier"] for c in frank.categories()])
        self.assertIn("translations", frank.translations(locale="en"))

        conn = frank.connect_device("browser")
        self.assertIn("billing", [c["identifier"] for c in conn["app"]["categories"]])
        self.assertIsInstance(frank.realtime_token(), dict)

    def test_users_topics_and_subscriptions(self):
        user = self.c.create_user("gina", profile={"name": "Gina"})
        self.assertEqual(user["profile"], {"name": "Gina"})
        # Creating it again merges the profile.
        self.assertEqual(self.c.create_user("gina", profile={"plan": "pro"})["profile"], {"name": "Gina", "plan": "pro"})
        topic = self.c.create_topic("team", "Team")
        self.assertIn("team", [t["identifier"] for t in self.c.list_topics()])
        self.assertEqual(self.c.subscribe(topic["id"], ["gina", {"identifier": "hank", "channels": ["inApp"]}]), 2)
        self.assertEqual(self.c.update_subscription(topic["id"], "gina", ["inApp"])["channels"], ["inApp"])
        self.assertEqual([s["topic"]["identifier"] for s in self.c.list_subscriptions("gina")], ["team"])
        self.assertEqual(self.c.rename_topic(topic["id"], "The team")["name"], "The team")

        self.c.send({"title": "To the team"}, topics=["team"])
        for who in ("gina", "hank"):
            u = self.c.as_user(who)
            eventually("the topic send in %s's inbox" % who, lambda: len(self.inbox(u)) == 1)

        self.assertEqual(self.c.unsubscribe(topic["id"], ["hank"]), 1)
        self.assertEqual(self.c.list_subscriptions("hank"), [])
        self.c.delete_topic(topic["id"])
        self.c.delete_user("gina")
        with self.assertRaises(herald.NotFoundError):
            self.c.delete_user("gina")

    def test_scheduled_send_schedules_and_cancel(self):
        later = dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)
        res = self.c.send({"title": "Later"}, recipients=["ivan"], send_at=later)
        uuid.UUID(res["requestId"])
        self.assertEqual(self.c.cancel_workflow_runs("no-such-key", recipients=["ivan"]), {"cancelled": 0, "failed": 0})
        self.assertEqual(self.c.list_schedules(), [])
        with self.assertRaises(herald.APIError) as cm:  # no such workflow in the app
            self.c.create_schedule("no-such-workflow", "@daily", topics=["team"])
        self.assertIn(cm.exception.status, (400, 404, 422))
        with self.assertRaises(herald.UnprocessableEntityError):
            self.c.send({"workflow": {"identifier": "no-such-workflow"}}, recipients=["ivan"])

    def test_openapi_document(self):
        doc = self.c.openapi()
        self.assertIn("/notifications", doc["paths"])

    def test_idempotent_retry_after_a_connection_reset(self):
        # The proxy lets the first request reach the server and answers it with a TCP reset.
        via_reset = herald.Client(base_url=ENV("HERALD_TEST_RESET_URL"))
        res = via_reset.send({"title": "Once"}, recipients=["carol"])
        RESULTS["resetSendRequestId"] = res["requestId"]
        # A later send is a marker: once it is there, the first was delivered too, and any
        # duplicate would be beside it.
        self.c.send({"title": "Marker"}, recipients=["carol"])
        carol = self.c.as_user("carol")

        def titles() -> dict:
            m: dict = {}
            for n in carol.notifications():
                m[n["title"]] = m.get(n["title"], 0) + 1
            return m

        eventually("both notifications in carol's inbox", lambda: titles().get("Once", 0) >= 1 and titles().get("Marker") == 1)
        self.assertEqual(titles()["Once"], 1, "carol's inbox: %s" % titles())

    def test_bad_request_lists_problems(self):
        t = Counting()
        c = herald.Client(transport=t)
        with self.assertRaises(herald.BadRequestError) as cm:
            c.send({"title": "x", "url": "javascript:alert(1)"}, recipients=[{"email": "no-identifier@example.com"}])
        e = cm.exception
        self.assertEqual(e.status, 400)
        self.assertGreaterEqual(len(e.problems), 2, e.problems)
        self.assertIn("url", "\n".join(e.problems))
        self.assertEqual(t.statuses, [400], "a 400 is not retried")

    def test_429_is_retried(self):
        t = Counting()
        c = herald.Client(base_url=ENV("HERALD_TEST_LIMITED_URL"), api_key=ENV("HERALD_TEST_LIMITED_API_KEY"),
                          api_secret=ENV("HERALD_TEST_LIMITED_API_SECRET"), transport=t)
        # Send until the limit answers 429 once (a slow machine may space the first sends
        # out); every send must still succeed, the 429 retried after its Retry-After.
        for i in range(5):
            if 429 in t.statuses:
                break
            c.send({"title": "x"}, recipients=["dave"])
        self.assertIn(429, t.statuses)
        self.assertEqual(t.statuses[-1], 202, t.statuses)

    def test_user_token_reads_the_inbox_in_secure_mode(self):
        key, secret = ENV("HERALD_TEST_SECURE_API_KEY"), ENV("HERALD_TEST_SECURE_API_SECRET")
        pem = read(ENV("HERALD_TEST_SECURE_KEY_FILE"))
        c = herald.Client(api_key=key, api_secret=secret)
        c.send({"title": "Secret"}, recipients=["erin"])
        tok = herald.sign_user_token(pem, key, "erin", ttl=300)
        erin = c.as_user("erin", token=tok)
        eventually("the notification in erin's inbox", lambda: len(self.inbox(erin)) == 1)
        # A client with the signing key signs a fresh token per call.
        signing = herald.Client(api_key=key, signing_key=pem, token_ttl=60)
        self.assertEqual(signing.as_user("erin").list_notifications()["data"][0]["title"], "Secret")
        # Without a token, or with one for erin signed by another key, the API refuses.
        with self.assertRaises(herald.AuthenticationError):
            c.as_user("erin").list_notifications()
        forged = herald.sign_user_token(read(ENV("HERALD_TEST_GO_PKCS1_FILE")), key, "erin", ttl=60)
        with self.assertRaises(herald.AuthenticationError):
            c.as_user("erin", token=forged).list_notifications()
        # A token for erin does not read another user's inbox.
        with self.assertRaises(herald.AuthenticationError):
            c.as_user("frida", token=tok).list_notifications()

    def test_hmac_user_signature(self):
        key, secret = ENV("HERALD_TEST_HMAC_API_KEY"), ENV("HERALD_TEST_HMAC_API_SECRET")
        c = herald.Client(api_key=key, api_secret=secret)
        sig = herald.user_signature(secret, "hal")
        self.assertEqual(c.as_user("hal", signature=sig).list_notifications()["data"], [])
        with self.assertRaises(herald.AuthenticationError):
            c.as_user("hal").list_notifications()
        with self.assertRaises(herald.AuthenticationError):
            c.as_user("hal", signature=herald.user_signature(secret, "someone-else")).list_notifications()

    def test_pagination_walks_250(self):
        t = Counting()
        c = herald.Client(transport=t)
        ids = [n["id"] for n in c.as_user("pager").notifications()]
        self.assertEqual(len(ids), 250)
        self.assertEqual(len(set(ids)), 250, "a notification was walked twice")
        self.assertEqual(len(t.statuses), 13, "pages fetched (250 by 20)")

    def test_tokens_for_the_go_verifier(self):
        for form in ("pkcs1", "pkcs8"):
            pem = read(ENV("HERALD_TEST_GO_%s_FILE" % form.upper()))
            RESULTS["tokens"][form] = herald.sign_user_token(pem, "app-key", "go-verifier", ttl=300)


if __name__ == "__main__":
    unittest.main()
