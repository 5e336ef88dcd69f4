"""Live tests of the cmem Python client: they need a running cmem.

CMEM_URL and CMEM_ADMIN_TOKEN say where and as whom; without them the tests
fail (they are run by clients/python/python_test.go against `cmem serve`).
"""

import asyncio
import os
import socket
import unittest
import uuid

import cmem


def _env():
    url, token = os.environ.get("CMEM_URL"), os.environ.get("CMEM_ADMIN_TOKEN")
    if not url or not token:
        raise RuntimeError("set CMEM_URL and CMEM_ADMIN_TOKEN to a running cmem (see clients/python/README.md)")
    return url, token


class TestUnreachable(unittest.TestCase):
    def test_refused_connection_is_unavailable(self):
        with socket.socket() as s:  # a port nothing listens on once closed
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        c = cmem.Client(f"http://127.0.0.1:{port}", "cmem_x")
        with self.assertRaises(cmem.Unavailable) as cm:
            c.access("alice")
        self.assertEqual((cm.exception.status, cm.exception.code), (0, "unreachable"))
        self.assertIn(str(port), cm.exception.message)


class LiveTest(unittest.TestCase):
    def setUp(self):
        self.url, token = _env()
        self.admin = cmem.Client(self.url, token)
        self.s = uuid.uuid4().hex[:8]  # ids unique per test, so the tests re-run on existing data
        self.user, self.agent, self.other, self.kb = f"u{self.s}", f"planner{self.s}", f"critic{self.s}", f"guide{self.s}"
        created = self.admin.register_user(self.user)
        self.assertTrue(created["token"].startswith("cmem_"))
        self.me = cmem.Client(self.url, created["token"])
        self.admin.register_agent(self.agent, "plans trips")
        self.admin.register_agent(self.other, "reviews restaurants")
        self.admin.register_resource(self.kb, "knowledge_base", "city guide", documents=[{"id": "lyon", "text": "Lyon is known for its bouchons."}])
        self.admin.grant_user_agent(self.user, self.agent)
        self.admin.grant_agent_resource(self.agent, self.kb)


class TestClient(LiveTest):
    def test_errors_are_exceptions(self):
        with self.assertRaises(cmem.Conflict) as cm:
            self.admin.register_user(self.user)
        self.assertEqual(cm.exception.status, 409)
        self.assertEqual(cm.exception.code, "conflict")
        with self.assertRaises(cmem.BadRequest):
            self.admin.register_user("not valid!")
        with self.assertRaises(cmem.Unauthenticated):
            cmem.Client(self.url, "cmem_forged").access(self.user)
        with self.assertRaises(cmem.Forbidden):
            self.me.register_user(f"x{self.s}")
        with self.assertRaises(cmem.NotFound):
            self.admin.grant_user_agent(self.user, f"ghost{self.s}")

    def test_access_now_and_at_a_revision(self):
        before = self.admin.last_revision
        self.admin.grant_user_agent(self.user, self.other)
        now = self.me.access(self.user, min_revision=self.admin.revoke_user_agent(self.user, self.other))
        self.assertEqual([a["id"] for a in now["agents"]], [self.agent])
        self.assertEqual(now["agents"][0]["resources"], [self.kb])
        past = self.admin.access(self.user, revision=before + 1)
        self.assertIn(self.other, [a["id"] for a in past["agents"]])

    def test_fragments_read_your_writes_and_refusal(self):
        written = self.me.write_fragment(self.agent, "lyon", "bouchons are small restaurants", resources=[self.kb])
        self.assertEqual(self.me.last_revision, written["revision"])
        view = self.me.memory_view(self.agent, "lyon")  # min_revision = last write, so the fragment is there
        self.assertIn("bouchons are small restaurants", [f["value"] for f in view["private"]])
        self.assertGreaterEqual(view["revision"], written["revision"])
        with self.assertRaises(cmem.Forbidden):  # not granted: cmem refuses, nothing is written
            self.me.write_fragment(self.other, "k", "v")
        with self.assertRaises(cmem.Forbidden):
            self.me.memory_view(self.other, "lyon")

    def test_batch_all_or_nothing(self):
        with self.assertRaises(cmem.NotFound) as refused:
            self.admin.batch([{"op": "register_agent", "id": f"b{self.s}", "description": "d"},
                              {"op": "grant", "edge": "user-agent", "from": self.user, "to": f"ghost{self.s}"}])
        self.assertEqual(refused.exception.index, 1)
        ans = self.admin.batch([{"op": "register_agent", "id": f"b{self.s}", "description": "d"},
                                {"op": "grant", "edge": "user-agent", "from": self.user, "to": f"b{self.s}"}])
        self.assertEqual([i["revision"] for i in ans["items"]], [ans["revision"] - 1, ans["revision"]])
        self.assertIn(f"b{self.s}", [a["id"] for a in self.me.access(self.user)["agents"]])

    def test_policies(self):
        rev = self.admin.set_policy("read", "simple", agent=self.agent)
        self.assertIn(rev, [p["revision"] for p in self.admin.policies()])

    def test_ask_and_audit(self):
        q = self.me.ask("Where should I eat in Lyon?")
        self.assertEqual(q["status"], "answered", q)
        self.assertTrue(q["answer"])
        self.assertEqual(self.me.query(q["id"])["id"], q["id"])
        qid = self.me.submit_query("And in Paris?")
        self.assertEqual(self.me.query(qid, wait=30)["id"], qid)
        visible = self.admin.audit_visible(self.user, self.agent, min_revision=q["revision"])
        self.assertEqual(visible["user"], self.user)
        self.assertIsInstance(self.admin.audit_violations(min_revision=q["revision"]), list)
        deliveries = self.admin.audit_deliveries(q["id"], min_revision=q["revision"])
        self.assertTrue(all(d["kind"] == "delivery" and d["admissible"] for d in deliveries), deliveries)
        self.assertIn("queries", self.admin.audit_metrics(min_revision=q["revision"]))
        graph = self.me.memory_graph(self.agent, "eat in Lyon", min_revision=q["revision"])
        self.assertIn(q["id"], [g["id"] for g in graph["queries"]], graph)
        self.assertTrue(graph["insights"] and all("agents" in i["provenance"] for i in graph["insights"]), graph)


class TestAsyncClient(LiveTest):
    def test_async(self):
        async def go():
            me = cmem.AsyncClient(self.url, self.me.token)
            w, access = await asyncio.gather(
                me.write_fragment(self.agent, "async", "written from asyncio"),
                me.access(self.user),
            )
            self.assertEqual(access["user"], self.user)
            view = await me.memory_view(self.agent, "written from asyncio", min_revision=w["revision"], min_score=-1)
            self.assertIn("written from asyncio", [f["value"] for f in view["private"]])
            with self.assertRaises(cmem.Forbidden):
                await me.write_fragment(self.other, "k", "v")

        asyncio.run(go())


if __name__ == "__main__":
    unittest.main()
