// Type test of a consumer with nothing but the ES2022 lib: no DOM, no
// @types/node, no esnext.disposable, and skipLibCheck off, so every
// declaration file the package ships for these entries is checked too.
// Compiled by tsconfig.bare.json (NodeNext) and tsconfig.bare-bundler.json.
import {
  type Decision,
  type SigningKey,
  type Store,
  type StoreErrorEvent,
  Regulator,
  StoreError,
  forget,
  localStorageStore,
  memoryKey,
  memoryStore,
  openRegulator,
  signSnapshot,
  verifySnapshot,
} from "reins";
import { fileStore } from "reins/file-store";
// @ts-expect-error the keys of the dispose methods are types only, not exported
import { symbolDispose } from "reins";

const r = new Regulator({ userId: "alice", costCapTokens: 2000 });
r.turnStart("Refactor fetch_user to be async");
r.toolCall("search", { q: "x" }, { callId: "c1" });
r.toolResult("search", { ok: true, callId: "c1" });
r.turnComplete("Done.");
r.cost({ tokensIn: 10, tokensOut: 20 });
const d: Decision = r.decide();
const said: string = d.kind === "circuitBreak" ? d.suggestion : d.kind;
said;
r.free();

// A store over a Map, and one over anything shaped like Web Storage.
const map = new Map<string, string>();
const custom: Store = {
  get: async (key) => map.get(key),
  set: async (key, value) => void map.set(key, value),
  delete: async (key) => map.delete(key),
};
const items = new Map<string, string>();
const webStorageLike = {
  getItem: (key: string) => items.get(key) ?? null,
  setItem: (key: string, value: string) => void items.set(key, value),
  removeItem: (key: string) => void items.delete(key),
};

export async function persisted(): Promise<void> {
  const key: SigningKey = new Uint8Array(32);
  const s = await openRegulator({ userId: "alice", store: custom, signingKey: key, onError: (e: StoreError) => e.code });
  s.addEventListener("error", (e: StoreErrorEvent) => {
    const code: StoreError["code"] = e.error.code;
    const type: string = e.type;
    code + type;
  });
  s.addEventListener("error", () => {}, { once: true });
  s.removeEventListener("error", () => {}, false);
  s.turnStart("hi");
  const saved: boolean = await s.flush();
  saved;
  await s.close();
  await forget({ store: memoryStore(), userId: "alice" });
  const sealed = await signSnapshot(s.exportMemory(), "a-secret-of-16-bytes-or-more");
  await verifySnapshot(sealed, new ArrayBuffer(16));
  for (const store of [memoryStore(map), localStorageStore(webStorageLike), localStorageStore(), fileStore("/tmp/reins")]) {
    await store.get(memoryKey("alice"));
  }
  // @ts-expect-error a signing key is a secret (string, bytes) or a CryptoKey
  await signSnapshot("{}", 42);
  // @ts-expect-error a Web Storage needs removeItem
  localStorageStore({ getItem: () => null, setItem: () => {} });
  // @ts-expect-error a store is required
  await openRegulator({ userId: "alice" });
}
