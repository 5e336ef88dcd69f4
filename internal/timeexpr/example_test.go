package timeexpr_test

import (
	"fmt"
	"time"

	"github.com/cmem/cmem/internal/timeexpr"
)

// A turn said on 9 June 2023: each expression, its interval and how a
// reader of the conversation would say it.
func ExampleFind() {
	said := time.Date(2023, 6, 9, 13, 56, 0, 0, time.UTC)
	for _, s := range timeexpr.Find("I ran a charity race last Saturday and start a new job next month.", said) {
		fmt.Printf("%s: %s (%s)\n", s.Text, s.Label(), s.Relative)
	}
	// Output:
	// last Saturday: 3 June 2023 (the Saturday before 9 June 2023)
	// next month: July 2023 (the month after 9 June 2023)
}
