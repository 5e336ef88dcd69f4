// Access graph over time: users → agents → resources at any revision or
// time, with the grant and revoke events in between.
import { get } from "./api.js";
import { h, s, fmtTime, toRFC3339, errorBox } from "./dom.js";

// graphAt asks the API for the graphs at one point: the whole graph for an
// admin, the caller's own access for a user (the same answer shape).
export async function graphAt(me, params) {
  if (me.admin) return get("/v1/access", params);
  const a = await get(`/v1/access/${encodeURIComponent(me.id)}`, params);
  const resources = [...new Set(a.agents.flatMap((x) => x.resources))].sort();
  return { revision: a.revision, users: [{ id: a.user, agents: a.agents }], agents: a.agents.map((x) => x.id), resources };
}

export async function graphPage(root, ctx) {
  const me = ctx.me;
  const hist = await get("/v1/grants/changes");
  const head = hist.revision;
  const now = await graphAt(me, {});
  // Stable node sets: every node of now and of every change, so that moving
  // the slider moves edges, not nodes.
  const users = new Set(now.users.map((u) => u.id));
  const agents = new Set(now.agents);
  const resources = new Set(now.resources);
  for (const c of hist.changes) {
    if (c.graph === "user-agent") { users.add(c.from); agents.add(c.to); } else { agents.add(c.from); resources.add(c.to); }
  }
  const cols = [[...users].sort(), [...agents].sort(), [...resources].sort()];

  const label = h("span", { id: "graph-point" });
  const slider = h("input", { id: "graph-slider", type: "range", min: 0, max: head, value: head, step: 1 });
  const picker = h("select", { id: "graph-picker" },
    h("option", { value: head }, `now (revision ${head})`),
    hist.changes.slice().reverse().map((c) => h("option", { value: c.revision },
      `r${c.revision} ${c.granted ? "grant" : "revoke"} ${c.from} → ${c.to}`)),
    h("option", { value: 0 }, "revision 0 (empty)"));
  const at = h("input", { id: "graph-at", type: "datetime-local", step: 1 });
  const atBtn = h("button", { type: "button" }, "Show at time");
  const svgBox = h("div", { class: "graph-box" });
  const changes = h("div", { id: "graph-changes" });
  const err = h("div");
  root.append(
    h("h2", {}, "Access graph"),
    h("p", { class: "hint" }, me.admin ? "Every user, agent and resource. Drag the slider through the log's revisions." :
      "Your agents and the resources they may use, as the API shows them to you."),
    h("div", { class: "controls" }, h("label", {}, "Revision ", slider), label, picker, h("label", {}, "or at ", at), atBtn),
    err, svgBox, h("h3", {}, "Grant and revoke events"), changes);

  let shown = head;
  const show = async (params, rev) => {
    err.replaceChildren();
    try {
      const g = await graphAt(me, params);
      const r = rev ?? g.revision;
      svgBox.replaceChildren(draw(cols, g));
      label.textContent = params.at ? `at ${fmtTime(params.at)} (revision ≤ ${g.revision})` : `revision ${r}`;
      svgBox.dataset.revision = String(r);
      renderChanges(changes, hist.changes, shown, r);
      shown = r;
    } catch (e) {
      err.replaceChildren(errorBox(e));
    }
  };
  slider.addEventListener("input", () => show({ revision: slider.value }, Number(slider.value)));
  picker.addEventListener("change", () => { slider.value = picker.value; show({ revision: picker.value }, Number(picker.value)); });
  atBtn.addEventListener("click", () => { if (at.value) show({ at: toRFC3339(at.value) }); });
  await show({ revision: head }, head);
  ctx.listeners.add((ev) => {
    if (/grant|revok/.test(ev.type) && Number(slider.value) === head) svgBox.dataset.stale = "true";
  });
}

function renderChanges(box, list, from, to) {
  const lo = Math.min(from, to), hi = Math.max(from, to);
  box.replaceChildren(list.length === 0 ? h("p", { class: "hint" }, "No grants yet.") :
    h("table", { class: "changes" },
      h("thead", {}, h("tr", {}, ["revision", "time", "graph", "edge", "change"].map((x) => h("th", {}, x)))),
      h("tbody", {}, list.map((c) => h("tr", {
        class: [c.revision <= to ? "applied" : "future", c.revision > lo && c.revision <= hi ? "between" : ""].join(" "),
        "data-revision": c.revision,
      }, h("td", {}, c.revision), h("td", {}, fmtTime(c.at)), h("td", {}, c.graph),
      h("td", {}, `${c.from} → ${c.to}`), h("td", { class: c.granted ? "granted" : "revoked" }, c.granted ? "granted" : "revoked"))))));
}

// draw lays the three columns out and draws the edges of g.
function draw(cols, g) {
  const rowH = 34, colX = [150, 470, 790], top = 40;
  const n = Math.max(1, ...cols.map((c) => c.length));
  const height = top + n * rowH + 10;
  const pos = new Map();
  const kinds = ["user", "agent", "resource"];
  cols.forEach((ids, i) => ids.forEach((id, j) => pos.set(`${kinds[i]}:${id}`, [colX[i], top + j * rowH + rowH / 2])));
  const live = new Set();
  const edges = [];
  for (const u of g.users) {
    for (const a of u.agents) {
      edges.push(["user:" + u.id, "agent:" + a.id, a.expires_at]);
      live.add("user:" + u.id); live.add("agent:" + a.id);
      for (const r of a.resources) {
        edges.push(["agent:" + a.id, "resource:" + r, (a.resource_expiry || {})[r]]);
        live.add("resource:" + r);
      }
    }
  }
  const seen = new Set();
  const svg = s("svg", { id: "graph-svg", viewBox: `0 0 940 ${height}`, width: 940, height, role: "img", "aria-label": "access graph" });
  ["users", "agents", "resources"].forEach((t, i) => svg.append(s("text", { x: colX[i], y: 20, class: "col-title", "text-anchor": "middle" }, t)));
  for (const [a, b, expires] of edges) {
    const key = `${a}>${b}`;
    if (seen.has(key) || !pos.has(a) || !pos.has(b)) continue;
    seen.add(key);
    const [x1, y1] = pos.get(a), [x2, y2] = pos.get(b);
    // A grant with an expiry is drawn dashed, its end in the tooltip.
    svg.append(s("path", { class: expires ? "edge expiring" : "edge", "data-edge": key, "data-expires": expires,
      d: `M${x1 + 60},${y1} C${(x1 + x2) / 2},${y1} ${(x1 + x2) / 2},${y2} ${x2 - 60},${y2}` },
    expires ? s("title", {}, `expires ${fmtTime(expires)}`) : null));
  }
  for (const [id, [x, y]] of pos) {
    const [kind, name] = [id.slice(0, id.indexOf(":")), id.slice(id.indexOf(":") + 1)];
    svg.append(s("g", { class: `node ${kind} ${live.has(id) ? "on" : "off"}`, "data-node": id },
      s("rect", { x: x - 60, y: y - 12, width: 120, height: 24, rx: 12 }),
      s("text", { x, y: y + 4, "text-anchor": "middle" }, name)));
  }
  svg.dataset.edges = String(seen.size);
  return svg;
}
