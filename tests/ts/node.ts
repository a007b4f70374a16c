// A Node project: the ES2022 lib with @types/node, no DOM. `using` works
// through @types/node's Symbol.dispose, and a webcrypto CryptoKey signs.
import { webcrypto } from "node:crypto";
import { type StoreErrorEvent, Regulator, openRegulator, memoryStore, signSnapshot } from "reins";
import { fileStore } from "reins/file-store";
import { initSync } from "reins/slim";
import { readFileSync } from "node:fs";

{
  using r = new Regulator({ userId: "a" });
  r.decide();
}

export async function node(): Promise<void> {
  const key: webcrypto.CryptoKey = await webcrypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  await signSnapshot("{}", key);
  await using s = await openRegulator({ userId: "a", store: fileStore("/tmp/reins"), signingKey: key });
  const listener = (e: StoreErrorEvent) => {
    e.preventDefault();
    e.error.code;
  };
  s.addEventListener("error", listener, { signal: AbortSignal.timeout(10) });
  s.removeEventListener("error", listener);
  memoryStore();
  initSync({ module: readFileSync("reins_core_bg.wasm") });
}
