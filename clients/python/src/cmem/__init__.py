"""Client for cmem, Collaborative Memory for multi-user, multi-agent LLM systems.

    from cmem import Client
    admin = Client("http://127.0.0.1:8080", token=ADMIN_TOKEN)
    alice = Client("http://127.0.0.1:8080", token=admin.register_user("alice")["token"])
"""

from .client import AsyncClient, Client
from .errors import (
    BadRequest,
    CmemError,
    Conflict,
    Forbidden,
    NotFound,
    RefusedByPolicy,
    ServerError,
    Unauthenticated,
    Unavailable,
)
from .types import (
    Access,
    AgentAccess,
    Created,
    Fragment,
    GraphInsight,
    GraphInteraction,
    GraphMemory,
    GraphQuery,
    Label,
    Policy,
    Query,
    QueryStep,
    UserCreated,
    View,
    Written,
)

__all__ = [
    "Access", "AgentAccess", "AsyncClient", "BadRequest", "Client", "CmemError", "Conflict", "Created",
    "Forbidden", "Fragment", "GraphInsight", "GraphInteraction", "GraphMemory", "GraphQuery", "Label", "NotFound", "Policy", "Query", "QueryStep", "RefusedByPolicy", "ServerError",
    "Unauthenticated", "Unavailable", "UserCreated", "View", "Written",
]
