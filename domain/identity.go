package domain

// Identity is an authenticated caller.
type Identity struct {
	ID    string
	Admin bool
}
