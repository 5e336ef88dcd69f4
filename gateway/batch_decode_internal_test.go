package gateway

import (
	"encoding/json"
	"fmt"
	"testing"
)

// benchBatchBody is a /v1/batch body of n grant items, the batch
// benchmark's body.
func benchBatchBody(n int) []byte {
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = map[string]any{"op": "grant", "edge": "user-agent", "from": fmt.Sprintf("b%d", i), "to": "bench"}
	}
	raw, _ := json.Marshal(map[string]any{"items": items})
	return raw
}

// BenchmarkBatchDecode is what the batch endpoint spends on a body of
// 1000 grants before the use case: the body decode (with its key check)
// and each item's decode.
func BenchmarkBatchDecode(b *testing.B) {
	raw := benchBatchBody(1000)
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		var body batchBody
		if err := decodeBytes(raw, &body, true); err != nil {
			b.Fatal(err)
		}
		for _, it := range body.Items {
			if _, err := batchItem(it); err != nil {
				b.Fatal(err)
			}
		}
	}
}
