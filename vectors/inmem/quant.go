package inmem

import "math"

// A search scans int8 codes of the vectors, not the vectors: a row is 1/4
// of the bytes, and the scan is bound by memory. The codes only bound the
// score; the top k is then rescored on the float32 vectors, so the answer
// stays exact.
//
// Row v is stored as codes c with a scale s (v ≈ s·c) and the norm e of
// the residual v − s·c. For a query q quantised the same way (q ≈ sq·cq,
// residual eq), Cauchy–Schwarz gives
//
//	|q·v − sq·s·(cq·c)| ≤ |sq·cq|·e + eq·|v|
//
// and, divided by |v| (the cosine), a bound that is one multiply-add per
// row: row.err·|q̂| + eq. boundSlack covers the float32 rounding of both the
// bound and the rescored dot product, which is orders of magnitude smaller.
const boundSlack = 1e-4

// quantize writes the int8 codes of v into dst and returns the scale that
// turns a code back into a component, and the residual norm.
func quantize(v []float32, dst []int8) (scale, residual float32) {
	var peak float32
	for _, x := range v {
		peak = max(peak, float32(math.Abs(float64(x))))
	}
	if peak == 0 {
		clear(dst)
		return 0, 0
	}
	scale = peak / 127
	var ss float64
	for i, x := range v {
		c := int8(max(-127, min(127, math.Round(float64(x/scale)))))
		dst[i] = c
		d := float64(x) - float64(scale)*float64(c)
		ss += d * d
	}
	return scale, float32(math.Sqrt(ss))
}

// query is a search vector normalised to unit length and quantised to
// int16 lanes (holding int8 values) for the integer kernel.
type query struct {
	unit  []float32
	codes []int16
	// ucodes are codes + 128 as unsigned bytes, the form the VNNI kernel
	// multiplies (dotRows).
	ucodes []uint8
	scale  float32 // sq
	norm   float32 // |sq·cq|
	err    float32 // eq
}

func newQuery(vector []float32) query {
	q := query{unit: make([]float32, len(vector)), codes: make([]int16, len(vector)), ucodes: make([]uint8, len(vector))}
	inv := invNorm(vector)
	for i, x := range vector {
		q.unit[i] = x * inv
	}
	c := make([]int8, len(vector))
	scale, residual := quantize(q.unit, c)
	var ss float64
	for i, x := range c {
		q.codes[i] = int16(x)
		q.ucodes[i] = uint8(int16(x) + 128)
		ss += float64(x) * float64(x)
	}
	q.scale, q.err = scale, residual
	q.norm = float32(float64(scale) * math.Sqrt(ss))
	return q
}

// bounds returns the interval the exact cosine of q and row lies in, given
// the integer dot product of their codes.
func (q *query) bounds(p *partition, row int, codeDot int32) (lo, hi float32) {
	approx := float32(codeDot) * q.scale * p.qk[row]
	slack := p.qerr[row]*q.norm + q.err + boundSlack
	return clamp(approx - slack), clamp(approx + slack)
}

func dotI8Generic(q []int16, c []int8) int32 {
	var s int32
	for i, x := range q {
		s += int32(x) * int32(c[i])
	}
	return s
}

func dotI8RowsGeneric(q []int16, codes []int8, rows []int32, out []int32) {
	d := len(q)
	for i, r := range rows {
		out[i] = dotI8Generic(q, codes[int(r)*d:(int(r)+1)*d])
	}
}
