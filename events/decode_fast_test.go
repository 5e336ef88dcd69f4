package events

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

// fastTypes are the payload types with a fast decoder, each with a
// generator of random values.
var fastTypes = []func(r *rand.Rand) Payload{
	func(r *rand.Rand) Payload {
		p := &QuerySubmitted{ID: rplain(r), User: rplain(r), Text: rstr(r), Channel: rplain(r), ReplySubject: rplain(r)}
		if r.IntN(8) == 0 {
			t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			p.AsOf = &t
		}
		return p
	},
	func(r *rand.Rand) Payload {
		return &AgentSelected{QueryID: rplain(r), User: rplain(r), Round: rint(r), Agent: rplain(r), Subquery: rplain(r),
			Offered: rplains(r), Label: rlabel(r), GraphRevision: uint64(r.Int64())}
	},
	func(r *rand.Rand) Payload {
		return &AgentResponded{QueryID: rplain(r), User: rplain(r), Round: rint(r), Agent: rplain(r), Subquery: rplain(r),
			Response: rplain(r), Resources: rplains(r), FragmentsRead: rplains(r), FragmentsWritten: rplains(r),
			FragmentsCited: rplains(r), ResourceCalls: rint(r), Refused: rplain(r), Label: rlabel(r), GraphRevision: uint64(r.IntN(3))}
	},
	func(r *rand.Rand) Payload {
		return &QueryAnswered{QueryID: rplain(r), User: rplain(r), Answer: rplain(r), Rounds: rint(r), Agents: rplains(r),
			FragmentsRead: rplains(r), FragmentsWritten: rplains(r), Label: rlabel(r)}
	},
	func(r *rand.Rand) Payload { return &UserAgentGranted{User: rplain(r), Agent: rplain(r)} },
	func(r *rand.Rand) Payload { return &UserAgentRevoked{User: rplain(r), Agent: rplain(r)} },
	func(r *rand.Rand) Payload { return &AgentResourceGranted{Agent: rplain(r), Resource: rplain(r)} },
	func(r *rand.Rand) Payload { return &AgentResourceRevoked{Agent: rplain(r), Resource: rplain(r)} },
	func(r *rand.Rand) Payload {
		p := &FragmentWritten{ID: rplain(r), Key: rplain(r), Value: rplain(r), Tier: rplain(r), User: rplain(r),
			Agents: rplains(r), Resources: rplains(r), CreatedAt: rtime(r), SourceEvent: rplain(r), QueryID: rplain(r),
			DerivedFrom: rplains(r), Provenance: rplain(r), Policy: rpolicy(r)}
		if r.IntN(2) == 0 {
			p.Embedding = &Embedding{Model: rplain(r), Dims: rint(r), Vector: rplain(r)}
		}
		if r.IntN(3) == 0 {
			t := rtime(r)
			p.ObservedAt = &t
		}
		for range r.IntN(3) {
			p.TimeRefs = append(p.TimeRefs, TimeRef{Text: rplain(r), Start: rplain(r), End: rplain(r), Grain: rplain(r)})
		}
		return p
	},
	func(r *rand.Rand) Payload {
		return &MemoryRead{User: rplain(r), Agent: rplain(r), Query: rplain(r), QueryID: rplain(r), Private: rplains(r),
			Shared: rplains(r), GraphRevision: uint64(r.Int64()), KUser: rint(r), KCross: rint(r), Policy: rpolicy(r)}
	},
	func(r *rand.Rand) Payload {
		p := &QueryDelivered{QueryID: rplain(r), User: rplain(r), Channel: rplain(r), Status: rplain(r),
			GraphRevision: uint64(r.IntN(3)), Label: Label{Agents: rplains(r), Resources: rplains(r), Fragments: rplains(r)}}
		for range r.IntN(3) {
			p.Withheld = append(p.Withheld, Withheld{Part: rplain(r), Reason: rplain(r)})
		}
		return p
	},
}

// rtime is a UTC time, whole or with a fraction, or one in another zone
// (which goes to jsonv2).
func rtime(r *rand.Rand) time.Time {
	t := time.Date(2026, time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), 0, time.UTC)
	switch r.IntN(4) {
	case 0:
		return t.Add(time.Duration(r.IntN(1e9)))
	case 1:
		return t.In(time.FixedZone("x", 3600))
	}
	return t
}

// rpolicy is a policy trace, with an admission (fractions: jsonv2) now
// and then.
func rpolicy(r *rand.Rand) PolicyTrace {
	p := PolicyTrace{Kind: rplain(r), Scope: rplain(r), Event: rplain(r), Transformed: r.IntN(2) == 0, Notes: rplains(r)}
	if r.IntN(8) == 0 {
		p.Admission = &Admission{Score: 0.5, Threshold: 0.25, Scorer: rplain(r), Rubrics: []RubricRange{{Name: rplain(r), Low: 1, High: 2}}}
	}
	return p
}

func rstr(r *rand.Rand) string {
	parts := []string{"", "a", "planner", "é", "日本", `"`, `\`, "\n", "\u2028", "x y", "<b>&", "\x7f", "\U0001F600"}
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// rplain is mostly a string that encodes without escapes (with rstr's
// odds nearly every payload of many strings would hold an escape and go
// to jsonv2, and the fast path would seldom be compared).
func rplain(r *rand.Rand) string {
	if r.IntN(40) == 0 {
		return rstr(r)
	}
	parts := []string{"", "a", "planner", "é", "日本", "x y", "\x7f", "\U0001F600", "+/=", strings.Repeat("long", 33)}
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// rplains is rstrs with rplain's strings.
func rplains(r *rand.Rand) []string {
	out := rstrs(r)
	for i := range out {
		out[i] = rplain(r)
	}
	return out
}

func rint(r *rand.Rand) int {
	return []int{0, 1, -1, 7, 1 << 40, -(1 << 62), math.MaxInt, math.MinInt}[r.IntN(8)]
}

func rstrs(r *rand.Rand) []string {
	switch r.IntN(4) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	out := make([]string, 1+r.IntN(3))
	for i := range out {
		out[i] = rstr(r)
	}
	return out
}

func rlabel(r *rand.Rand) *Label {
	if r.IntN(4) == 0 {
		return nil
	}
	return &Label{Agents: rstrs(r), Resources: rstrs(r), Fragments: rstrs(r)}
}

// flatObject is a member whose value is an object holding no other;
// timeMember one whose value is a time.
var (
	flatObject = regexp.MustCompile(`("[a-z_]+"):\{[^{}]*\}`)
	timeMember = regexp.MustCompile(`("[a-z_]+"):"[0-9]{4}-[^"]*"`)
)

// number is a member whose value is an integer.
var number = regexp.MustCompile(`("[a-z_]+"):-?[0-9]+`)

// decodeMutations turn encoded data into neighbouring inputs, valid or not.
var decodeMutations = []func(r *rand.Rand, b string) string{
	func(_ *rand.Rand, b string) string { return b },
	func(_ *rand.Rand, b string) string { return " \n" + strings.ReplaceAll(b, ",", " ,\t") + " " },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, "{", `{"user":"dup",`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, "{", `{"unknown":1,`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, "{", `{"User":"x",`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `[]`, `null`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `:""`, `:null`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"round":`, `"round":-0`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"round":0`, `"round":0.0`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"round":1`, `"round":1e0`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"round":0`, `"round":00`, 1) },
	func(_ *rand.Rand, b string) string {
		return strings.Replace(b, `"rounds":`, `"rounds":99999999999999999999`, 1)
	},
	func(_ *rand.Rand, b string) string {
		return strings.Replace(b, `"graph_revision":`, `"graph_revision":-`, 1)
	},
	func(_ *rand.Rand, b string) string { return number.ReplaceAllString(b, `$1:9223372036854775807`) },
	func(_ *rand.Rand, b string) string { return number.ReplaceAllString(b, `$1:9223372036854775808`) },
	func(_ *rand.Rand, b string) string { return number.ReplaceAllString(b, `$1:-9223372036854775809`) },
	func(_ *rand.Rand, b string) string { return number.ReplaceAllString(b, `$1:18446744073709551615`) },
	func(_ *rand.Rand, b string) string { return number.ReplaceAllString(b, `$1:18446744073709551616`) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `[`, `[,`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `]`, `,]`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"agents":[`, `"agents":[1,`, 1) },
	func(_ *rand.Rand, b string) string {
		return strings.Replace(b, `"label":{`, `"label":{"agents":[],`, 1)
	},
	func(_ *rand.Rand, b string) string {
		return strings.Replace(b, `"transformed":true`, `"transformed":null`, 1)
	},
	func(_ *rand.Rand, b string) string { return flatObject.ReplaceAllString(b, `$1:null`) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"withheld":[`, `"withheld":[null,`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"time_refs":[`, `"time_refs":[{},`, 1) },
	func(_ *rand.Rand, b string) string {
		return strings.Replace(b, `"withheld":[{`, `"withheld":[{"part":"p",`, 1)
	},
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `Z"`, `z"`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `Z"`, `,5Z"`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `Z"`, `+24:00"`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `{`, `{"time_refs":[],`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `{`, `{"withheld":[],`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `:00Z"`, `:60Z"`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `-01T`, `-00T`, 1) },
	func(_ *rand.Rand, b string) string { return strings.Replace(b, `"created_at":"`, `"created_at":"+`, 1) },
	func(_ *rand.Rand, b string) string { return timeMember.ReplaceAllString(b, `$1:null`) },
	func(_ *rand.Rand, b string) string { return b + "x" },
	func(_ *rand.Rand, b string) string { return b[:len(b)/2] },
	func(r *rand.Rand, b string) string { i := r.IntN(len(b)); return b[:i] + b[i+1:] },
	func(r *rand.Rand, b string) string { i := r.IntN(len(b)); return b[:i] + "\xff" + b[i:] },
}

// TestFastDecodeAgrees: whatever the fast decoder accepts, jsonv2 accepts
// and decodes to a deeply equal value (nil and empty slices told apart),
// over random payloads and decodeMutations of their encoding; and it does take
// most clean encodings, so that the check is not vacuous.
func TestFastDecodeAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	taken, clean := map[reflect.Type]int{}, map[reflect.Type]int{}
	for i := range 40_000 {
		gen := fastTypes[i%len(fastTypes)]
		want := gen(r)
		enc, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		m := r.IntN(len(decodeMutations))
		if r.IntN(3) == 0 {
			m = 0 // the encoding as written: a third of the cases
		}
		data := decodeMutations[m](r, string(enc))
		fast := reflect.New(reflect.TypeOf(want).Elem()).Interface().(fastMember)
		ok := fastDecode([]byte(data), fast)
		slow := reflect.New(reflect.TypeOf(want).Elem()).Interface()
		slowErr := jsonv2.Unmarshal([]byte(data), slow)
		if ok && slowErr != nil {
			t.Fatalf("fast decoder accepts what jsonv2 refuses (%v): %s", slowErr, data)
		}
		if ok && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("decoders differ on %s:\nfast %#v\njsonv2 %#v", data, fast, slow)
		}
		if m == 0 && !strings.Contains(data, `\`) && !strings.Contains(data, `as_of`) && !strings.Contains(data, `admission`) &&
			!strings.Contains(data, `+01:00`) {
			clean[reflect.TypeOf(want)]++
			if ok {
				taken[reflect.TypeOf(want)]++
			} else {
				t.Logf("not taken: %s", data)
			}
		}
	}
	for _, gen := range fastTypes {
		typ := reflect.TypeOf(gen(r))
		if clean[typ] < 100 || taken[typ] != clean[typ] {
			t.Fatalf("%v: the fast decoder took %d of %d clean encodings without escapes", typ, taken[typ], clean[typ])
		}
	}
}

// TestDecodeUsesFastPath: Envelope.Decode of a typical query event gives
// the payload it was built from.
func TestDecodeUsesFastPath(t *testing.T) {
	for i, p := range []Payload{
		&AgentResponded{QueryID: "q", User: "u", Round: 2, Agent: "a", Response: "r", Resources: []string{},
			FragmentsRead: []string{"f"}, FragmentsWritten: []string{}, Label: &Label{Agents: []string{"a"}, Resources: []string{}}},
		&QuerySubmitted{ID: "q", User: "u", Text: `say "hi"`, Channel: "http"}, // escapes: jsonv2
	} {
		e, err := New(Meta{Source: "t"}, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Decode()
		if err != nil || !reflect.DeepEqual(got, p) {
			t.Fatalf("%d: got %#v, %v; want %#v", i, got, err, p)
		}
	}
}

// FuzzFastDecode: on any input the fast decoder never accepts what
// jsonv2 refuses and never decodes differently.
func FuzzFastDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, gen := range fastTypes {
		b, _ := json.Marshal(gen(r))
		f.Add(uint8(0), b)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		typ := reflect.TypeOf(fastTypes[int(which)%len(fastTypes)](r)).Elem()
		fast := reflect.New(typ).Interface().(fastMember)
		slow := reflect.New(typ).Interface()
		slowErr := jsonv2.Unmarshal(data, slow)
		if fastDecode(data, fast) && (slowErr != nil || !reflect.DeepEqual(fast, slow)) {
			t.Fatalf("%s: fast %#v, jsonv2 %#v (%v)", data, fast, slow, slowErr)
		}
	})
}
