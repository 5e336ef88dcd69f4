package subjects

import (
	"errors"
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// QueryPrefix is where users publish queries: QueryPrefix+<user id>.
const QueryPrefix = "cmem.query."

// InboxRoot is the root of every reply inbox; a user's inboxes are under
// InboxRoot.<user>. (clients set nats.CustomInboxPrefix(Inbox(user))).
const InboxRoot = "_INBOX"

// ErrReplyForbidden is returned for a reply subject outside the caller's
// own inboxes.
var ErrReplyForbidden = errors.New("reply subject outside the caller's inboxes")

// Query is the subject user publishes queries on.
func Query(user string) string { return QueryPrefix + user }

// Answers is where every answer of user is published.
func Answers(user string) string { return "cmem.answers." + user }

// Inbox is the inbox prefix user's clients must use; the user may
// subscribe to Inbox(user)+".>" and nothing else under InboxRoot.
func Inbox(user string) string { return InboxRoot + "." + user }

// ReplyAllowed reports whether cmem may publish a reply for user on reply:
// only a literal subject under _INBOX.<user>. qualifies, so neither an
// event subject, a $JS.API request nor another user's inbox or answers can
// be named as a reply. It is the only place this rule lives.
func ReplyAllowed(user, reply string) bool {
	if user == "" || strings.ContainsAny(user, ".*> \t\r\n") {
		return false
	}
	rest, ok := strings.CutPrefix(reply, Inbox(user)+".")
	if !ok || rest == "" || len(reply) > 256 {
		return false
	}
	for _, tok := range strings.Split(rest, ".") {
		if tok == "" || tok == "*" || tok == ">" || strings.ContainsAny(tok, " \t\r\n") {
			return false
		}
	}
	return true
}

// CheckReply is ReplyAllowed as an error for use cases; an empty reply
// (no request-reply) is allowed.
func CheckReply(user, reply string) error {
	if reply == "" || ReplyAllowed(user, reply) {
		return nil
	}
	return fmt.Errorf("%w: want a subject under %s. (set a custom inbox prefix)", ErrReplyForbidden, Inbox(user))
}

// droppedReplies counts replies cmem refused to send.
var droppedReplies = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "cmem_bus_replies_dropped_total",
	Help: "Replies not sent because their subject was outside the caller's inboxes, by where they were dropped.",
}, []string{"where"})

// Dropped counts one reply refused at where ("ingress", "replier").
func Dropped(where string) { droppedReplies.WithLabelValues(where).Inc() }
