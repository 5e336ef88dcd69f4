package access

import "fmt"

// Edges answers the two edge questions of one point in time. The read rule
// needs nothing else, so every path that enforces it — the memory view, the
// write check, the coordinator's history, delivery, the audit — asks it of
// the same function (Admits) over its own Edges.
type Edges interface {
	// Invokes reports whether agent ∈ A(user).
	Invokes(user, agent string) bool
	// Uses reports whether resource ∈ R(agent).
	Uses(agent, resource string) bool
}

// Reader is who content is shown to: a user through one agent (a memory
// view, a write that derives from fragments), or the user itself (an answer,
// its steps, history, a bus reply), with Agent empty.
type Reader struct {
	User  string
	Agent string
}

// Verdict is the rule's answer. When OK is false, exactly one of Agent or
// Resource names the first edge that is missing, so a caller can say why
// content was withheld.
type Verdict struct {
	OK bool
	// Agent is an agent of the provenance the user may not invoke.
	Agent string
	// Resource is a resource of the provenance that no permitted agent may
	// use; By is the agent it was checked against (empty for a user reader
	// when the provenance names no agent that could vouch for it).
	Resource, By string
}

// Reason says in words why content was withheld; "" when it was not.
func (v Verdict) Reason(user string) string {
	switch {
	case v.OK:
		return ""
	case v.Agent != "":
		return fmt.Sprintf("agent %s is not available to %s", v.Agent, user)
	case v.By != "":
		return fmt.Sprintf("resource %s is not usable by agent %s", v.Resource, v.By)
	default:
		return fmt.Sprintf("resource %s is not usable by any agent %s may invoke", v.Resource, user)
	}
}

// Admits is the read rule, written once. Content with provenance prov may
// be shown to r when
//
//   - through an agent (r.Agent set): prov ∈ M(u,a,t), that is
//     A(prov) ⊆ A(u,t) and R(prov) ⊆ R(a,t) — the paper's admissible set;
//   - to the user itself (r.Agent empty): A(prov) ⊆ A(u,t), and every
//     resource of prov is usable now by some agent of prov. The content was
//     produced by those agents with those resources; the user may see it
//     only while each of them could still produce it for that user.
//
// Whether r.Agent ∈ A(u,t) is the caller's question (it is asked once per
// request, not once per fragment).
func Admits(e Edges, r Reader, prov Provenance) Verdict {
	if ruleRemoved {
		return Verdict{OK: true}
	}
	for _, a := range prov.Agents {
		if !e.Invokes(r.User, a) {
			return Verdict{Agent: a}
		}
	}
	for _, res := range prov.Resources {
		if r.Agent != "" {
			if !e.Uses(r.Agent, res) {
				return Verdict{Resource: res, By: r.Agent}
			}
			continue
		}
		usable := false
		for _, a := range prov.Agents {
			if e.Uses(a, res) {
				usable = true
				break
			}
		}
		if !usable {
			return Verdict{Resource: res}
		}
	}
	return Verdict{OK: true}
}

// Admits applies the read rule on the graphs at p.
func (g *Graph) Admits(r Reader, prov Provenance, p Point) Verdict {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return Admits(pointEdges{g: g, p: p}, r, prov)
}

// Admissible reports whether a fragment with provenance prov is in M(u,a,p).
// It does not ask whether a ∈ A(u,p); a caller serving u through a checks
// that once with CanInvoke.
func (g *Graph) Admissible(user, agent string, prov Provenance, p Point) bool {
	return g.Admits(Reader{User: user, Agent: agent}, prov, p).OK
}

// pointEdges is the graph at one point; the caller holds g.mu.
type pointEdges struct {
	g *Graph
	p Point
}

func (e pointEdges) Invokes(user, agent string) bool { return e.g.ua.has(user, agent, e.p) }
func (e pointEdges) Uses(agent, resource string) bool {
	return e.g.ar.has(agent, resource, e.p)
}
