package events

// TypeValuesErased is the wire name of ValuesErased.
const TypeValuesErased = "cmem.values.erased"

// ErasedSubjectPrefix is the subject prefix of every ValuesErased; a turn
// written into a scope fences on it, so a value erased a moment ago is
// already redacted.
const ErasedSubjectPrefix = "erasures/"

// ValuesErased records that User, with authority over Scope, had values
// erased from it in conversation. The values themselves are not in the
// log (their fragments were crypto-shredded): each is kept only as the
// SHA-256 of its normalised text and its length in words, so that a later
// turn restating one into the scope is written with it redacted — and a
// replay or a restart restores that, as it restores everything else.
type ValuesErased struct {
	Scope  string        `json:"scope"`
	User   string        `json:"user"`
	Values []ErasedValue `json:"values"`
}

// ErasedValue is one erased value: the hex SHA-256 of its normalised text
// (lower case, single spaces) and how many words it has.
type ErasedValue struct {
	SHA256 string `json:"sha256"`
	Words  int    `json:"words"`
}

// EventType implements Payload.
func (*ValuesErased) EventType() string { return TypeValuesErased }

// EventSubject implements Payload: one subject per scope.
func (p *ValuesErased) EventSubject() string { return ErasedSubjectPrefix + p.Scope }
