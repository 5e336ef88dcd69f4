package inmem

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The AVX2 kernels agree with their portable versions (which other
// architectures run): the int8 dot over a list of rows, and the slot-bit
// admission of a chunk of rows.
func TestKernelsMatchGeneric(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 on this CPU: only the portable kernels run")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const dims, rows = 48, 700
	p := newPartition(dims, 1, 1)
	q := make([]int16, dims)
	for i := range q {
		q[i] = int16(rng.IntN(255) - 127)
	}
	p.codes = make([]int8, dims*rows)
	for i := range p.codes {
		p.codes[i] = int8(rng.IntN(255) - 127)
	}
	for range rows {
		var agents, res []int
		for range 1 + rng.IntN(3) {
			agents = append(agents, rng.IntN(90))
		}
		for range rng.IntN(4) {
			res = append(res, rng.IntN(300))
		}
		p.ids = appendIDs(p.ids, agents, res)
	}
	var allowA, allowR []int
	for n := range 90 {
		if rng.Float64() < 0.7 {
			allowA = append(allowA, n)
		}
	}
	for n := range 300 {
		if rng.Float64() < 0.7 {
			allowR = append(allowR, n)
		}
	}
	allowed := allowedBits(allowA, allowR, 90, 300)

	got := admitRows(p, allowed, 5, rows, nil)
	want := admitRowsGeneric(p, allowed, 5, rows, nil)
	if !slices.Equal(got, want) || len(want) == 0 || len(want) == rows-5 {
		t.Fatalf("admitted %d rows, portable %d (of %d)", len(got), len(want), rows-5)
	}
	dots, ref := make([]int32, len(want)), make([]int32, len(want))
	dotI8Rows(q, p.codes, want, dots)
	dotI8RowsGeneric(q, p.codes, want, ref)
	if !slices.Equal(dots, ref) {
		t.Fatal("int8 row dots differ from the portable loop")
	}
}

// The VNNI kernel (dotRows on a query whose length is a multiple of 64)
// agrees with the portable loop, extreme codes included: ±127 everywhere
// is the largest sum, and a sign error in the offset correction shows.
func TestVNNIKernelMatchesGeneric(t *testing.T) {
	if !hasVNNI {
		t.Skip("no AVX-512 VNNI on this CPU: dotRows runs the AVX2 kernel")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dims := range []int{64, 256, 320} {
		const n = 300
		codes := make([]int8, dims*n)
		for i := range codes {
			codes[i] = int8(rng.IntN(255) - 127)
		}
		for i := range dims { // row 0 all +127, row 1 all −127
			codes[i], codes[dims+i] = 127, -127
		}
		vec := make([]float32, dims)
		for i := range vec {
			vec[i] = float32(rng.NormFloat64())
		}
		vec[0] = 50 // a component that quantises to ±127
		q := newQuery(vec)
		rows := []int32{0, 1}
		for r := 2; r < n; r++ {
			if rng.IntN(3) > 0 {
				rows = append(rows, int32(r))
			}
		}
		got, want := make([]int32, len(rows)), make([]int32, len(rows))
		dotRows(&q, codes, rows, got)
		dotI8RowsGeneric(q.codes, codes, rows, want)
		if !slices.Equal(got, want) {
			t.Fatalf("dims %d: VNNI row dots differ from the portable loop: %v… want %v…", dims, got[:4], want[:4])
		}
	}
}
