import type { Store } from "./index.js";

/**
 * One file per key in `dir` (created if missing). Writes replace the file
 * atomically (a temporary file renamed over it); `setIf` holds a lock file,
 * so several processes saving one user lose nothing. Node, and Deno with
 * `--allow-read --allow-write`.
 */
export declare function fileStore(dir: string): Store;
