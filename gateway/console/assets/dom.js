// Small DOM helpers: every text goes in as a text node, never as HTML.
const SVG = "http://www.w3.org/2000/svg";

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  return fill(el, attrs, children);
}

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  return fill(el, attrs, children);
}

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const fmtTime = (t) => (t ? new Date(t).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z") : "");

export const chips = (ids, cls) => h("span", { class: "chips" }, (ids || []).map((id) => h("span", { class: `chip ${cls || ""}` }, id)));

export function errorBox(err) {
  return h("p", { class: "error", "data-status": err.status || "" }, String(err.message || err));
}

// toRFC3339 turns a datetime-local value into RFC 3339 (UTC), "" stays "".
export const toRFC3339 = (v) => (v ? new Date(v).toISOString() : "");

// short shows the random tail of a UUIDv7 (its head is a timestamp that ids
// written together share).
export const short = (id) => (id ? id.slice(-8) : "");

// fragLink links a fragment id to the memory page (its audit, for admins).
export const fragLink = (id) => h("a", { href: `#/memory?fragment=${id}`, class: "chip fragment frag-link", title: id, "data-fragment-link": id }, short(id));
