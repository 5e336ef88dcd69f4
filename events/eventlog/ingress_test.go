package eventlog_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
	"github.com/cmem/cmem/events/eventlog/logtest"
)

// TestEveryAppendPathChecksWhatItIsGiven: whichever way an event reaches
// the log (one command, a registration, the batch endpoint's atomic
// append, an import's pipelined append), an invalid one is refused and
// nothing is stored, whether it was built by New from a bad field,
// decoded from the wire (a bus message, an import file), or built by New
// and then given other data. Grants built by New skip the second scan of
// their data (events.selfChecking); this fails if that vouch ever covers
// an event it should not, or a path stops checking.
func TestEveryAppendPathChecksWhatItIsGiven(t *testing.T) {
	ctx := context.Background()
	l := logtest.Open(t, "")
	var decoded events.Envelope
	wire := `{"specversion":"1.0","id":"x","source":"s","type":"cmem.user_agent.granted","schemaversion":1,"subject":"grants/user-agent/u/a","time":"2026-01-01T00:00:00Z","datacontenttype":"application/json","actor":"mallory","data":{"user":"u v","agent":"a"}}`
	if err := json.Unmarshal([]byte(wire), &decoded); err != nil {
		t.Fatal(err)
	}
	replaced := newEvent(t, &events.UserAgentRevoked{User: "u", Agent: "a"})
	replaced.Data = json.RawMessage(`{"user":"u","agent":"a*"}`)
	bad := map[string]events.Envelope{
		"bad id through New":   newEvent(t, &events.UserAgentGranted{User: "u.v", Agent: "a"}),
		"bad resource":         newEvent(t, &events.AgentResourceRevoked{Agent: "a", Resource: ">"}),
		"decoded from wire":    decoded,
		"data replaced by New": replaced,
	}
	paths := map[string]func(events.Envelope) error{
		"Append": func(e events.Envelope) error { _, err := l.Append(ctx, e); return err },
		"Append ExpectNew": func(e events.Envelope) error {
			_, err := l.Append(ctx, e, eventlog.ExpectNew())
			return err
		},
		"AppendAtomic": func(e events.Envelope) error {
			ok := newEvent(t, &events.UserAgentGranted{User: "u", Agent: "a"})
			_, err := l.AppendAtomic(ctx, []eventlog.Entry{{Event: ok}, {Event: e}})
			return err
		},
		"AppendBatch": func(e events.Envelope) error { _, err := l.AppendBatch(ctx, []events.Envelope{e}); return err },
	}
	for pname, path := range paths {
		for ename, e := range bad {
			if err := path(e); !errors.Is(err, events.ErrInvalid) {
				t.Errorf("%s, %s: got %v, want ErrInvalid", pname, ename, err)
			}
		}
	}
	if head, err := l.Head(ctx, ""); err != nil || head != 0 {
		t.Fatalf("head %d (%v) after refused appends, want nothing stored", head, err)
	}
}
