// Serves the demo page (www/) and the built package (pkg/, at /pkg/) on
// 127.0.0.1 and prints the URL. `--port N` (default 8080; 0 or a busy port
// picks a free one). Nothing but Node; no caching, so a rebuild shows at once.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIRS = { "/pkg/": resolve(ROOT, "pkg"), "/": resolve(ROOT, "www") };
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

const arg = process.argv.indexOf("--port");
const wanted = arg > 0 ? Number(process.argv[arg + 1]) : 8080;

const server = createServer(async (req, res) => {
  let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  if (path.endsWith("/")) path += "index.html";
  const prefix = Object.keys(DIRS).find((p) => path.startsWith(p));
  const dir = DIRS[prefix];
  const file = resolve(dir, `.${path.slice(prefix.length - 1)}`);
  try {
    if (!file.startsWith(dir + sep)) throw new Error("outside");
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    res.end(body);
  } catch {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`not found: ${path}`);
  }
});

function listen(port) {
  server.once("error", (e) => {
    if (e.code === "EADDRINUSE" && port !== 0) listen(0);
    else throw e;
  });
  server.listen(port, "127.0.0.1", () => {
    console.log(`reins demo: http://127.0.0.1:${server.address().port}/`);
  });
}
listen(Number.isInteger(wanted) && wanted >= 0 ? wanted : 8080);
