package events

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/cmem/cmem/internal/benchfig"
)

// consumeSamples are the hot events of a rebuild in their stored form: a
// fragment with a 256-d embedding, an access grant and an agent's answer.
func consumeSamples(b *testing.B) map[string][]byte {
	b.Helper()
	vec := base64.StdEncoding.EncodeToString(make([]byte, 4*256))
	out := map[string][]byte{}
	for name, p := range map[string]Payload{
		"fragment": &FragmentWritten{ID: "0193b6a0-8f5e-7c1a-9c4e-2a1d3c6d7e01", User: "u7", Key: "fact 12 about travel",
			Value: "the value of fact 12 is a sentence of ordinary length for a memory", Tier: "shared",
			Agents: []string{"planner"}, Resources: []string{}, CreatedAt: time.Now(), Provenance: ProvenanceTransitive,
			Policy: PolicyTrace{Kind: "simple", Scope: "global"}, Embedding: &Embedding{Model: "hash", Dims: 256, Vector: vec}},
		"grant": &UserAgentGranted{User: "u7", Agent: "planner"},
		"responded": &AgentResponded{QueryID: "0193b6a0-8f5e-7c1a-9c4e-2a1d3c6d7e02", User: "u7", Round: 2, Agent: "planner",
			Subquery: "sub question", Response: "an answer of a few words", Resources: []string{}, FragmentsRead: []string{},
			FragmentsWritten: []string{}, Label: &Label{Agents: []string{"planner"}, Resources: []string{}}},
	} {
		e, err := New(Meta{Source: "bench", Actor: "u7"}, p)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := json.Marshal(e)
		if err != nil {
			b.Fatal(err)
		}
		out[name] = raw
	}
	return out
}

// BenchmarkConsume is what a consumer spends per stored event, stage by
// stage: the envelope, the data's schema check, the typed decode.
func BenchmarkConsume(b *testing.B) {
	v, err := DefaultValidator()
	if err != nil {
		b.Fatal(err)
	}
	for name, raw := range consumeSamples(b) {
		e, err := v.ParseEnvelope(raw)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/envelope", func(b *testing.B) {
			for b.Loop() {
				if _, err := v.ParseEnvelope(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/check", func(b *testing.B) {
			for b.Loop() {
				if err := v.CheckData(e); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/decode", func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, err := e.Decode(); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The generic decoder alone, to read the fast path's gain against
		// in the same run.
		b.Run(name+"/decode-jsonv2", func(b *testing.B) {
			spec, _ := lookup(e.Type, e.SchemaVersion)
			defer cpuPerOp(b)()
			for b.Loop() {
				if err := jsonv2.Unmarshal(e.Data, spec.new()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpuPerOp reports the process CPU time per op when the returned function
// runs: on a loaded machine it moves far less than the wall time.
func cpuPerOp(b *testing.B) func() {
	start := benchfig.ProcessCPU()
	return func() {
		b.ReportMetric(float64(benchfig.ProcessCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkConsumeMix is what a rebuild's check stage spends per event
// (envelope, data check, typed decode) over the event mix of shred's
// BenchmarkSealing: a fragment with a 256-d embedding, then a query's ten
// events, in turn.
func BenchmarkConsumeMix(b *testing.B) {
	v, err := DefaultValidator()
	if err != nil {
		b.Fatal(err)
	}
	vec := base64.StdEncoding.EncodeToString(make([]byte, 4*256))
	var raws [][]byte
	add := func(p Payload) {
		e, err := New(Meta{Source: "bench", Actor: "u"}, p)
		if err != nil {
			b.Fatal(err)
		}
		raw, _ := json.Marshal(e)
		raws = append(raws, raw)
	}
	for i := 0; len(raws) < 2200; i++ {
		user := fmt.Sprintf("u%d", i%50)
		if i%2 == 0 {
			add(&FragmentWritten{ID: fmt.Sprintf("id-%d", i), User: user, Key: fmt.Sprintf("fact %d about travel", i),
				Value: fmt.Sprintf("the value of fact %d is a sentence of ordinary length for a memory", i), Tier: "shared",
				Agents: []string{"planner"}, Resources: []string{}, CreatedAt: time.Now(), Provenance: ProvenanceTransitive,
				Policy: PolicyTrace{Kind: "simple", Scope: "global"}, Embedding: &Embedding{Model: "hash", Dims: 256, Vector: vec}})
			continue
		}
		q := fmt.Sprintf("q-%d", i)
		label := &Label{Agents: []string{"planner"}, Resources: []string{}}
		add(&QuerySubmitted{ID: q, User: user, Text: fmt.Sprintf("question %d about the trip", i), Channel: "http"})
		for round := 1; round <= 4; round++ {
			add(&AgentSelected{QueryID: q, User: user, Round: round, Agent: "planner", Subquery: "sub question", Offered: []string{"planner"}, Label: label})
			add(&AgentResponded{QueryID: q, User: user, Round: round, Agent: "planner", Subquery: "sub question",
				Response: "an answer of a few words", Resources: []string{}, FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: label})
		}
		add(&QueryAnswered{QueryID: q, User: user, Answer: "the final answer", Rounds: 4, Agents: []string{"planner"},
			FragmentsRead: []string{}, FragmentsWritten: []string{}, Label: label})
	}
	b.ResetTimer()
	defer cpuPerOp(b)()
	for i := range b.N {
		raw := raws[i%len(raws)]
		e, checked, err := v.ParseEnvelopeChecking(raw)
		if err != nil {
			b.Fatal(err)
		}
		if !checked {
			if err := v.CheckData(e); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := e.Decode(); err != nil {
			b.Fatal(err)
		}
	}
}
