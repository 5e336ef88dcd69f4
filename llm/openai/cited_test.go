package openai

import (
	"reflect"
	"testing"

	"github.com/cmem/cmem/llm"
)

func TestCitedSplitsTrailingMemoryNumbers(t *testing.T) {
	mem := []llm.MemoryItem{{ID: "f1"}, {ID: "f2"}, {ID: "f3"}}
	for _, c := range []struct {
		in, out string
		ids     []string
	}{
		{"7 May 2023 [1] [3]", "7 May 2023", []string{"f1", "f3"}},
		{"Aldric [2][2].", "Aldric", []string{"f2"}},
		{"Sweden [9]", "Sweden", nil},
		{"The [1] in the middle stays", "The [1] in the middle stays", nil},
	} {
		out, ids := cited(c.in, mem)
		if out != c.out || !reflect.DeepEqual(ids, c.ids) {
			t.Errorf("cited(%q) = %q %v, want %q %v", c.in, out, ids, c.out, c.ids)
		}
	}
}
