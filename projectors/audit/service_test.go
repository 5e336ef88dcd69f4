package audit

import (
	"errors"
	"testing"
	"time"

	"github.com/cmem/cmem/domain"
)

func TestServiceRefusesAndValidates(t *testing.T) {
	s, err := NewService(ServiceConfig{ReadWait: time.Millisecond, Poll: time.Millisecond}, NewHistory(nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	user := domain.Identity{ID: "u"}
	admin := domain.Identity{ID: "admin", Admin: true}
	if _, err := s.Reads(ctx, user, "f", 0); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("non-admin reads: %v", err)
	}
	if _, err := s.Visible(ctx, admin, VisibleQuery{User: "u"}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("visible without agent: %v", err)
	}
	if _, err := s.Reads(ctx, admin, "a.b", 0); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("bad fragment id: %v", err)
	}
	from, to := time.Now(), time.Now().Add(-time.Hour)
	if _, err := s.Violations(ctx, admin, WindowQuery{From: &from, To: &to}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("inverted window: %v", err)
	}
	if _, err := s.Metrics(ctx, admin, MetricsQuery{Bin: time.Millisecond}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("tiny bin: %v", err)
	}
	if _, err := s.Reads(ctx, admin, "f", 5); !errors.Is(err, domain.ErrUnavailable) {
		t.Errorf("min_revision beyond the trail: %v", err)
	}
	m, err := s.Metrics(ctx, admin, MetricsQuery{})
	if err != nil || m.Bin != "1h0m0s" || m.Queries == nil || m.Bins == nil || m.Reuse.Pairs == nil {
		t.Errorf("empty metrics %+v, %v", m, err)
	}
}
