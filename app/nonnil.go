package app

// nonNil is s, or an empty list for nil: the lists answers and events
// carry encode as [] rather than null, so clients need not tell the two
// apart.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
