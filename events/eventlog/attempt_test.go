package eventlog

import (
	"context"
	"errors"
	"testing"
)

// A request whose answer never comes (lost with a NATS node) is sent again
// after one attempt's timeout instead of holding the caller; other errors
// and a caller that gave up are not retried.
func TestRetryLostSendsAgainOnlyWhatWasLost(t *testing.T) {
	calls := 0
	v, err := retryLost(context.Background(), func(ctx context.Context) (int, error) {
		calls++
		if calls == 1 {
			<-ctx.Done() // the answer is lost: the attempt times out
			return 0, ctx.Err()
		}
		return 7, nil
	})
	if v != 7 || err != nil || calls != 2 {
		t.Fatalf("lost answer: got %d, %v after %d calls; want 7 after 2", v, err, calls)
	}
	calls = 0
	refused := errors.New("refused")
	if _, err := retryLost(context.Background(), func(context.Context) (int, error) { calls++; return 0, refused }); !errors.Is(err, refused) || calls != 1 {
		t.Fatalf("a refusal was retried: %v after %d calls", err, calls)
	}
	calls = 0
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := retryLost(ctx, func(ctx context.Context) (int, error) { calls++; return 0, ctx.Err() }); err == nil || calls != 1 {
		t.Fatalf("a caller that gave up was retried: %v after %d calls", err, calls)
	}
}
