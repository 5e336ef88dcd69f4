"""Retrying a call that cmem asked to be repeated (429, or 503 with Retry-After).

Kept apart from the transport in client.py: the gateway's rate limiter
refuses with 429 and a Retry-After of whole seconds (at least 1) before the
handler runs, so the same request can be sent again once the wait is over.
A 503 is repeated only when it carries Retry-After, the server's word that
the request may be repeated.
"""

from __future__ import annotations

import email.utils
import random
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Optional

DEFAULT_RETRIES = 6
DEFAULT_MAX_RETRY_WAIT = 30.0
_BASE = 0.25


def retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds a Retry-After header asks for (delay-seconds or an HTTP date), or None."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(min(int(value), 86400))
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def retry_wait(e: urllib.error.HTTPError) -> Optional[float]:
    """The wait before repeating the request e answered, or None: not to be repeated."""
    after = retry_after(e.headers.get("Retry-After") if e.headers else None)
    if e.code == 429:
        return after or 0.0
    if e.code == 503 and after is not None:
        return after
    return None


def backoff(attempt: int, asked: float) -> float:
    """At least what the server asked and the exponential back-off, plus up to a quarter more at random."""
    d = max(asked, _BASE * (2 ** min(attempt, 10)))
    return d + random.uniform(0, d / 4)


def urlopen_retrying(req: urllib.request.Request, timeout: float, retries: int = DEFAULT_RETRIES,
                     max_wait: float = DEFAULT_MAX_RETRY_WAIT, sleep: Callable[[float], Any] = time.sleep) -> Any:
    """urllib.request.urlopen, repeating a 429 (or a 503 with Retry-After) up to retries times.

    The last refusal is raised as the HTTPError it is; so is one asking for
    more than max_wait seconds, at once. timeout bounds each attempt.
    """
    attempt = 0
    while True:
        try:
            return urllib.request.urlopen(req, timeout=timeout)
        except urllib.error.HTTPError as e:
            wait = retry_wait(e)
            if wait is None or attempt >= retries or wait > max_wait:
                raise
            e.close()
            sleep(min(backoff(attempt, wait), max_wait))
            attempt += 1
