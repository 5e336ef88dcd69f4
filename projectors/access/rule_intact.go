//go:build !rulemutation

package access

// ruleRemoved is false in every real build. The rulemutation build tag
// flips it (rule_mutation.go) so that a test can show the suites that hold
// the read rule fail when it is gone.
const ruleRemoved = false
