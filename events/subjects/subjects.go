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

// QueryWildcard matches every user's query subject; the NATS ingress
// listens on it.
const QueryWildcard = QueryPrefix + "*"

// AnswersPrefix is where answers are published: AnswersPrefix+<user id>.
const AnswersPrefix = "cmem.answers."

// InboxRoot is the root of every reply inbox; a user's inboxes are under
// InboxRoot.<user>. (clients set nats.CustomInboxPrefix(Inbox(user))).
const InboxRoot = "_INBOX"

// ErrReplyForbidden is returned for a reply subject outside the caller's
// own inboxes.
var ErrReplyForbidden = errors.New("reply subject outside the caller's inboxes")

// Query is the subject user publishes queries on.
func Query(user string) string { return QueryPrefix + user }

// QueryUser is the user a query subject (Query(user)) names; the ingress
// takes it as the publisher's identity, which the bus permissions vouch
// for.
func QueryUser(subject string) string { return strings.TrimPrefix(subject, QueryPrefix) }

// Answers is where every answer of user is published, for callers that
// subscribe rather than wait on a reply subject.
func Answers(user string) string { return AnswersPrefix + user }

// Inbox is the inbox prefix user's clients must use; the user may
// subscribe to Inboxes(user) and nothing else under InboxRoot.
func Inbox(user string) string { return InboxRoot + "." + user }

// Inboxes matches every inbox of user: Inbox(user)+".>".
func Inboxes(user string) string { return Inbox(user) + ".>" }

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
