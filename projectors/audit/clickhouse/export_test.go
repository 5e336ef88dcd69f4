package clickhouse

import (
	"reflect"

	"context"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/eventlog"
)

// WriteMsgs converts msgs into one batch and writes it exactly as a flush
// does; tests use it to deliver a batch twice.
func (s *Store) WriteMsgs(ctx context.Context, msgs []eventlog.Msg) error {
	v, err := events.DefaultValidator()
	if err != nil {
		return err
	}
	b := &batch{}
	for _, m := range msgs {
		b.add(v, m)
	}
	return s.write(ctx, b)
}

// RawTable is what one flush inserts into one table, ready for a bare
// clickhouse-go batch: by row and by column.
type RawTable struct {
	Insert  string
	Rows    [][]any
	Columns []any
}

// RawTables converts msgs into the inserts a flush makes, without writing.
func RawTables(msgs []eventlog.Msg) ([]RawTable, error) {
	v, err := events.DefaultValidator()
	if err != nil {
		return nil, err
	}
	b := &batch{}
	for _, m := range msgs {
		b.add(v, m)
	}
	var out []RawTable
	for _, t := range append(typedTables(b), eventsTable(b.events, new(scratch))) {
		if t.rows == 0 {
			continue
		}
		rt := RawTable{Insert: t.insert(), Columns: t.columns, Rows: make([][]any, t.rows)}
		for i := range rt.Rows {
			rt.Rows[i] = make([]any, len(t.columns))
			for j, col := range t.columns {
				rt.Rows[i][j] = reflect.ValueOf(col).Index(i).Interface()
			}
		}
		out = append(out, rt)
	}
	return out, nil
}
