//go:build rulemutation

package access

// ruleRemoved removes the read rule: Admits admits everything. Only the
// mutation test (make mutation, TestRuleMutationIsCaught) builds with it.
const ruleRemoved = true
