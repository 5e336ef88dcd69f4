"""The client repeats what cmem asks to be repeated: a 429, a 503 with Retry-After.

These run against a stand-in HTTP server in the test process, no cmem needed.
"""

import http.server
import json
import threading
import time
import unittest
import urllib.request

import cmem
from cmem import retry


class _Script(http.server.BaseHTTPRequestHandler):
    steps = []  # (status, retry_after or None), the last repeats
    seen = []   # (time, body)

    def _answer(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode() if n else ""
        cls = type(self)
        status, after = cls.steps[min(len(cls.seen), len(cls.steps) - 1)]
        cls.seen.append((time.monotonic(), body))
        out = json.dumps({"id": "q1", "revision": 7} if status < 300 else {"error": "slow down", "code": "rate_limited"}).encode()
        self.send_response(status)
        if after is not None:
            self.send_header("Retry-After", after)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


class RetryTest(unittest.TestCase):
    def serve(self, steps):
        handler = type("H", (_Script,), {"steps": steps, "seen": []})
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        self.addCleanup(srv.server_close)
        self.addCleanup(srv.shutdown)
        return handler, f"http://127.0.0.1:{srv.server_address[1]}"

    def test_429_is_repeated_after_retry_after(self):
        h, url = self.serve([(429, "1"), (202, None)])
        self.assertEqual(cmem.Client(url, "tok").submit_query("hi"), "q1")
        self.assertEqual(len(h.seen), 2)
        self.assertGreaterEqual(h.seen[1][0] - h.seen[0][0], 1.0)  # no earlier than asked
        self.assertEqual(h.seen[0][1], h.seen[1][1])  # the same body again

    def test_retries_are_bounded(self):
        h, url = self.serve([(429, "0")])
        with self.assertRaises(cmem.CmemError) as cm:
            cmem.Client(url, "tok", retries=2).submit_query("hi")
        self.assertEqual(cm.exception.status, 429)
        self.assertEqual(len(h.seen), 3)

    def test_what_is_not_repeated(self):
        for steps, kwargs in [([(503, None), (202, None)], {}), ([(400, "1"), (202, None)], {}),
                              ([(429, "3600"), (202, None)], {}), ([(429, "0"), (202, None)], {"retries": 0})]:
            h, url = self.serve(steps)
            with self.assertRaises(cmem.CmemError):
                cmem.Client(url, "tok", **kwargs).submit_query("hi")
            self.assertEqual(len(h.seen), 1, steps)

    def test_503_with_retry_after_is_repeated(self):
        h, url = self.serve([(503, "0"), (202, None)])
        self.assertEqual(cmem.Client(url, "tok").submit_query("hi"), "q1")
        self.assertEqual(len(h.seen), 2)

    def test_retry_after_forms(self):
        self.assertEqual(retry.retry_after("3"), 3.0)
        self.assertIsNone(retry.retry_after(None))
        self.assertIsNone(retry.retry_after("soon"))
        self.assertEqual(retry.retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), 0.0)  # past: no wait
        self.assertAlmostEqual(retry.retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0), 10.0)

    def test_waits_grow_and_honour_the_server(self):
        waits = []
        h, url = self.serve([(429, "0"), (429, "2"), (429, "0"), (202, None)])
        req = urllib.request.Request(url + "/v1/queries", data=b"{}", method="POST")
        retry.urlopen_retrying(req, 5, sleep=waits.append).close()
        self.assertEqual(len(waits), 3)
        self.assertGreaterEqual(waits[0], 0.25)
        self.assertGreaterEqual(waits[1], 2.0)  # what the server asked
        self.assertGreaterEqual(waits[2], 1.0)  # the back-off of the third attempt


if __name__ == "__main__":
    unittest.main()
