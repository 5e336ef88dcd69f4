// Live: the log's events as they happen (metadata only; what an event is
// about is fetched through the API on the other pages).
import { h, fmtTime, short } from "./dom.js";

export const liveEvents = [];

export async function livePage(root, ctx) {
  const tbody = h("tbody", { id: "live-rows" });
  const row = (e) => h("tr", { "data-revision": e.revision, "data-type": e.type, "data-query": e.query, "data-fragment": e.fragment },
    h("td", {}, e.revision), h("td", {}, fmtTime(e.time)), h("td", {}, e.type),
    h("td", {}, e.user || ""), h("td", {}, e.agent || ""), h("td", {}, e.resource || ""),
    h("td", {}, short(e.query)), h("td", {}, e.fragment ? `${short(e.fragment)} ${e.tier || ""}` : ""),
    h("td", {}, e.actor || ""));
  tbody.append(...liveEvents.map(row));
  root.append(h("h2", {}, "Live events"),
    h("p", { class: "hint" }, ctx.me.admin ? "Every event on the log, as it is written (metadata, never content)." :
      "Events about you: your grants, your queries, your memory reads and fragments."),
    h("table", { class: "live" }, h("thead", {}, h("tr", {},
      ["revision", "time", "type", "user", "agent", "resource", "query", "fragment", "actor"].map((x) => h("th", {}, x)))), tbody));
  ctx.listeners.add((e) => tbody.prepend(row(e)));
}
