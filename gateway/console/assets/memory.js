// Memory: the fragments visible to me through an agent, with their
// provenance; for admins, who read a fragment when and what was visible to
// whom at a moment (the audit trail).
import { api, get } from "./api.js";
import { h, fmtTime, chips, toRFC3339, errorBox, fragLink } from "./dom.js";

export async function memoryPage(root, ctx, params) {
  root.append(h("h2", {}, "Memory"));
  if (!ctx.me.admin || ctx.me.id !== "admin") await myMemory(root, ctx);
  if (ctx.me.admin) adminAudit(root, params.get("fragment") || "");
}

async function myMemory(root, ctx) {
  const access = await get(`/v1/access/${encodeURIComponent(ctx.me.id)}`);
  const agent = h("select", { id: "memory-agent" }, access.agents.map((a) => h("option", { value: a.id }, a.id)));
  const query = h("input", { id: "memory-query", type: "text", placeholder: "what to look for (empty: everything visible)", size: 40 });
  const k = h("input", { id: "memory-k", type: "number", min: 0, max: 100, value: 20 });
  const out = h("div", { id: "memory-out" });
  const load = async () => {
    out.replaceChildren();
    if (!agent.value) return out.append(h("p", { class: "hint" }, "You may not invoke any agent, so no memory is visible to you."));
    try {
      // No query: browse everything visible (no relevance floor).
      const req = { agent: agent.value, query: query.value || " ", k_user: Number(k.value), k_cross: Number(k.value) };
      if (!query.value) req.min_score = -1;
      const v = await api("POST", "/v1/memory/view", req);
      out.append(
        h("p", { class: "hint" }, `Memory view through ${agent.value} at revision ${v.graph_revision} (this read is itself recorded in the audit trail).`),
        h("h3", {}, `Private (${v.private.length})`), fragTable(v.private, "memory-private"),
        h("h3", {}, `Shared (${v.shared.length})`), fragTable(v.shared, "memory-shared"));
    } catch (e) {
      out.append(errorBox(e));
    }
  };
  // Click a fragment: the versions of its fact I may read through the agent.
  const hist = h("div", { id: "memory-history" });
  out.addEventListener("click", async (e) => {
    const row = e.target.closest("tr[data-fragment]");
    if (!row || e.target.closest("a")) return;
    hist.replaceChildren();
    try {
      const v = await get(`/v1/fragments/${encodeURIComponent(row.dataset.fragment)}/history`, { agent: agent.value });
      hist.append(h("h3", {}, `History of ${row.dataset.fragment} (${v.versions.length} version${v.versions.length === 1 ? "" : "s"} you may read)`),
        h("table", { class: "frags", id: "memory-history-table" },
          h("thead", {}, h("tr", {}, ["observed", "valid until", "value", "user", "recorded", "rev"].map((x) => h("th", {}, x)))),
          h("tbody", {}, v.versions.map((f) => h("tr", { class: f.id === v.current ? "current" : "" },
            h("td", {}, fmtTime(f.observed_at)), h("td", {}, f.valid_until ? fmtTime(f.valid_until) : "current"),
            h("td", { class: "value" }, f.value), h("td", {}, f.user), h("td", {}, fmtTime(f.created_at)), h("td", {}, f.revision))))));
    } catch (err) {
      hist.append(errorBox(err));
    }
  });
  root.append(h("div", { class: "controls" }, h("label", {}, "Agent ", agent), query, h("label", {}, "k ", k),
    h("button", { type: "button", id: "memory-show", onclick: load }, "Show")), out,
    h("p", { class: "hint" }, "Click a fragment for the versions of its fact you may read."), hist);
  agent.addEventListener("change", load);
  await load();
}

export function fragTable(list, id) {
  if (!list.length) return h("p", { class: "hint", id }, "None.");
  return h("table", { class: "frags", id },
    h("thead", {}, h("tr", {}, ["key", "value", "tier", "user", "agents", "resources", "created", "rev", "derived from"].map((x) => h("th", {}, x)))),
    h("tbody", {}, list.map((f) => h("tr", { "data-fragment": f.id, title: f.id },
      h("td", {}, f.key), h("td", { class: "value" }, f.value), h("td", {}, h("span", { class: `tier ${f.tier}` }, f.tier)),
      h("td", {}, f.user), h("td", {}, chips(f.agents, "agent")), h("td", {}, chips(f.resources, "resource")),
      h("td", {}, fmtTime(f.created_at)), h("td", {}, f.revision),
      h("td", {}, (f.derived_from || []).map(fragLink))))));
}

function adminAudit(root, fragment) {
  const id = h("input", { id: "audit-fragment", type: "text", placeholder: "fragment id", size: 40, value: fragment });
  const reads = h("div", { id: "audit-reads" });
  const showReads = async () => {
    reads.replaceChildren();
    if (!id.value.trim()) return;
    try {
      const rows = await get("/v1/audit/reads", { fragment: id.value.trim() });
      reads.append(rows.length === 0 ? h("p", { class: "hint" }, "Nobody has read this fragment.") :
        h("table", { class: "reads" },
          h("thead", {}, h("tr", {}, ["when", "user", "agent", "tier", "revision", "graph rev", "verdict"].map((x) => h("th", {}, x)))),
          h("tbody", {}, rows.map((r) => h("tr", { class: r.admissible ? "ok" : "violation" },
            h("td", {}, fmtTime(r.at)), h("td", {}, r.user), h("td", {}, r.agent), h("td", {}, r.tier), h("td", {}, r.revision),
            h("td", {}, r.graph_revision), h("td", {}, r.admissible ? "admissible" : `NOT admissible: ${r.reason}`))))));
    } catch (e) {
      reads.append(errorBox(e));
    }
  };
  const user = h("input", { id: "audit-user", placeholder: "user", size: 12 });
  const agent = h("input", { id: "audit-agent", placeholder: "agent", size: 12 });
  const at = h("input", { id: "audit-at", type: "datetime-local", step: 1 });
  const vis = h("div", { id: "audit-visible" });
  const showVisible = async () => {
    vis.replaceChildren();
    try {
      const v = await get("/v1/audit/visible", { user: user.value, agent: agent.value, at: toRFC3339(at.value) });
      vis.append(h("p", {}, `M(${v.user}, ${v.agent}, ${fmtTime(v.at)}) at revision ${v.revision}: ${v.fragments.length} fragments`),
        h("ul", { class: "ids" }, v.fragments.map((f) => h("li", {}, h("a", { href: `#/memory?fragment=${f}` }, f)))));
    } catch (e) {
      vis.append(errorBox(e));
    }
  };
  root.append(h("h3", {}, "Who read this fragment, when (audit)"),
    h("div", { class: "controls" }, id, h("button", { type: "button", onclick: showReads }, "Show reads")), reads,
    h("h3", {}, "What could a user see through an agent at a moment (audit)"),
    h("div", { class: "controls" }, user, agent, at, h("button", { type: "button", onclick: showVisible }, "Show visible")), vis);
  if (fragment) showReads();
}
