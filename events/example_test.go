package events_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/cmem/cmem/events"
)

// granted is an event as a consumer of the log receives it (the data of
// one JetStream message on cmem.events.grants.>): the CloudEvents envelope
// with the payload in data.
const granted = `{"specversion":"1.0","id":"0193a4b2-7c1e-7d3a-9f00-5b2c8e6a1d01","source":"cmem/gateway",
"type":"cmem.user_agent.granted","schemaversion":1,"subject":"grants/user-agent/alice/planner",
"time":"2026-11-02T09:30:00Z","datacontenttype":"application/json",
"dataschema":"https://cmem.dev/schemas/events/cmem.user_agent.granted.v1.json","actor":"admin",
"correlationid":"0193a4b2-7c1e-7d3a-9f00-5b2c8e6a1d01",
"data":{"user":"alice","agent":"planner","expires_at":"2026-11-09T09:30:00Z"}}`

// ExampleValidator_Parse decodes an event from bytes, as an analytics
// consumer would: Parse checks the envelope and the data against their
// schemas, Decode gives the typed payload of the event's type.
func ExampleValidator_Parse() {
	v, err := events.DefaultValidator()
	if err != nil {
		log.Fatal(err)
	}
	e, err := v.Parse([]byte(granted))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Type, "v", e.SchemaVersion, "by", e.Actor, "at", e.Time.Format("2006-01-02 15:04"))
	p, err := e.Decode()
	if err != nil {
		log.Fatal(err)
	}
	switch p := p.(type) {
	case *events.UserAgentGranted:
		fmt.Println(p.User, "may use", p.Agent, "until", p.ExpiresAt.Format("2006-01-02"))
	case *events.UserAgentRevoked:
		fmt.Println(p.User, "may no longer use", p.Agent)
	}
	// Output:
	// cmem.user_agent.granted v 1 by admin at 2026-11-02 09:30
	// alice may use planner until 2026-11-09
}

// ExampleValidator_CheckData checks events against their schemas in two
// steps, as a consumer that spreads the work over goroutines does: the
// envelope first (ParseEnvelope), the data later (CheckData). A grant
// without its agent has a sound envelope and data its schema refuses; a
// type this build has no schema for is ErrUnknownType.
func ExampleValidator_CheckData() {
	v, err := events.DefaultValidator()
	if err != nil {
		log.Fatal(err)
	}
	for _, raw := range []string{
		granted,
		`{"specversion":"1.0","id":"e2","source":"cmem/gateway","type":"cmem.user_agent.granted","schemaversion":1,
		  "subject":"grants/user-agent/alice/planner","time":"2026-11-02T09:31:00Z","datacontenttype":"application/json",
		  "actor":"admin","data":{"user":"alice"}}`,
		`{"specversion":"1.0","id":"e3","source":"elsewhere","type":"cmem.user_agent.promoted","schemaversion":1,
		  "subject":"users/alice","time":"2026-11-02T09:32:00Z","datacontenttype":"application/json",
		  "actor":"admin","data":{}}`,
	} {
		e, err := v.ParseEnvelope([]byte(raw))
		if err != nil {
			log.Fatal(err)
		}
		switch err := v.CheckData(e); {
		case err == nil:
			fmt.Println("valid:", e.Subject)
		case errors.Is(err, events.ErrUnknownType):
			fmt.Println("skipped:", err) // a newer cmem's event: upgrade to read it
		case errors.Is(err, events.ErrInvalid):
			fmt.Println("refused:", err)
		}
	}
	// Output:
	// valid: grants/user-agent/alice/planner
	// refused: events: invalid event: cmem.user_agent.granted v1 data: /: missing property 'agent'
	// skipped: events: unknown event type or schema version: cmem.user_agent.promoted v1
}
