// A static file server for 127.0.0.1: the demo (scripts/serve.mjs) and the
// browser tests. `mounts` maps URL prefixes to directories, longest first
// wins; a path ending in "/" serves its index.html; nothing outside a
// mounted directory is served. No caching, so a rebuild shows at once.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, resolve, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** An http.Server (not yet listening) for `mounts`, adding `headers` to every file. */
export function staticServer(mounts, headers = {}) {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  return createServer(async (req, res) => {
    let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path.endsWith("/")) path += "index.html";
    const prefix = prefixes.find((p) => path.startsWith(p));
    try {
      if (prefix === undefined) throw new Error("not mounted");
      // The prefix's last "/" starts the path inside its directory.
      const dir = resolve(mounts[prefix]);
      const file = resolve(dir, `.${path.slice(prefix.length - 1)}`);
      if (!file.startsWith(dir + sep)) throw new Error("outside");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store", ...headers });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`not found: ${path}`);
    }
  });
}

/** `staticServer` listening on a free port of 127.0.0.1. */
export function listenStatic(mounts, headers) {
  const server = staticServer(mounts, headers);
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}
