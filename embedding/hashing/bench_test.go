package hashing_test

import (
	"testing"

	"github.com/cmem/cmem/embedding/embedtest"
	"github.com/cmem/cmem/embedding/hashing"
)

// BenchmarkHashingEmbed reports texts/s (embedtest.Bench).
func BenchmarkHashingEmbed(b *testing.B) { embedtest.Bench(b, hashing.New(0)) }
