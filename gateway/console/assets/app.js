// The console shell: sign-in, navigation, the live connection.
import { api, token, setToken, clearToken, stream } from "./api.js";
import { h, errorBox } from "./dom.js";
import { graphPage } from "./graph.js";
import { matrixPage } from "./matrix.js";
import { memoryPage } from "./memory.js";
import { queriesPage } from "./queries.js";
import { livePage, liveEvents } from "./live.js";

const pages = { graph: graphPage, matrix: matrixPage, memory: memoryPage, queries: queriesPage, live: livePage };
const main = document.getElementById("main");
const ctx = { me: null, listeners: new Set() };
let stopStream = null;

async function signIn(t) {
  setToken(t);
  try {
    ctx.me = await api("GET", "/v1/me");
  } catch (e) {
    clearToken();
    throw e;
  }
  document.getElementById("nav").hidden = false;
  const who = document.getElementById("who");
  who.replaceChildren(
    h("span", { id: "whoami", "data-admin": ctx.me.admin }, `${ctx.me.id}${ctx.me.admin ? " (admin)" : ""}`),
    h("span", { id: "live-state", class: "state" }, "connecting"),
    h("button", { type: "button", onclick: signOut }, "Sign out"),
  );
  stopStream = stream((ev) => {
    liveEvents.unshift(ev);
    if (liveEvents.length > 500) liveEvents.pop();
    document.getElementById("live-count").textContent = String(liveEvents.length);
    for (const fn of ctx.listeners) fn(ev);
  }, (st) => { document.getElementById("live-state").textContent = st; });
  if (!location.hash || location.hash === "#/") location.hash = "#/graph";
  route();
}

function signOut() {
  if (stopStream) stopStream();
  clearToken();
  location.hash = "";
  location.reload();
}

async function route() {
  if (!ctx.me) return;
  const name = (location.hash.match(/^#\/(\w+)/) || [])[1] || "graph";
  const page = pages[name] || graphPage;
  for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("active", a.dataset.page === name);
  ctx.listeners.clear();
  const root = h("section", { id: `page-${name}`, class: "page" });
  main.replaceChildren(root);
  try {
    await page(root, ctx, new URLSearchParams(location.hash.split("?")[1] || ""));
  } catch (e) {
    root.append(errorBox(e));
  }
  root.dataset.ready = "true";
}

window.addEventListener("hashchange", route);
document.getElementById("signin").addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = document.getElementById("signin-error");
  err.textContent = "";
  try {
    await signIn(document.getElementById("token").value.trim());
  } catch (x) {
    err.textContent = x.message;
  }
});
if (token()) signIn(token()).catch(() => {});
