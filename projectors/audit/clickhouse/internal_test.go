package clickhouse

import (
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
)

func TestConfigValidate(t *testing.T) {
	good := Config{DSN: "clickhouse://127.0.0.1:9000/cmem"}
	if err := good.Validate(); err != nil {
		t.Fatalf("%+v: %v", good, err)
	}
	if d := good.WithDefaults(); d.BatchSize != defaultBatchSize || d.FlushInterval != defaultFlushInterval || d.Validate() != nil {
		t.Fatalf("defaults %+v", d)
	}
	bad := Config{DSN: "http://u:secret@127.0.0.1:8123/cmem", BatchSize: -1, FlushInterval: -time.Second,
		RetryMin: time.Minute, RetryMax: time.Second}
	err := bad.Validate()
	for _, want := range []string{"clickhouse://", "BatchSize", "FlushInterval", "RetryMax"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %s", err, want)
		}
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("error leaks the password: %v", err)
	}
	for _, dsn := range []string{"", "clickhouse://127.0.0.1:9000", "clickhouse://127.0.0.1:9000/bad-name", "clickhouse:///db"} {
		if (Config{DSN: dsn}).Validate() == nil {
			t.Errorf("DSN %q accepted", dsn)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	got := splitStatements("-- header; not a statement end\nCREATE TABLE a (x UInt8) ENGINE = Memory;\n\n-- only a comment\n;\nCREATE VIEW v AS\nSELECT 1\n;\n")
	// Comments before a statement stay with it (ClickHouse ignores them).
	if len(got) != 2 || !strings.HasSuffix(got[0], "\nCREATE TABLE a (x UInt8) ENGINE = Memory") || got[1] != "CREATE VIEW v AS\nSELECT 1" {
		t.Fatalf("got %q", got)
	}
	ms, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if m.Version != i+1 || len(m.Statements) == 0 {
			t.Fatalf("migration %d: %+v", i, m)
		}
	}
}

func TestPartitionRunsKeepRevisionOrder(t *testing.T) {
	jan, feb := time.Date(2026, 1, 31, 23, 0, 0, 0, time.UTC), time.Date(2026, 2, 1, 1, 0, 0, 0, time.UTC)
	var rows []eventRow
	for i, at := range []time.Time{jan, jan, feb, jan, feb, feb} {
		rows = append(rows, eventRow{stamp: stampOf("e", uint64(i+1), at)})
	}
	runs := partitionRuns(rows)
	var sizes []int
	for _, r := range runs {
		sizes = append(sizes, len(r))
	}
	if len(sizes) != 4 || sizes[0] != 2 || sizes[1] != 1 || sizes[2] != 1 || sizes[3] != 2 {
		t.Fatalf("runs of sizes %v, want [2 1 1 2]", sizes)
	}
	if len(partitionRuns(nil)) != 0 {
		t.Fatal("runs of nothing")
	}
	if s := stampOf("e", 1, time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)); s.time.Unix() != 0 {
		t.Fatalf("a time before 1970 must clamp to what DateTime holds, got %v", s.time)
	}
}

func TestBatchRecordsInvalidEvents(t *testing.T) {
	v, err := events.DefaultValidator()
	if err != nil {
		t.Fatal(err)
	}
	var b batch
	b.add(v, eventlog.Msg{Revision: 7, Subject: "cmem.events.junk", Data: []byte("junk")})
	b.add(v, eventlog.Msg{Revision: 8, Subject: "cmem.events.x", Data: []byte(`{"id":"e8","type":"cmem.nothing.here"}`)})
	if b.len() != 2 || b.last != 8 {
		t.Fatalf("batch %+v", b)
	}
	if r := b.events[0]; r.event != "invalid-revision-7" || r.err == "" || r.data != "junk" || r.subject != "cmem.events.junk" {
		t.Fatalf("junk row %+v", r)
	}
	if r := b.events[1]; r.event != "e8" || r.typ != "cmem.nothing.here" || r.err == "" {
		t.Fatalf("unknown-type row %+v", r)
	}
}

// TestVerdictViewsAreTheQueries holds the newest delivery_verdicts and
// read_verdicts views of schemas/clickhouse to sql/delivery_verdicts.sql
// and sql/read_verdicts.sql, which the API runs.
func TestVerdictViewsAreTheQueries(t *testing.T) {
	ms, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ view, query, filter string }{
		{"delivery_verdicts", deliveryVerdictsSQL, "DELIVERIES_FILTER"},
		{"read_verdicts", readVerdictsSQL, "READS_FILTER"},
	} {
		create := "CREATE VIEW IF NOT EXISTS " + c.view + " AS\n"
		var view string
		for _, m := range ms {
			for _, s := range m.Statements {
				if _, body, ok := strings.Cut(s, create); ok {
					view = body
				}
			}
		}
		_, query, _ := strings.Cut(c.query, "\nSELECT\n")
		if want := strings.TrimSpace("SELECT\n" + strings.ReplaceAll(query, c.filter, "1")); view == "" || view != want {
			t.Fatalf("the %s view is not its query over every row:\n%s\n---\n%s", c.view, view, want)
		}
	}
}
