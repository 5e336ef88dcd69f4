package console_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/test/console/consoletest"
)

// chromium finds the browser: $CMEM_CHROMIUM or Debian's chromium
// (test/install-deps.sh installs it). Missing, the test fails when
// CI is set and is skipped (and says so) otherwise.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CMEM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed: the console's browser tests need it (run test/install-deps.sh)")
	}
	t.Skip("chromium is not installed (test/install-deps.sh installs it); skipped outside CI")
	return ""
}

// browser starts a headless Chromium with a fresh profile for the test.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1360, 900),
	}
	// A bound against a hung browser, not a timing assertion.
	ctx, cancelTimeout := context.WithTimeout(context.Background(), 2*time.Minute)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc(); cancelTimeout() })
	return bctx
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// until waits for a JavaScript predicate to hold.
func until(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatalf("waiting for %s: %v", js, err)
	}
}

func signIn(t *testing.T, ctx context.Context, base, token, id string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#token")))
	if d := eval[string](t, ctx, `getComputedStyle(document.getElementById("nav")).display`); d != "none" {
		t.Fatalf("the navigation shows before sign-in (display %s)", d)
	}
	do(t, ctx, chromedp.SendKeys(chromedp.CSS("#token"), token), chromedp.Click(chromedp.CSS("#signin button")),
		chromedp.WaitVisible(chromedp.CSS(`#page-graph[data-ready="true"]`)))
	if who := eval[string](t, ctx, `document.getElementById("whoami").textContent`); !strings.HasPrefix(who, id) {
		t.Fatalf("signed in as %q, want %s", who, id)
	}
	if eval[string](t, ctx, `sessionStorage.getItem("cmem.token")`) != token {
		t.Fatal("the token is not in sessionStorage")
	}
}

// open shows a page and waits until it has rendered.
func open(t *testing.T, ctx context.Context, hash string) {
	t.Helper()
	page := strings.SplitN(strings.TrimPrefix(hash, "#/"), "?", 2)[0]
	eval[bool](t, ctx, fmt.Sprintf(`location.hash = %q; true`, hash))
	until(t, ctx, fmt.Sprintf(`document.querySelector('#page-%s[data-ready="true"]') !== null`, page))
}

func html(t *testing.T, ctx context.Context) string {
	return eval[string](t, ctx, `document.documentElement.outerHTML`)
}

func has(t *testing.T, ctx context.Context, css string) bool {
	return eval[bool](t, ctx, fmt.Sprintf(`document.querySelector(%q) !== null`, css))
}

// shot writes a PNG of the page to $CMEM_SCREENSHOTS/name.png when set
// (make screenshots).
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("CMEM_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// slide moves the graph's time slider to rev and waits for the graph.
func slide(t *testing.T, ctx context.Context, rev uint64) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById("graph-slider"); s.value = "%d"; s.dispatchEvent(new Event("input")); return true })()`, rev))
	until(t, ctx, fmt.Sprintf(`document.querySelector(".graph-box").dataset.revision === "%d"`, rev))
}

func seeded(t *testing.T) (*nodetest.Client, consoletest.Workload) {
	_, c := nodetest.StartClient(t, nil)
	w := consoletest.Seed(t, c)
	// A memory read through the console's API, so the audit has reads.
	c.Must(http.StatusOK, "POST", "/v1/memory/view", w.Alice, map[string]any{"agent": "planner", "query": "lyon", "k_user": 10, "k_cross": 10, "min_score": -1})
	return c, w
}
