// A store of one file per key in a directory, for Node (and Deno's node:
// compatibility). Writes go to a temporary file renamed over the old one,
// so a crash leaves the previous value whole; compare-and-set holds a lock
// file, so processes that save the same user at once lose nothing.
/* @ts-self-types="./file-store.d.ts" */
import { createHash } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

// A lock older than this whose holder is gone (or unknown) is taken over.
const STALE_MS = 10_000;
const WAIT_MS = 30_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** `dir/<key as a file name>`; long keys are shortened by hash. */
function fileOf(dir, key) {
  const name = encodeURIComponent(key);
  if (name.length <= 180) return join(dir, name);
  return join(dir, `${name.slice(0, 100)}~${createHash("sha256").update(key).digest("hex")}`);
}

export function fileStore(dir) {
  if (typeof dir !== "string" || dir === "") {
    throw Object.assign(new TypeError("fileStore: dir must be a directory path"), { code: "REINS_INVALID_OPTION" });
  }
  let made;
  const ready = () => (made ??= mkdir(dir, { recursive: true }));

  async function read(file) {
    try {
      return await readFile(file, "utf8");
    } catch (e) {
      if (e.code === "ENOENT") return undefined;
      throw e;
    }
  }

  async function write(file, value) {
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const h = await open(tmp, "w");
    try {
      await h.writeFile(value, "utf8");
      await h.sync();
    } finally {
      await h.close();
    }
    await rename(tmp, file);
  }

  async function withLock(file, fn) {
    const lock = `${file}.lock`;
    const until = Date.now() + WAIT_MS;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        await writeFile(lock, String(process.pid), { flag: "wx" });
        break;
      } catch (e) {
        if (e.code !== "EEXIST") throw e;
        const holder = Number(await read(lock).catch(() => undefined));
        const age = Date.now() - (await stat(lock).then((s) => s.mtimeMs, () => Date.now()));
        if ((holder > 0 && !alive(holder)) || age > STALE_MS) {
          await rm(lock, { force: true });
          continue;
        }
        if (Date.now() > until) throw new Error(`fileStore: ${lock} is held by process ${holder || "?"}`);
        await sleep(pause);
      }
    }
    try {
      return await fn();
    } finally {
      await unlink(lock).catch(() => {});
    }
  }

  return {
    async get(key) {
      await ready();
      return read(fileOf(dir, key));
    },
    async set(key, value) {
      await ready();
      const file = fileOf(dir, key);
      await withLock(file, () => write(file, value));
    },
    async delete(key) {
      await ready();
      const file = fileOf(dir, key);
      await withLock(file, () => rm(file, { force: true }));
    },
    async setIf(key, expected, value) {
      await ready();
      const file = fileOf(dir, key);
      return withLock(file, async () => {
        if ((await read(file)) !== expected) return false;
        await write(file, value);
        return true;
      });
    },
  };
}
