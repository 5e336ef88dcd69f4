package hashing_test

import (
	"testing"

	"github.com/cmem/cmem/embed/embedtest"
	"github.com/cmem/cmem/embed/hashing"
)

// BenchmarkHashingEmbed reports texts/s (embedtest.Bench).
func BenchmarkHashingEmbed(b *testing.B) { embedtest.Bench(b, hashing.New(0)) }
