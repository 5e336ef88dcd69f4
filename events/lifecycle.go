package events

// Wire names of the identity lifecycle and erasure events. Every one lives
// on the user's subject (users/<id>) or the fragment's, so that an
// authentication decision fences on users/ the way a permission decision
// fences on grants/.
const (
	TypeUserTokenRotated = "cmem.user.token_rotated"
	TypeUserTokenRevoked = "cmem.user.token_revoked"
	TypeUserDeactivated  = "cmem.user.deactivated"
	TypeUserReactivated  = "cmem.user.reactivated"
	TypeUserErased       = "cmem.user.erased"
	TypeFragmentDeleted  = "cmem.fragment.deleted"
)

// UserTokenRotated replaces the user's token: the old one is refused from
// this revision on. Only the SHA-256 of the new token is recorded.
type UserTokenRotated struct {
	User        string `json:"user"`
	TokenSHA256 string `json:"token_sha256"`
}

// UserTokenRevoked withdraws the user's token; a rotation issues a new one.
type UserTokenRevoked struct {
	User string `json:"user"`
}

// UserDeactivated suspends a user: its token is refused until a
// UserReactivated. Its memory and grants are kept.
type UserDeactivated struct {
	User string `json:"user"`
}

// UserReactivated lifts a deactivation.
type UserReactivated struct {
	User string `json:"user"`
}

// UserErased records that a user was erased ("forget me"): the keys of its
// content were destroyed before this event was appended, its token is
// refused, and every projection drops the content of Fragments (the user's
// own and every fragment derived from them) and of Queries (the user's and
// every query whose answer read one of Fragments). Ids stay: the audit
// still answers who could see which fragment id when.
type UserErased struct {
	User      string   `json:"user"`
	Fragments []string `json:"fragments"`
	Queries   []string `json:"queries"`
}

// FragmentDeleted is the tombstone of a fragment: its key was destroyed,
// and every projection drops it, the fragments erased with it (Derived:
// those derived from it and the earlier versions of its fact by the same
// owner, with those derived from them) and the answers that read any of
// them (Queries).
type FragmentDeleted struct {
	ID      string   `json:"id"`
	User    string   `json:"user"`
	Derived []string `json:"derived"`
	Queries []string `json:"queries"`
}

// EventType implements Payload.
func (*UserTokenRotated) EventType() string { return TypeUserTokenRotated }

// EventSubject implements Payload.
func (p *UserTokenRotated) EventSubject() string { return UsersSubjectPrefix + p.User }

// EventType implements Payload.
func (*UserTokenRevoked) EventType() string { return TypeUserTokenRevoked }

// EventSubject implements Payload.
func (p *UserTokenRevoked) EventSubject() string { return UsersSubjectPrefix + p.User }

// EventType implements Payload.
func (*UserDeactivated) EventType() string { return TypeUserDeactivated }

// EventSubject implements Payload.
func (p *UserDeactivated) EventSubject() string { return UsersSubjectPrefix + p.User }

// EventType implements Payload.
func (*UserReactivated) EventType() string { return TypeUserReactivated }

// EventSubject implements Payload.
func (p *UserReactivated) EventSubject() string { return UsersSubjectPrefix + p.User }

// EventType implements Payload.
func (*UserErased) EventType() string { return TypeUserErased }

// EventSubject implements Payload.
func (p *UserErased) EventSubject() string { return UsersSubjectPrefix + p.User }

// EventType implements Payload.
func (*FragmentDeleted) EventType() string { return TypeFragmentDeleted }

// EventSubject implements Payload.
func (p *FragmentDeleted) EventSubject() string { return "fragments/" + p.User + "/" + p.ID }
