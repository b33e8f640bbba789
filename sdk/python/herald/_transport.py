"""The HTTP layer: a request, an answer, and the default transport on urllib."""

import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional, cast

def quote_segment(segment: str) -> str:
    """Escape one path segment (user identifiers may hold slashes)."""
    return urllib.parse.quote(str(segment), safe="")


#: Answers larger than this are refused (bytes).
MAX_BODY = 32 << 20


@dataclass
class Request:
    """One attempt of an API call, as a transport sees it."""

    method: str
    url: str
    headers: Dict[str, str]
    body: Optional[bytes] = None
    #: Seconds this attempt may take (connect and each read).
    timeout: float = 30.0


@dataclass
class Response:
    """The answer of one attempt."""

    status: int
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> Optional[str]:
        """A header's value, case-insensitively."""
        get = getattr(self.headers, "get", None)
        if get is not None:
            v = get(name)
            if v is not None:
                return str(v)
        low = name.lower()
        for k, v in self.headers.items():
            if k.lower() == low:
                return str(v)
        return None


#: A transport sends one request and returns its answer, whatever the status. It raises
#: OSError (urllib.error.URLError, ConnectionError, TimeoutError, ...) or
#: http.client.HTTPException when no answer came; the client retries those.
Transport = Callable[[Request], Response]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are answers, not followed: credentials never travel to another host."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> Optional[urllib.request.Request]:
        return None


class UrllibTransport:
    """The default transport: urllib.request, standard library only.

    Pass an OpenerDirector (urllib.request.build_opener(...)) for proxies, TLS contexts or
    other handlers; redirects are never followed unless that opener follows them.
    """

    def __init__(self, opener: Optional[urllib.request.OpenerDirector] = None) -> None:
        self.opener = opener or urllib.request.build_opener(_NoRedirect())

    def __call__(self, req: Request) -> Response:
        r = urllib.request.Request(req.url, data=req.body, headers=req.headers, method=req.method)
        try:
            with self.opener.open(r, timeout=req.timeout) as res:
                return Response(res.status, res.headers, _read(res))
        except urllib.error.HTTPError as e:
            # 4xx and 5xx arrive as HTTPError; they are answers.
            try:
                body = _read(e)
            finally:
                e.close()
            return Response(e.code, cast(Mapping[str, str], e.headers or {}), body)


def _read(res: Any) -> bytes:
    body: bytes = res.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        raise OSError("herald: the answer is larger than %d bytes" % MAX_BODY)
    return body
