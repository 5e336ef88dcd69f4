"""Typed shapes of the cmem API's answers (contract v1; see GET /openapi.json)."""

from typing import Any, Dict, List, NotRequired, TypedDict


class Created(TypedDict):
    id: str
    revision: int


class UserCreated(TypedDict):
    id: str
    token: str
    revision: int


class AgentAccess(TypedDict):
    id: str
    resources: List[str]


class Access(TypedDict):
    user: str
    revision: int
    agents: List[AgentAccess]


class Fragment(TypedDict):
    id: str
    key: str
    value: str
    tier: str
    user: str
    agents: List[str]
    resources: List[str]
    created_at: str
    revision: int
    score: NotRequired[float]


class Written(TypedDict):
    fragments: List[Fragment]
    revision: int


class View(TypedDict):
    revision: int
    graph_revision: int
    private: List[Fragment]
    shared: List[Fragment]


class Label(TypedDict):
    agents: List[str]
    resources: List[str]
    fragments: NotRequired[List[str]]


class GraphInsight(TypedDict):
    id: str
    role: str
    status: str
    approach: str
    text: str
    supporting: List[str]
    provenance: Label


class GraphQuery(TypedDict):
    id: str
    text: str
    status: str
    stage: NotRequired[str]
    reason: NotRequired[str]
    provenance: Label
    neighbors: List[str]
    score: float


class GraphInteraction(TypedDict):
    id: str
    query: str
    round: int
    agent: str
    kind: str
    text: str
    provenance: Label


class GraphMemory(TypedDict):
    revision: int
    graph_revision: int
    insights: List[GraphInsight]
    queries: List[GraphQuery]
    interactions: List[GraphInteraction]


class QueryStep(TypedDict):
    agent: str
    subquery: str
    response: str
    resource_calls: List[Dict[str, Any]]
    refused: NotRequired[str]
    label: NotRequired[Label]
    withheld: NotRequired[str]


class Query(TypedDict):
    id: str
    status: str
    answer: str
    steps: List[QueryStep]
    fragments_read: List[str]
    fragments_written: List[str]
    revision: int
    graph_revision: int
    error: NotRequired[str]
    label: NotRequired[Label]
    withheld: NotRequired[str]


class Policy(TypedDict):
    target: str
    scope: Dict[str, str]
    kind: str
    effective_at: str
    event: str
    revision: int
    config: NotRequired[Dict[str, Any]]
