package chstart

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/cmem/cmem/audit/clickhousetest"
)

func TestServe(t *testing.T) {
	s, err := clickhousetest.New("/tmp/i8a-ch")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/i8a-ch/addr", []byte(s.Addr()), 0o644)
	fmt.Println(s.Addr())
	time.Sleep(50 * time.Minute)
	s.Stop()
}
