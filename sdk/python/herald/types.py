"""The schema types of the developer API, generated from api/v3/openapi.json (see _types.py).

    from herald.types import SendRequest, Notification
"""

from ._types import *  # noqa: F401,F403
from ._types import __all__  # noqa: F401
