#include "textflag.h"

// func dotAVX2(a, b []float32) float32
//
// Four independent 8-wide FMA accumulators (32 floats per iteration), then
// 8 at a time, then one at a time; b must be at least as long as a.
TEXT ·dotAVX2(SB), NOSPLIT, $0-52
	MOVQ a_base+0(FP), SI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

loop32:
	CMPQ CX, $32
	JL   loop8
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  loop32

loop8:
	CMPQ CX, $8
	JL   reduce
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  loop8

reduce:
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0

tail:
	CMPQ CX, $0
	JE   done
	VMOVSS (SI), X1
	VFMADD231SS (DI), X1, X0
	ADDQ $4, SI
	ADDQ $4, DI
	DECQ CX
	JMP  tail

done:
	VZEROUPPER
	MOVSS X0, ret+48(FP)
	RET

// func dotI8RowsAVX2(q []int16, codes []int8, rows []int32, out []int32)
//
// out[i] = q · codes[rows[i]*len(q) :][:len(q)] for every i, with len(q) a
// multiple of 16. The rows are scattered (only the admissible ones), so
// the codes of the row ahead are prefetched while this one is summed: the
// loop is bound by memory latency otherwise.
TEXT ·dotI8RowsAVX2(SB), NOSPLIT, $0-96
	MOVQ q_base+0(FP), SI
	MOVQ q_len+8(FP), R8
	MOVQ codes_base+24(FP), R9
	MOVQ rows_base+48(FP), R10
	MOVQ rows_len+56(FP), R11
	MOVQ out_base+72(FP), R12
	XORQ R13, R13

rowloop:
	CMPQ R13, R11
	JGE  rowsdone
	// prefetch the row eight ahead, one cache line per 64 codes
	LEAQ 8(R13), AX
	CMPQ AX, R11
	JGE  noprefetch
	MOVLQSX (R10)(AX*4), AX
	IMULQ R8, AX
	LEAQ (R9)(AX*1), AX
	MOVQ R8, BX
pfloop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	SUBQ $64, BX
	JG   pfloop

noprefetch:
	MOVLQSX (R10)(R13*4), DI
	IMULQ R8, DI
	ADDQ R9, DI
	MOVQ SI, DX
	MOVQ R8, CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

rloop32:
	CMPQ CX, $32
	JL   rloop16
	VPMOVSXBW (DI), Y2
	VPMOVSXBW 16(DI), Y3
	VPMADDWD (DX), Y2, Y2
	VPMADDWD 32(DX), Y3, Y3
	VPADDD Y2, Y0, Y0
	VPADDD Y3, Y1, Y1
	ADDQ $64, DX
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  rloop32

rloop16:
	CMPQ CX, $16
	JL   rreduce
	VPMOVSXBW (DI), Y2
	VPMADDWD (DX), Y2, Y2
	VPADDD Y2, Y0, Y0
	ADDQ $32, DX
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  rloop16

rreduce:
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xB1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	MOVL AX, (R12)(R13*4)
	INCQ R13
	JMP  rowloop

rowsdone:
	VZEROUPPER
	RET

// func admitRowsAVX2(ids []uint32, allowed []uint32, first int, out []int32) int
//
// For each row of idSlots (8) slot bits in ids, tests all eight bits in
// allowed at once (a gather, a variable shift, a compare) and appends the
// row's number (first + its index) to out when all are set, without a
// branch; returns how many were appended. out must hold len(ids)/8 rows.
TEXT ·admitRowsAVX2(SB), NOSPLIT, $0-88
	MOVQ ids_base+0(FP), SI
	MOVQ ids_len+8(FP), CX
	SHRQ $3, CX
	MOVQ allowed_base+24(FP), R8
	MOVQ first+48(FP), DX
	MOVQ out_base+56(FP), DI
	XORQ AX, AX
	MOVL $31, BX
	VMOVD BX, X8
	VPBROADCASTD X8, Y8
	MOVL $1, BX
	VMOVD BX, X9
	VPBROADCASTD X9, Y9

aloop:
	TESTQ CX, CX
	JZ    adone
	VMOVDQU (SI), Y1
	VPSRLD $5, Y1, Y2
	VPCMPEQD Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPGATHERDD Y3, (R8)(Y2*4), Y4
	VPAND Y8, Y1, Y5
	VPSRLVD Y5, Y4, Y4
	VPAND Y9, Y4, Y4
	VPCMPEQD Y9, Y4, Y4
	VMOVMSKPS Y4, BX
	MOVL DX, (DI)(AX*4)
	XORQ R9, R9
	CMPL BX, $0xff
	SETEQ R9B
	ADDQ R9, AX
	INCQ DX
	ADDQ $32, SI
	DECQ CX
	JMP  aloop

adone:
	VZEROUPPER
	MOVQ AX, ret+80(FP)
	RET

// func dotI8RowsVNNI(qu []uint8, codes []int8, rows []int32, out []int32)
//
// dotI8RowsAVX2 with AVX-512 VNNI: VPDPBUSD multiplies 64 unsigned by 64
// signed bytes and adds each four products into an int32 lane, one
// instruction where the AVX2 loop takes six for 32 codes. It needs one
// unsigned side, so the query comes as qu = q + 128 and the row's code sum
// (a second VPDPBUSD against ones) takes the offset back out:
// q · c = qu · c − 128·Σc. len(qu)%64 == 0. Nothing saturates: a lane
// sums at most 4·255·127 per step and 255·127·len(qu) in all.
TEXT ·dotI8RowsVNNI(SB), NOSPLIT, $0-96
	MOVQ qu_base+0(FP), SI
	MOVQ qu_len+8(FP), R8
	MOVQ codes_base+24(FP), R9
	MOVQ rows_base+48(FP), R10
	MOVQ rows_len+56(FP), R11
	MOVQ out_base+72(FP), R12
	XORQ R13, R13
	// Z7: 64 unsigned ones, for the code sum
	MOVL $0x01010101, AX
	VPBROADCASTD AX, Z7

vrowloop:
	CMPQ R13, R11
	JGE  vrowsdone
	// prefetch the row eight ahead, one cache line per 64 codes
	LEAQ 8(R13), AX
	CMPQ AX, R11
	JGE  vnoprefetch
	MOVLQSX (R10)(AX*4), AX
	IMULQ R8, AX
	LEAQ (R9)(AX*1), AX
	MOVQ R8, BX
vpfloop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	SUBQ $64, BX
	JG   vpfloop

vnoprefetch:
	MOVLQSX (R10)(R13*4), DI
	IMULQ R8, DI
	ADDQ R9, DI
	MOVQ SI, DX
	MOVQ R8, CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1

vloop64:
	VMOVDQU8 (DI), Z2
	VMOVDQU8 (DX), Z3
	VPDPBUSD Z2, Z3, Z0
	VPDPBUSD Z2, Z7, Z1
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $64, CX
	JG   vloop64

	// Z0 − 128·Z1, then the sum of the sixteen lanes
	VPSLLD $7, Z1, Z1
	VPSUBD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xB1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	MOVL AX, (R12)(R13*4)
	INCQ R13
	JMP  vrowloop

vrowsdone:
	VZEROUPPER
	RET
