package eventlog

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/cmem/cmem/events/subjects"
)

// Headers of a dead letter.
const (
	ReasonHeader   = "Cmem-Reason"
	ConsumerHeader = "Cmem-Consumer"
	RevisionHeader = "Cmem-Revision"
	SubjectHeader  = "Cmem-Subject"
)

// DeadLetter records that consumer could not use the event at rev, with the
// reason. It is idempotent: a projection rebuilt from the log meets the same
// bad event again, and the dead letter is written once, by subject.
func (l *Log) DeadLetter(ctx context.Context, consumer string, m Msg, reason string) error {
	subj := subjects.DeadLetter(consumer, m.Revision)
	msg := nats.NewMsg(subj)
	msg.Data = m.Data
	msg.Header.Set(ReasonHeader, reason)
	msg.Header.Set(ConsumerHeader, consumer)
	msg.Header.Set(RevisionHeader, strconv.FormatUint(m.Revision, 10))
	msg.Header.Set(SubjectHeader, m.Subject)
	_, err := l.js.PublishMsg(ctx, msg, jetstream.WithMsgID(subj), jetstream.WithExpectLastSequencePerSubject(0))
	if err != nil && !isWrongLastSequence(err) {
		return fmt.Errorf("eventlog: dead letter %s: %w", subj, err)
	}
	return nil
}

// DeadLetters returns the dead letters recorded so far for consumer, oldest
// first, for operators and tests.
func (l *Log) DeadLetters(ctx context.Context, consumer string) ([]*jetstream.RawStreamMsg, error) {
	filter := subjects.DeadLettersOf(consumer)
	var out []*jetstream.RawStreamMsg
	for seq := uint64(1); ; {
		m, err := l.dlq.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(filter))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("eventlog: dead letters: %w", err)
		}
		out = append(out, m)
		seq = m.Sequence + 1
	}
}
