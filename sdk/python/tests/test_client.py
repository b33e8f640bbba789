import http.server
import json
import os
import socket
import threading
import unittest
from unittest import mock

import herald
from herald import Request, Response

from .test_rsa import rfc_key_pems


class Fake:
    """A transport answering from a script; records every request."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.requests = []

    def __call__(self, req: Request) -> Response:
        self.requests.append(req)
        a = self.answers.pop(0)
        if isinstance(a, BaseException):
            raise a
        return a


def answer(status, body=None, headers=None):
    raw = b"" if body is None else json.dumps(body).encode()
    return Response(status, headers or {}, raw)


def client(transport, **kw):
    kw.setdefault("base_url", "http://herald.test")
    kw.setdefault("api_key", "key")
    kw.setdefault("api_secret", "secret")
    c = herald.Client(transport=transport, **kw)
    c.sleeps = []
    c._sleep = c.sleeps.append
    return c


ACCEPTED = {"requestId": "6f1c3a52-0000-4000-8000-000000000000"}


class Sends(unittest.TestCase):
    def test_5xx_is_retried_with_one_generated_key(self):
        t = Fake(answer(503, {"status": "error", "message": "busy", "requestId": "r1"}),
                 ConnectionResetError("reset"), answer(202, ACCEPTED))
        c = client(t)
        res = c.send({"title": "Hi"}, recipients=["alice", {"identifier": "bob", "email": "b@example.com"}],
                     topics=["team"], data={"n": 1})
        self.assertEqual(res, ACCEPTED)
        self.assertEqual(len(t.requests), 3)
        keys = {r.headers["Idempotency-Key"] for r in t.requests}
        self.assertEqual(len(keys), 1)
        self.assertRegex(keys.pop(), r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        r = t.requests[0]
        self.assertEqual((r.method, r.url), ("POST", "http://herald.test/v3/notifications"))
        self.assertEqual(json.loads(r.body), {
            "notification": {"title": "Hi"},
            "sendTo": {"recipients": ["alice", {"identifier": "bob", "email": "b@example.com"}], "topics": ["team"]},
            "data": {"n": 1}})
        self.assertEqual(r.headers["X-SERVICE-API-KEY"], "key")
        self.assertEqual(r.headers["X-SERVICE-API-SECRET"], "secret")
        self.assertEqual(len(c.sleeps), 2)
        # Each send has its own key.
        t.answers.append(answer(202, ACCEPTED))
        c.send({"title": "again"}, recipients=["alice"])
        self.assertNotEqual(t.requests[-1].headers["Idempotency-Key"], t.requests[0].headers["Idempotency-Key"])

    def test_the_callers_key_and_every_send_form(self):
        import datetime as dt

        t = Fake(answer(202, ACCEPTED))
        at = dt.datetime(2030, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
        client(t).send({"workflow": {"identifier": "order-shipped", "cancellationKey": "o-1"}},
                       topics=["team"], override={"channels": ["email"]}, send_at=at,
                       idempotency_key="order-1-shipped")
        r = t.requests[0]
        self.assertEqual(r.headers["Idempotency-Key"], "order-1-shipped")
        self.assertEqual(json.loads(r.body), {
            "notification": {"workflow": {"identifier": "order-shipped", "cancellationKey": "o-1"}},
            "sendTo": {"topics": ["team"]}, "override": {"channels": ["email"]},
            "sendAt": "2030-01-02T03:04:05+00:00"})
        with self.assertRaises(ValueError):
            client(Fake()).send({"title": "x"}, recipients=["a"], send_at=dt.datetime(2030, 1, 1))

    def test_400_is_not_retried_and_lists_problems(self):
        t = Fake(answer(400, {"status": "error", "message": ["notification.url: bad", "recipient 0: no identifier"]}))
        with self.assertRaises(herald.BadRequestError) as cm:
            client(t).send({"title": "x"}, recipients=["a"])
        e = cm.exception
        self.assertIsInstance(e, herald.APIError)
        self.assertEqual(e.status, 400)
        self.assertEqual(e.problems, ["notification.url: bad", "recipient 0: no identifier"])
        self.assertIn("notification.url: bad; recipient 0", str(e))
        self.assertFalse(e.temporary)
        self.assertEqual(len(t.requests), 1)

    def test_429_honours_retry_after(self):
        t = Fake(answer(429, {"status": "error", "message": "slow down"}, {"Retry-After": "2"}), answer(202, ACCEPTED))
        c = client(t)
        c.send({"title": "x"}, recipients=["a"])
        self.assertEqual(len(t.requests), 2)
        self.assertEqual(c.sleeps, [2.0])

    def test_retry_after_beyond_the_limit_raises_the_429(self):
        t = Fake(answer(429, {"status": "error", "message": "quota"}, {"retry-after": "3600"}))
        with self.assertRaises(herald.RateLimitError) as cm:
            client(t).send({"title": "x"}, recipients=["a"])
        self.assertEqual(cm.exception.retry_after, 3600.0)
        self.assertEqual(len(t.requests), 1)

    def test_retries_give_up_after_max_retries(self):
        t = Fake(*[answer(500, {"status": "error", "message": "boom", "requestId": "req-9"})] * 3)
        with self.assertRaises(herald.ServerError) as cm:
            client(t, retry=herald.RetryPolicy(max_retries=2)).send({"title": "x"}, recipients=["a"])
        self.assertEqual(cm.exception.request_id, "req-9")
        self.assertIn("request id req-9", str(cm.exception))
        self.assertEqual(len(t.requests), 3)

    def test_timeouts_are_retried_and_then_raised_as_transport_errors(self):
        t = Fake(socket.timeout("timed out"), TimeoutError("timed out"))
        with self.assertRaises(herald.TransportError) as cm:
            client(t, retry=herald.RetryPolicy(max_retries=1)).send({"title": "x"}, recipients=["a"])
        self.assertIsInstance(cm.exception.__cause__, OSError)
        self.assertEqual(len(t.requests), 2)

    def test_non_idempotent_post_is_not_retried_on_5xx_or_resets(self):
        for a in (answer(502, {"status": "error", "message": "bad gateway"}), ConnectionResetError()):
            t = Fake(a)
            with self.assertRaises(herald.HeraldError):
                client(t).create_topic("weekly", "Weekly")
            self.assertEqual(len(t.requests), 1)
        # But 429 is retried for every call.
        t = Fake(answer(429, {"status": "error", "message": "x"}, {"Retry-After": "1"}), answer(201, {"id": 1}))
        self.assertEqual(client(t).create_topic("weekly", "Weekly"), {"id": 1})

    def test_backoff_is_capped_and_jittered(self):
        p = herald.RetryPolicy(base_delay=1, max_delay=4)
        for attempt, (lo, hi) in enumerate([(0.5, 1), (1, 2), (2, 4), (2, 4), (2, 4)]):
            for _ in range(50):
                w = p.backoff(attempt)
                self.assertTrue(lo <= w <= hi, (attempt, w))
        self.assertEqual(herald.RetryPolicy(base_delay=0).backoff(3), 0)

    def test_retry_after_as_an_http_date(self):
        from herald._retry import parse_retry_after

        self.assertEqual(parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now=1445412500), 10)
        self.assertIsNone(parse_retry_after("garbage"))
        self.assertIsNone(parse_retry_after(None))


class Configuration(unittest.TestCase):
    def test_environment_and_header_prefix(self):
        env = {"HERALD_URL": "https://herald.example.com/v3/", "HERALD_API_KEY": "ek", "HERALD_API_SECRET": "es"}
        with mock.patch.dict(os.environ, env):
            t = Fake(answer(200, []))
            c = herald.Client(transport=t, header_prefix="X-NOTIFIRE-")
            self.assertEqual(c.base_url, "https://herald.example.com")
            c.list_topics()
        r = t.requests[0]
        self.assertEqual(r.url, "https://herald.example.com/v3/topics")
        self.assertEqual(r.headers["X-NOTIFIRE-API-KEY"], "ek")
        self.assertEqual(r.headers["X-NOTIFIRE-API-SECRET"], "es")
        self.assertTrue(r.headers["User-Agent"].startswith("herald-python/"))
        self.assertNotIn("X-SERVICE-API-KEY", r.headers)

    def test_arguments_win_and_missing_settings_fail(self):
        with mock.patch.dict(os.environ, {"HERALD_API_KEY": "ek"}):
            self.assertEqual(herald.Client(api_key="ak").api_key, "ak")
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaises(herald.ConfigurationError):
                herald.Client()
            with self.assertRaises(herald.ConfigurationError):
                herald.Client(api_key="k", base_url="localhost:8080")
            self.assertEqual(herald.Client(api_key="k").base_url, "http://localhost:8080")


class UserMode(unittest.TestCase):
    def test_user_calls_send_no_secret_and_sign_tokens(self):
        pkcs1, _, _, _ = rfc_key_pems()
        t = Fake(answer(200, {"data": [], "unreadCount": 0, "pagination": {"totalCount": 0}}),
                 answer(200, {"unreadCount": 0, "app": {}}))
        c = client(t, signing_key=pkcs1, token_ttl=120)
        u = c.as_user("a/b", device_id="laptop-1", signature="sig")
        u.list_notifications(filter="unread", limit=5)
        u.connect_device("browser")
        r = t.requests[0]
        self.assertEqual(r.url, "http://herald.test/v3/notifications?limit=5&filter=unread")
        self.assertNotIn("X-SERVICE-API-SECRET", r.headers)
        self.assertEqual(r.headers["X-SERVICE-USER-ID"], "a/b")
        self.assertEqual(r.headers["X-SERVICE-DEVICE-ID"], "laptop-1")
        self.assertEqual(r.headers["X-SERVICE-USER-SIGNATURE"], "sig")
        tok = r.headers["Authorization"].split(" ", 1)[1]
        from .test_rsa import b64url_dec

        claims = json.loads(b64url_dec(tok.split(".")[1]))
        self.assertEqual((claims["sub"], claims["apiKey"], claims["exp"] - claims["iat"]), ("a/b", "key", 120))
        self.assertEqual(json.loads(t.requests[1].body), {"deviceType": "browser"})

    def test_a_given_token_is_sent_as_is_and_paths_are_escaped(self):
        t = Fake(answer(200, {"identifier": "a/b"}), answer(200, []))
        c = client(t)
        c.as_user("x", token="tok").preferences()
        self.assertEqual(t.requests[0].headers["Authorization"], "Bearer tok")
        c.list_subscriptions("a/b c")
        self.assertEqual(t.requests[1].url, "http://herald.test/v3/topics/subscriptions/a%2Fb%20c")

    def test_connect_device_needs_a_device_id(self):
        with self.assertRaises(herald.ConfigurationError):
            client(Fake()).as_user("alice").connect_device()

    def test_notifications_walks_every_page(self):
        def page(ids, total):
            return answer(200, {"data": [{"id": i} for i in ids], "unreadCount": 0, "pagination": {"totalCount": total}})

        t = Fake(page(range(1, 21), 45), page(range(21, 41), 45), page(range(41, 46), 45))
        ids = [n["id"] for n in client(t).as_user("alice").notifications()]
        self.assertEqual(ids, list(range(1, 46)))
        self.assertEqual([r.url.split("?")[1] for r in t.requests],
                         ["pageNo=1&limit=20", "pageNo=2&limit=20", "pageNo=3&limit=20"])
        # An exact multiple stops on the total, without an empty page.
        t = Fake(page(range(1, 21), 20))
        self.assertEqual(len(list(client(t).as_user("alice").notifications())), 20)
        self.assertEqual(len(t.requests), 1)

    def test_iterate_pages_is_lazy_and_raises_errors(self):
        calls = []

        def fetch(n):
            calls.append(n)
            if n == 2:
                raise herald.TransportError("boom")
            return [n * 10, n * 10 + 1], True

        it = herald.iterate_pages(fetch)
        self.assertEqual(next(it), 0)
        self.assertEqual(calls, [0])
        with self.assertRaises(herald.TransportError):
            list(it)
        self.assertEqual(calls, [0, 1, 2])


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        if self.path.startswith("/v3/topics"):
            body = json.dumps([{"id": 1, "identifier": "t", "name": "T"}]).encode()
            self.send_response(200)
        elif self.path.startswith("/v3/redirect"):
            self.send_response(302)
            self.send_header("Location", "http://169.254.169.254/")
            body = b""
        else:
            body = json.dumps({"status": "error", "message": "not found"}).encode()
            self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class UrllibTransportTest(unittest.TestCase):
    """The default transport against a local HTTP server: answers of every status are
    answers (not exceptions), and redirects are not followed."""

    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.url = "http://127.0.0.1:%d" % cls.server.server_address[1]

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def test_statuses(self):
        c = herald.Client(base_url=self.url, api_key="k")
        self.assertEqual(c.list_topics()[0]["identifier"], "t")
        with self.assertRaises(herald.NotFoundError):
            c._request("GET", "/nothing", headers={})
        with self.assertRaises(herald.APIError) as cm:
            c._request("GET", "/redirect", headers={})
        self.assertEqual(cm.exception.status, 302)

    def test_connection_refused_is_a_transport_error(self):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        c = herald.Client(base_url="http://127.0.0.1:%d" % port, api_key="k", retry=herald.RetryPolicy(max_retries=0))
        with self.assertRaises(herald.TransportError):
            c.list_topics()


if __name__ == "__main__":
    unittest.main()
