// Serves the demo page (www/) and the built package (pkg/, at /pkg/) on
// 127.0.0.1 and prints the URL. `--port N` (default 8080; 0 or a busy port
// picks a free one). Nothing but Node; no caching, so a rebuild shows at once.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { staticServer } from "./static.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const arg = process.argv.indexOf("--port");
const wanted = arg > 0 ? Number(process.argv[arg + 1]) : 8080;
const server = staticServer({ "/pkg/": resolve(ROOT, "pkg"), "/": resolve(ROOT, "www") });

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
