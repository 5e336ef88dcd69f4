package inmem

import (
	"slices"

	"golang.org/x/sys/cpu"
)

// hasAVX2 selects the vector kernels: AVX2 with FMA is on every x86-64 CPU
// of the last decade, and the scan is bound by these loops.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotAVX2 is the dot product of a and b[:len(a)] in 8-wide fused
// multiply-adds (dot_amd64.s).
//
//go:noescape
func dotAVX2(a, b []float32) float32

// dotI8RowsAVX2 writes the integer dot product of q and each listed row of
// codes into out, prefetching ahead (dot_amd64.s); len(q)%16 == 0.
//
//go:noescape
func dotI8RowsAVX2(q []int16, codes []int8, rows []int32, out []int32)

// hasVNNI selects the AVX-512 VNNI kernel for the int8 dots (dotRows).
var hasVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI

// dotI8RowsVNNI is dotI8RowsAVX2 with AVX-512 VNNI on the query's codes
// offset to unsigned bytes (query.ucodes; dot_amd64.s); len(qu)%64 == 0.
//
//go:noescape
func dotI8RowsVNNI(qu []uint8, codes []int8, rows []int32, out []int32)

// dotRows writes q's codes · row for each listed row of codes into
// out[:len(rows)], with the widest kernel the CPU has: VNNI does a
// 256-dimension row in four multiply-adds where AVX2 takes 48
// instructions, and the scan spends most of its time here.
func dotRows(q *query, codes []int8, rows []int32, out []int32) {
	if hasVNNI && len(q.ucodes)%64 == 0 && len(q.ucodes) > 0 {
		dotI8RowsVNNI(q.ucodes, codes, rows, out[:len(rows)])
		return
	}
	dotI8Rows(q.codes, codes, rows, out)
}

// dotI8Rows writes q · row for each listed row of codes into out[:len(rows)].
func dotI8Rows(q []int16, codes []int8, rows []int32, out []int32) {
	out = out[:len(rows)]
	if hasAVX2 && len(q)%16 == 0 && len(q) > 0 {
		dotI8RowsAVX2(q, codes, rows, out)
		return
	}
	dotI8RowsGeneric(q, codes, rows, out)
}

// admitRowsAVX2 appends to out the numbers of the rows of ids whose eight
// slot bits are all set in allowed (dot_amd64.s).
//
//go:noescape
func admitRowsAVX2(ids []uint32, allowed []uint32, first int, out []int32) int

// admitRows appends to rows the rows in [from, to) of p whose slot bits are
// all set in allowed: every row, except those that overflow their slots.
func admitRows(p *partition, allowed []uint32, from, to int, rows []int32) []int32 {
	if !hasAVX2 {
		return admitRowsGeneric(p, allowed, from, to, rows)
	}
	start := len(rows)
	rows = slices.Grow(rows, to-from)[:start+to-from]
	n := admitRowsAVX2(p.ids[from*idSlots:to*idSlots], allowed, from, rows[start:])
	return rows[:start+n]
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	if hasAVX2 {
		return dotAVX2(a, b)
	}
	return dotGeneric(a, b)
}
