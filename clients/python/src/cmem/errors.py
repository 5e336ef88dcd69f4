"""Errors of the cmem API, one exception class per status the API documents."""

from typing import Any, Dict, Optional


class CmemError(Exception):
    """An answer of cmem other than success: status, code and message as the API gave them."""

    def __init__(self, status: int, code: str, message: str, correlation_id: Optional[str] = None,
                 index: Optional[int] = None) -> None:
        super().__init__(f"{message} ({status} {code})" + (f" [correlation id {correlation_id}]" if correlation_id else ""))
        self.status = status
        self.code = code
        self.message = message
        self.correlation_id = correlation_id
        self.index = index  # the refused item of a batch


class BadRequest(CmemError):
    """400: the request was malformed or invalid; nothing was stored."""


class Unauthenticated(CmemError):
    """401: no or an unknown token."""


class Forbidden(CmemError):
    """403: the caller may not do this (e.g. use an agent it was not granted)."""


class RefusedByPolicy(Forbidden):
    """403 refused_by_policy: a block policy refused the write."""


class NotFound(CmemError):
    """404: an id is unknown."""


class Conflict(CmemError):
    """409: the id already exists."""


class Unavailable(CmemError):
    """503: a projection did not reach the needed revision in time; retry.

    Also raised, with status 0 and code "unreachable", when cmem could not
    be reached at all (connection refused or reset, timeout)."""


def unreachable(url: str, err: BaseException) -> "Unavailable":
    """The Unavailable for a failure to reach cmem at url."""
    reason = getattr(err, "reason", err)
    return Unavailable(0, "unreachable", f"cannot reach cmem at {url}: {reason}")


class ServerError(CmemError):
    """5xx other than 503: see the server log for the correlation id."""


_BY_STATUS: Dict[int, type] = {400: BadRequest, 401: Unauthenticated, 403: Forbidden, 404: NotFound, 409: Conflict, 503: Unavailable}


def from_answer(status: int, body: Any, correlation_id: Optional[str]) -> CmemError:
    """The exception for an error answer (body is the decoded JSON, or None)."""
    code, message, index = "", "", None
    if isinstance(body, dict):
        code, message = str(body.get("code", "")), str(body.get("error", ""))
        if isinstance(body.get("index"), int):
            index = body["index"]
    if not message:
        message = f"HTTP {status}"
    if code == "refused_by_policy":
        cls: type = RefusedByPolicy
    else:
        cls = _BY_STATUS.get(status, ServerError if status >= 500 else CmemError)
    return cls(status, code, message, correlation_id, index)
