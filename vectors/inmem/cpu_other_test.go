//go:build !unix

package inmem_test

import "time"

// processCPU is unknown here: the cpu-ms figures read 0.
func processCPU() time.Duration { return 0 }
