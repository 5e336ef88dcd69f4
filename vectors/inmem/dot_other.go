//go:build !amd64

package inmem

func dot(a, b []float32) float32 { return dotGeneric(a, b) }

func dotI8Rows(q []int16, codes []int8, rows []int32, out []int32) {
	dotI8RowsGeneric(q, codes, rows, out[:len(rows)])
}

func dotRows(q *query, codes []int8, rows []int32, out []int32) {
	dotI8RowsGeneric(q.codes, codes, rows, out[:len(rows)])
}

func admitRows(p *partition, allowed []uint32, from, to int, rows []int32) []int32 {
	return admitRowsGeneric(p, allowed, from, to, rows)
}
