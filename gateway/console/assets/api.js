// The console's only way to the server: the HTTP API with the signed-in token.
const KEY = "cmem.token";

export const token = () => sessionStorage.getItem(KEY);
export const setToken = (t) => sessionStorage.setItem(KEY, t);
export const clearToken = () => sessionStorage.removeItem(KEY);

export class APIError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code;
  }
}

export async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${token()}` };
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!res.ok && res.status !== 202) throw new APIError(res.status, data);
  return data;
}

export const get = (path, params) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  const s = q.toString();
  return api("GET", s ? `${path}?${s}` : path);
};

// stream reads GET /v1/events/stream (server-sent events) with the bearer
// token, which EventSource cannot send; onEvent gets each parsed event.
// It reconnects after a drop, resuming after the last revision seen.
export function stream(onEvent, onState) {
  let last = 0, stopped = false, ctrl = null;
  const run = async () => {
    while (!stopped) {
      ctrl = new AbortController();
      try {
        const res = await fetch(`/v1/events/stream?after=${last}`, {
          headers: { Authorization: `Bearer ${token()}` }, signal: ctrl.signal,
        });
        if (!res.ok) throw new APIError(res.status, null);
        onState("live");
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
            if (!data) continue;
            const ev = JSON.parse(data);
            last = Math.max(last, ev.revision);
            onEvent(ev);
          }
        }
      } catch (e) {
        if (stopped) return;
        onState(e.status === 401 || e.status === 403 ? "refused" : "reconnecting");
        if (e.status === 401 || e.status === 403) return;
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  };
  run();
  return () => { stopped = true; if (ctrl) ctrl.abort(); };
}
