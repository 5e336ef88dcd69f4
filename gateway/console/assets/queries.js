// Queries: mine (everyone's for an admin), each with its steps, resource
// calls, fragments read and written, and what was withheld.
import { api, get } from "./api.js";
import { h, fmtTime, chips, errorBox, short, fragLink } from "./dom.js";

export async function queriesPage(root, ctx) {
  const list = h("div", { id: "queries-list" });
  const load = async () => {
    try {
      const ans = await get("/v1/queries", { limit: 50 });
      list.replaceChildren(...(ans.queries.length === 0 ? [h("p", { class: "hint" }, "No queries yet.")] : ans.queries.map(card)));
    } catch (e) {
      list.replaceChildren(errorBox(e));
    }
  };
  root.append(h("h2", {}, ctx.me.admin ? "Queries (every user)" : "My queries"));
  if (!ctx.me.admin || ctx.me.id !== "admin") {
    const text = h("input", { id: "ask-text", type: "text", size: 60, placeholder: "Ask the agents…" });
    const status = h("span", { class: "hint" });
    const ask = async () => {
      if (!text.value.trim()) return;
      status.textContent = "asking…";
      try {
        await api("POST", "/v1/queries", { text: text.value.trim() });
        status.textContent = "";
        text.value = "";
        await load();
      } catch (e) {
        status.textContent = e.message;
      }
    };
    root.append(h("div", { class: "controls" }, text, h("button", { type: "button", onclick: ask }, "Ask"), status));
  }
  root.append(list);
  await load();
  let timer = null;
  ctx.listeners.add((ev) => {
    if (!ev.query) return;
    clearTimeout(timer);
    timer = setTimeout(load, 300);
  });
}

// withheld renders a withheld/refused field of any shape the API gives.
function withheld(label, v) {
  if (v === undefined || v === null || v === "" || (Array.isArray(v) && !v.length)) return null;
  const items = Array.isArray(v) ? v : [v];
  return h("div", { class: "withheld" }, h("strong", {}, `${label}: `),
    items.map((x) => h("span", { class: "chip withheld-item" }, typeof x === "string" ? x : JSON.stringify(x))));
}

function card(q) {
  return h("article", { class: `card query ${q.status}`, "data-query": q.id },
    h("header", {}, h("span", { class: `status ${q.status}` }, q.status), outcome(q.outcome), h("strong", {}, q.text || "(no text)"),
      h("span", { class: "meta" }, `${q.user} · ${fmtTime(q.submitted_at)} · r${q.revision} · ${short(q.id)}`)),
    q.answer ? h("p", { class: "answer" }, q.answer) : null,
    label(q.label),
    q.error ? h("p", { class: "error" }, q.error) : null,
    withheld("withheld", q.withheld),
    h("ol", { class: "steps" }, q.steps.map((st) => h("li", { class: "step", "data-agent": st.agent },
      h("div", {}, h("span", { class: "chip agent" }, st.agent), " ", h("em", {}, st.subquery)),
      st.response ? h("div", { class: "response" }, st.response) : null,
      label(st.label),
      withheld("refused", st.refused), withheld("withheld", st.withheld),
      st.resource_calls.length ? h("div", { class: "calls" }, "resource calls: ",
        st.resource_calls.map((c) => h("span", { class: `chip resource ${c.error ? "failed" : ""}`, title: JSON.stringify(c.arguments || {}) },
          `${c.resource} (${Math.round(c.duration_ms)} ms${c.error ? ", " + c.error : ""})`))) : null))),
    h("div", { class: "frag-ids" }, "read: ", fragLinks(q.fragments_read), " written: ", fragLinks(q.fragments_written)));
}

// outcome shows what the user was given: answer, answer_redacted (from a
// scope read only as a redacted summary), refuse or no_memory.
function outcome(o) {
  if (!o) return null;
  return h("span", { class: `outcome ${o}`, "data-outcome": o, title: "outcome" }, o.replace("_", " "));
}

// label shows the provenance the API attached to a text.
function label(l) {
  if (!l) return null;
  return h("div", { class: "label" }, "provenance: ", chips(l.agents, "agent"), " ", chips(l.resources, "resource"),
    l.fragments && l.fragments.length ? [" from ", h("span", { class: "chips" }, l.fragments.map(fragLink))] : null);
}

const fragLinks = (ids) => (ids && ids.length ? h("span", { class: "chips" }, ids.map(fragLink)) : "none");
