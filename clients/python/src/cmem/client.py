"""The cmem API as a sync Client and an asyncio AsyncClient (stdlib only)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, List, Optional, cast

from .errors import from_answer
from .retry import DEFAULT_MAX_RETRY_WAIT, DEFAULT_RETRIES, urlopen_retrying
from .types import Access, Created, GraphMemory, Policy, Query, UserCreated, View, Written

DEFAULT_URL = "http://127.0.0.1:8080"


class Client:
    """Calls one cmem as the owner of token (a user's, or the admin token).

    Every command answers with the log revision it was stored at; the client
    remembers the highest one in last_revision. With read_your_writes=True
    (the default) reads pass it as min_revision, so a read after a write sees
    the write; pass min_revision explicitly to override.
    """

    def __init__(self, url: str = DEFAULT_URL, token: str = "", *, timeout: float = 90.0, read_your_writes: bool = True,
                 retries: int = DEFAULT_RETRIES, max_retry_wait: float = DEFAULT_MAX_RETRY_WAIT) -> None:
        self.retries = retries  # a 429 (or 503 with Retry-After) is repeated this often, see retry.py
        self.max_retry_wait = max_retry_wait
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.read_your_writes = read_your_writes
        self.last_revision = 0

    # --- transport -------------------------------------------------------

    def _call(self, method: str, path: str, body: Any = None, query: Optional[Dict[str, Any]] = None) -> Any:
        status, answer = self._call_status(method, path, body, query)
        return answer

    def _call_status(self, method: str, path: str, body: Any = None, query: Optional[Dict[str, Any]] = None) -> tuple:
        if query:
            q = {k: v for k, v in query.items() if v is not None and v != ""}
            if q:
                path += "?" + urllib.parse.urlencode(q)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urlopen_retrying(req, self.timeout, self.retries, self.max_retry_wait) as resp:
                status, raw = resp.status, resp.read()
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                decoded = json.loads(raw)
            except ValueError:
                decoded = None
            raise from_answer(e.code, decoded, e.headers.get("X-Correlation-Id")) from None
        answer = json.loads(raw) if raw else None
        if isinstance(answer, dict) and isinstance(answer.get("revision"), int) and method != "GET":
            self.last_revision = max(self.last_revision, answer["revision"])
        return status, answer

    def _min(self, min_revision: Optional[int]) -> Optional[int]:
        if min_revision is not None:
            return min_revision
        return self.last_revision if self.read_your_writes and self.last_revision else None

    @staticmethod
    def _seg(s: str) -> str:
        return urllib.parse.quote(s, safe="")

    # --- admin -------------------------------------------------------------

    def health(self) -> bool:
        """True when cmem answers /healthz."""
        return self._call("GET", "/healthz").get("status") == "ok"

    def register_user(self, id: str, role: str = "user") -> UserCreated:
        """Register a user; the answer's token is shown only this once."""
        return cast(UserCreated, self._call("POST", "/v1/users", {"id": id, "role": role}))

    def register_agent(self, id: str, description: str = "", system_prompt: str = "") -> Created:
        """Register an agent."""
        return cast(Created, self._call("POST", "/v1/agents", {"id": id, "description": description, "system_prompt": system_prompt}))

    def register_resource(self, id: str, kind: str, description: str = "", **config: Any) -> Created:
        """Register a resource; config is the kind's (documents=[...], url=..., ...)."""
        return cast(Created, self._call("POST", "/v1/resources", {"id": id, "kind": kind, "description": description, **config}))

    def _grant(self, kind: str, a: str, b: str, granted: bool, expires_at: Optional[str], ttl: Optional[str]) -> int:
        body: Optional[Dict[str, str]] = None
        if expires_at and ttl:
            raise ValueError("give expires_at or ttl, not both")
        if expires_at:
            body = {"expires_at": expires_at}
        elif ttl:
            body = {"ttl": ttl}
        path = f"/v1/grants/{kind}/{self._seg(a)}/{self._seg(b)}"
        return int(self._call("PUT" if granted else "DELETE", path, body)["revision"])

    def grant_user_agent(self, user: str, agent: str, *, expires_at: Optional[str] = None, ttl: Optional[str] = None) -> int:
        """Let user invoke agent (until expires_at, RFC 3339, or for ttl, e.g. "8h"); returns the revision."""
        return self._grant("user-agent", user, agent, True, expires_at, ttl)

    def revoke_user_agent(self, user: str, agent: str) -> int:
        """Revoke user's use of agent; returns the revision."""
        return self._grant("user-agent", user, agent, False, None, None)

    def grant_agent_resource(self, agent: str, resource: str, *, expires_at: Optional[str] = None, ttl: Optional[str] = None) -> int:
        """Let agent use resource; returns the revision."""
        return self._grant("agent-resource", agent, resource, True, expires_at, ttl)

    def revoke_agent_resource(self, agent: str, resource: str) -> int:
        """Revoke agent's use of resource; returns the revision."""
        return self._grant("agent-resource", agent, resource, False, None, None)

    def batch(self, items: Iterable[Dict[str, Any]]) -> Dict[str, Any]:
        """Run many commands all or nothing (at most 1000; each a dict with "op": register_user, register_agent,
        register_resource, grant, revoke or write_fragment, and that command's fields). Returns {"items", "revision"};
        a refused item raises the error of its command, with .index naming it, and nothing is stored."""
        return cast(Dict[str, Any], self._call("POST", "/v1/batch", {"items": list(items)}))

    def set_policy(self, target: str, kind: str, *, user: str = "", agent: str = "", config: Optional[Dict[str, Any]] = None,
                   effective_at: Optional[str] = None) -> int:
        """Set a write, read or provenance policy; returns the revision."""
        body: Dict[str, Any] = {"target": target, "kind": kind, "scope": {k: v for k, v in (("user", user), ("agent", agent)) if v}}
        if config is not None:
            body["config"] = config
        if effective_at:
            body["effective_at"] = effective_at
        return int(self._call("POST", "/v1/policies", body)["revision"])

    def policies(self) -> List[Policy]:
        """Every policy set."""
        return cast(List[Policy], self._call("GET", "/v1/policies")["policies"])

    # --- access and memory ---------------------------------------------------

    def access(self, user: str, *, at: Optional[str] = None, revision: Optional[int] = None, min_revision: Optional[int] = None) -> Access:
        """The agents user may use (and their resources) now, at a time or at a revision."""
        q = {"at": at, "revision": revision, "min_revision": self._min(min_revision)}
        return cast(Access, self._call("GET", f"/v1/access/{self._seg(user)}", query=q))

    def write_fragment(self, agent: str, key: str, value: str, *, tier: str = "private", resources: Iterable[str] = (),
                       derived_from: Optional[Iterable[str]] = None) -> Written:
        """Write a memory fragment through agent."""
        body: Dict[str, Any] = {"agent": agent, "key": key, "value": value, "tier": tier, "resources": list(resources)}
        if derived_from is not None:
            body["derived_from"] = list(derived_from)
        return cast(Written, self._call("POST", "/v1/fragments", body))

    def memory_view(self, agent: str, query: str, *, k_user: int = 10, k_cross: int = 10, min_revision: Optional[int] = None,
                    min_score: Optional[float] = None) -> View:
        """The fragments agent may recall for this user, ranked by query (those scoring below min_score left out)."""
        body: Dict[str, Any] = {"agent": agent, "query": query, "k_user": k_user, "k_cross": k_cross, "min_revision": self._min(min_revision) or 0}
        if min_score is not None:
            body["min_score"] = min_score
        return cast(View, self._call("POST", "/v1/memory/view", body))

    def memory_graph(self, agent: str, query: str, *, min_revision: Optional[int] = None) -> GraphMemory:
        """This user's graph memory through agent: similar past queries, their insights and key interactions."""
        body: Dict[str, Any] = {"agent": agent, "query": query, "min_revision": self._min(min_revision) or 0}
        return cast(GraphMemory, self._call("POST", "/v1/memory/graph", body))

    # --- queries ---------------------------------------------------------------

    def submit_query(self, text: str) -> str:
        """Submit a query without waiting; returns its id."""
        return str(self._call("POST", "/v1/queries", {"text": text, "wait": False})["id"])

    def query(self, id: str, *, wait: float = 0) -> Query:
        """A query's state, waiting up to wait seconds for its answer."""
        return cast(Query, self._call("GET", f"/v1/queries/{self._seg(id)}", query={"wait": wait or None}))

    def ask(self, text: str, *, timeout: float = 300.0) -> Query:
        """Submit a query and wait (polling past the server's own wait) until it is answered or failed."""
        deadline = time.monotonic() + timeout
        status, ans = self._call_status("POST", "/v1/queries", {"text": text})
        while status == 202 and time.monotonic() < deadline:
            status, ans = self._call_status("GET", f"/v1/queries/{self._seg(ans['id'])}", query={"wait": min(60, max(1, int(deadline - time.monotonic())))})
        return cast(Query, ans)

    # --- audit -------------------------------------------------------------------

    def audit_visible(self, user: str, agent: str, *, at: Optional[str] = None, min_revision: Optional[int] = None) -> Dict[str, Any]:
        """Fragments admissible to user through agent at a time (default now)."""
        return self._call("GET", "/v1/audit/visible", query={"user": user, "agent": agent, "at": at, "min_revision": self._min(min_revision)})

    def audit_reads(self, fragment: str, *, min_revision: Optional[int] = None) -> List[Dict[str, Any]]:
        """Every read of fragment, admissible or not at its time."""
        return self._call("GET", "/v1/audit/reads", query={"fragment": fragment, "min_revision": self._min(min_revision)})

    def audit_deliveries(self, query: str, *, min_revision: Optional[int] = None) -> List[Dict[str, Any]]:
        """Every delivery of a query's answer and steps to its user, with the audit's verdict."""
        return self._call("GET", "/v1/audit/deliveries", query={"query": query, "min_revision": self._min(min_revision)})

    def audit_violations(self, *, from_: Optional[str] = None, to: Optional[str] = None, min_revision: Optional[int] = None) -> List[Dict[str, Any]]:
        """Every read that was not admissible when served."""
        return self._call("GET", "/v1/audit/violations", query={"from": from_, "to": to, "min_revision": self._min(min_revision)})

    def audit_metrics(self, *, bin: str = "1h", from_: Optional[str] = None, to: Optional[str] = None,
                      min_revision: Optional[int] = None) -> Dict[str, Any]:
        """Per-query, per-user/bin and memory-reuse figures."""
        return self._call("GET", "/v1/audit/metrics", query={"bin": bin, "from": from_, "to": to, "min_revision": self._min(min_revision)})


class AsyncClient:
    """Client for asyncio: every method of Client as a coroutine, run in a worker thread.

    The revision tracking (last_revision, read_your_writes) is the wrapped
    Client's, available as .sync.
    """

    def __init__(self, url: str = DEFAULT_URL, token: str = "", **kwargs: Any) -> None:
        self.sync = Client(url, token, **kwargs)

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self.sync, name)
        if name.startswith("_") or not callable(fn):
            return fn

        async def call(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(fn, *args, **kwargs)

        call.__name__ = name
        call.__doc__ = fn.__doc__
        return call
