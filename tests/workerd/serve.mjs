// Starts raw workerd on config.capnp at a free local port, for the workerd
// tests and the proxy benchmark. The child runs in its own process group
// and is killed when this process exits, on every path out.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKERD = `${ROOT}node_modules/.bin/workerd`;
const CONFIG = fileURLToPath(new URL("config.capnp", import.meta.url));

const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer().once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

/** Resolves to `{ base, tail, kill }` once workerd answers `GET /health`. */
export async function startWorkerd() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(WORKERD, ["serve", CONFIG, "--socket-addr", `http=127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group, so a JS launcher's native child dies with it
  });
  let log = "";
  const tail = () => (log.length > 2000 ? `…${log.slice(-2000)}` : log);
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  let exited = null;
  child.on("exit", (code, signal) => (exited = signal ?? code));
  const kill = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {} // already gone
  };
  process.on("exit", kill);
  for (let i = 0; i < 200; i++) {
    if (exited !== null) throw new Error(`workerd exited (${exited}) before serving:\n${tail()}`);
    try {
      if ((await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) })).ok) return { base, tail, kill };
    } catch {}
    await new Promise((r) => setTimeout(r, 25));
  }
  kill();
  throw new Error(`workerd not up after 5 s:\n${tail()}`);
}
