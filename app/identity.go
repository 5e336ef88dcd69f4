package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// AdminID is the identity of the bootstrap administrator. No user may be
// registered under it.
const AdminID = "admin"

// TokenSum is the hex SHA-256 of a token: the only form a token is stored in.
func TokenSum(token string) string {
	s := sha256.Sum256([]byte(token))
	return hex.EncodeToString(s[:])
}

// NewToken returns a fresh bearer token with 256 bits of entropy.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("app: token: %w", err)
	}
	return "cmem_" + base64.RawURLEncoding.EncodeToString(b), nil
}

// Authenticate returns the identity a bearer token stands for, as of every
// acknowledged event on users/ (registrations, rotations, revocations,
// deactivations, erasures).
func (a *App) Authenticate(ctx context.Context, token string) (domain.Identity, error) {
	if token == "" {
		return domain.Identity{}, fmt.Errorf("%w: missing bearer token", domain.ErrUnauthenticated)
	}
	sum := TokenSum(token)
	if subtle.ConstantTimeCompare([]byte(sum), []byte(a.adminSum)) == 1 {
		return domain.Identity{ID: AdminID, Admin: true}, nil
	}
	// Every decision fences on users/, as permission decisions fence on
	// grants/: a token rotated, revoked or deactivated through another
	// gateway is refused from the moment that change was acknowledged.
	if err := a.fence(ctx, events.UsersSubjectPrefix, 0); err != nil {
		return domain.Identity{}, err
	}
	u, ok := a.view.UserByToken(sum)
	if !ok {
		return domain.Identity{}, fmt.Errorf("%w: unknown token", domain.ErrUnauthenticated)
	}
	if u.Status != "" && u.Status != access.StatusActive {
		return domain.Identity{}, fmt.Errorf("%w: user %s is %s", domain.ErrUnauthenticated, u.ID, u.Status)
	}
	return domain.Identity{ID: u.ID, Admin: u.Role == events.RoleAdmin}, nil
}

func requireAdmin(id domain.Identity) error {
	if !id.Admin {
		return fmt.Errorf("%w: %s is not an admin", domain.ErrForbidden, id.ID)
	}
	return nil
}
