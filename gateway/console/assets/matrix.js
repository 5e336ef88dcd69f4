// Access matrix (the paper's Fig. 6/11): users × agents and users ×
// resources, granted cells marked, usage counts for a chosen window.
import { get } from "./api.js";
import { h, s, toRFC3339, errorBox } from "./dom.js";
import { graphAt } from "./graph.js";

export async function matrixPage(root, ctx) {
  const from = h("input", { id: "matrix-from", type: "datetime-local", step: 1 });
  const to = h("input", { id: "matrix-to", type: "datetime-local", step: 1 });
  const preset = h("select", { id: "matrix-window" },
    ["all", "1h", "24h", "7d"].map((p) => h("option", { value: p }, p === "all" ? "all time" : `last ${p}`)));
  const body = h("div", { id: "matrix-body" });
  const load = async () => {
    const params = {};
    const hours = { "1h": 1, "24h": 24, "7d": 168 }[preset.value];
    if (hours) params.from = new Date(Date.now() - hours * 3600e3).toISOString();
    if (from.value) params.from = toRFC3339(from.value);
    if (to.value) params.to = toRFC3339(to.value);
    body.replaceChildren();
    try {
      const [g, usage] = await Promise.all([graphAt(ctx.me, {}), get("/v1/usage", params)]);
      render(body, g, usage);
    } catch (e) {
      body.replaceChildren(errorBox(e));
    }
  };
  root.append(h("h2", {}, "Access matrix"),
    h("p", { class: "hint" }, "Filled cells are granted now; numbers count agent turns and resource calls in the window's queries. A number on an empty cell was used while granted and has been revoked since."),
    h("div", { class: "controls" }, h("label", {}, "Window ", preset), h("label", {}, "from ", from), h("label", {}, "to ", to),
      h("button", { type: "button", onclick: load }, "Apply")),
    body);
  preset.addEventListener("change", load);
  await load();
}

function render(box, g, usage) {
  const users = g.users.map((u) => u.id);
  const byUser = new Map(usage.users.map((r) => [r.user, r]));
  const agentCols = [...new Set([...g.agents, ...usage.users.flatMap((r) => Object.keys(r.agents))])].sort();
  const resCols = [...new Set([...g.resources, ...usage.users.flatMap((r) => Object.keys(r.resources))])].sort();
  const grantedUA = new Set(), grantedUR = new Set();
  for (const u of g.users) for (const a of u.agents) {
    grantedUA.add(`${u.id}|${a.id}`);
    for (const r of a.resources) grantedUR.add(`${u.id}|${r}`);
  }
  box.append(
    h("h3", {}, "Users × agents"),
    grid("matrix-ua", users, agentCols, (u, a) => [grantedUA.has(`${u}|${a}`), byUser.get(u)?.agents[a] || 0]),
    h("h3", {}, "Users × resources (through their agents)"),
    grid("matrix-ur", users, resCols, (u, r) => [grantedUR.has(`${u}|${r}`), byUser.get(u)?.resources[r] || 0]),
    h("p", { class: "hint" }, `${usage.users.reduce((n, r) => n + r.queries, 0)} queries in the window${usage.truncated ? " (only the newest counted)" : ""}.`));
}

function grid(id, rows, cols, cell) {
  const cw = 74, ch = 30, left = 110, top = 100;
  const width = left + cols.length * cw + 10, height = top + rows.length * ch + 10;
  const svg = s("svg", { id, class: "matrix", viewBox: `0 0 ${width} ${height}`, width, height, role: "img" });
  const max = Math.max(1, ...rows.flatMap((r) => cols.map((c) => cell(r, c)[1])));
  cols.forEach((c, j) => svg.append(s("text", { class: "col-label", transform: `translate(${left + j * cw + cw / 2},${top - 8}) rotate(-40)` }, c)));
  rows.forEach((r, i) => {
    svg.append(s("text", { class: "row-label", x: left - 8, y: top + i * ch + ch / 2 + 4, "text-anchor": "end" }, r));
    cols.forEach((c, j) => {
      const [granted, n] = cell(r, c);
      const heat = n ? 0.25 + 0.75 * (n / max) : 0;
      const g = s("g", { class: `cell ${granted ? "granted" : "denied"} ${n ? "used" : ""}`, "data-cell": `${r}|${c}`, "data-count": n },
        s("rect", { x: left + j * cw + 2, y: top + i * ch + 2, width: cw - 4, height: ch - 4, rx: 4 }));
      if (n) {
        g.append(s("rect", { class: "heat", x: left + j * cw + 2, y: top + i * ch + 2, width: cw - 4, height: ch - 4, rx: 4, "fill-opacity": heat.toFixed(2) }));
        g.append(s("text", { x: left + j * cw + cw / 2, y: top + i * ch + ch / 2 + 4, "text-anchor": "middle" }, n));
      }
      svg.append(g);
    });
  });
  return svg;
}
