package cluster_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/cmem/cmem/internal/benchfig"
	"github.com/cmem/cmem/test/cluster/clustertest"
)

var (
	capturedLine = regexp.MustCompile(`msg="snapshot captured" revision=(\d+) bytes=(\d+) took=(\S+)`)
	storedLine   = regexp.MustCompile(`msg="snapshot stored" revision=(\d+)`)
	failedLine   = regexp.MustCompile(`msg="(snapshot not taken|snapshot not stored|projection snapshot refused|projection snapshots off)[^\n]*`)
	restoredLine = regexp.MustCompile(`msg="projections restored from a snapshot" revision=(\d+) took=(\S+)`)
)

// waitLine waits for a line of p's log matching re and returns its groups.
func waitLine(b *testing.B, p *clustertest.Proc, re *regexp.Regexp, within time.Duration) []string {
	b.Helper()
	deadline := time.Now().Add(within)
	for {
		log := p.Log()
		if m := re.FindStringSubmatch(log); m != nil {
			return m
		}
		if m := failedLine.FindString(log); m != "" {
			b.Fatalf("cmem %s: %s", p.Role, m)
		}
		if time.Now().After(deadline) {
			b.Fatalf("no %q in the log of cmem %s within %s:\n%s", re, p.Role, within, p.Log())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// BenchmarkStartFromSnapshot fills the R3 log with CMEM_SCALE_EVENTS
// events (the mix of BenchmarkStartAtScale) and measures a gateway's start
// three ways in the same run: with snapshots off (the baseline: every
// projection rebuilt from the whole log), from a snapshot at the log's
// head, and from that snapshot plus a tail of a tenth as many events
// appended after it. Every gateway runs without the learned retriever,
// which is not snapshotted yet (with it, snapshots are off). The snapshot
// is taken by a gateway told to take one
// at the fill's last event; its capture time and size are figures too.
func BenchmarkStartFromSnapshot(b *testing.B) {
	n := scaleEvents(b)
	tail := n / 10
	c := clustertest.Start(b, clustertest.Options{})
	clustertest.Fill(b, c, n)
	for b.Loop() {
		full := c.AddGateway(b, "-snapshots-off", "-no-rerank")
		fullStart, fullRSS := full.Started, mb(full.RSS())
		full.Kill()

		w := c.AddGateway(b, "-no-rerank", "-snapshot-every", strconv.Itoa(n), "-snapshot-min-period", "1ns", "-log-level", "info")
		captured := waitLine(b, w, capturedLine, 30*time.Minute)
		waitLine(b, w, storedLine, 30*time.Minute)
		w.Kill()
		size, _ := strconv.ParseFloat(captured[2], 64)
		took, err := time.ParseDuration(captured[3])
		if err != nil {
			b.Fatal(err)
		}

		snap := c.AddGateway(b, "-no-rerank", "-log-level", "info")
		if m := waitLine(b, snap, restoredLine, time.Minute); m[1] != captured[1] {
			b.Fatalf("started from the snapshot at %s, want %s", m[1], captured[1])
		}
		snapStart, snapRSS := snap.Started, mb(snap.RSS())
		b.Logf("restore from the snapshot took %s of the %s start", waitLine(b, snap, restoredLine, time.Minute)[2], snapStart)
		snap.Kill()

		clustertest.FillFrom(b, c, n, tail)
		tailed := c.AddGateway(b, "-no-rerank", "-log-level", "info")
		waitLine(b, tailed, restoredLine, time.Minute)
		tailStart, tailRSS := tailed.Started, mb(tailed.RSS())
		tailed.Kill()

		events := strconv.Itoa(n)
		baseline := "full rebuild from the log, " + events + " events, same run"
		benchfig.Record(b, benchfig.Figure{Name: "gateway start from a snapshot at the head, " + events + " events", Value: snapStart.Seconds(),
			Unit: "s", Baseline: baseline, BaselineValue: fullStart.Seconds(), LowerIsBetter: true, Goal: "bounded by the interval, not the log"})
		benchfig.Record(b, benchfig.Figure{Name: "gateway start from a snapshot + " + strconv.Itoa(tail) + "-event tail", Value: tailStart.Seconds(),
			Unit: "s", Baseline: baseline + " (without the tail)", BaselineValue: fullStart.Seconds(), LowerIsBetter: true})
		benchfig.Record(b, benchfig.Figure{Name: "resident memory after a start from a snapshot, " + events + " events", Value: snapRSS,
			Unit: "MB", Baseline: baseline, BaselineValue: fullRSS, LowerIsBetter: true})
		benchfig.Record(b, benchfig.Figure{Name: "resident memory after snapshot + tail", Value: tailRSS,
			Unit: "MB", Baseline: baseline + " (without the tail)", BaselineValue: fullRSS, LowerIsBetter: true})
		benchfig.Record(b, benchfig.Figure{Name: "snapshot capture (projections held), " + events + " events", Value: took.Seconds(),
			Unit: "s", Baseline: baseline, BaselineValue: fullStart.Seconds(), LowerIsBetter: true})
		benchfig.Record(b, benchfig.Figure{Name: "snapshot size, " + events + " events", Value: size / (1 << 20), Unit: "MB"})
		b.ReportMetric(fullStart.Seconds(), "start-s-full")
		b.ReportMetric(snapStart.Seconds(), "start-s-snapshot")
		b.ReportMetric(tailStart.Seconds(), "start-s-snapshot+tail")
		b.ReportMetric(fullRSS, "rss-MB-full")
		b.ReportMetric(snapRSS, "rss-MB-snapshot")
		b.ReportMetric(took.Seconds(), "capture-s")
		b.ReportMetric(size/(1<<20), "snapshot-MB")
	}
	b.ReportMetric(0, "ns/op")
}

func mb(bytes int64) float64 { return float64(bytes) / (1 << 20) }
