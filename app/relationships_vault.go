package app

// A principal whose work is a sensitivity class (campus IT reading a case's
// credentials only) keeps their own notes of that class: the vault of
// their own record for that class (conversation_vault.go) is theirs to
// read. Anyone else's own credentials said into their record stay in the
// vault, unread, as before. The grant is planned like any other, so it is
// an event, audited and revocable.

// withOwnVaults returns plans with, for each principal holding a class read
// and a Self scope, a read of that class of their own record.
func withOwnVaults(plans []plan) []plan {
	self := map[string]string{}
	for _, p := range plans {
		if p.index == -1 {
			self[p.user] = p.scope
		}
	}
	have := map[[2]string]bool{}
	out := plans
	for _, p := range plans {
		rec, ok := self[p.user]
		if p.read != ReadClass || !ok || have[[2]string{p.user, p.class}] {
			continue
		}
		have[[2]string{p.user, p.class}] = true
		out = append(out, plan{index: -1, user: p.user, scope: rec, read: ReadClass, class: p.class})
	}
	return out
}
