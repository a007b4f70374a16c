// Type test of the persistence layer: compiles under strict settings, and
// the marked lines must not.
import {
  type Store,
  type StoreError,
  type StoredRegulator,
  Regulator,
  indexedDbStore,
  localStorageStore,
  memoryStore,
  openRegulator,
  signSnapshot,
  verifySnapshot,
} from "reins";
import { fileStore } from "reins/file-store";

// A store over any key-value client, in a few lines.
const map = new Map<string, string>();
const custom: Store = {
  get: async (key) => map.get(key),
  set: async (key, value) => void map.set(key, value),
  delete: async (key) => map.delete(key),
};

export async function usage(): Promise<void> {
  await using r: StoredRegulator = await openRegulator({
    userId: "alice",
    store: custom,
    costCapTokens: 20_000,
    saveDelayMs: 100,
    signingKey: "a-secret-of-16-bytes-or-more",
    onError: (e: StoreError) => console.warn(e.code, e.backupKey),
  });
  r.addEventListener("error", (e) => {
    const code: StoreError["code"] = e.error.code;
    code;
  });
  r.turnStart("hi");
  const saved: boolean = await r.flush();
  saved;
  const memory: string = r.exportMemory({ texts: false });
  const back = Regulator.restore(memory, { userId: "alice", costCapTokens: 5 });
  back.free();
  const sealed = await signSnapshot(memory, new Uint8Array(32));
  await verifySnapshot(sealed, new Uint8Array(32));
  for (const s of [memoryStore(), localStorageStore(), indexedDbStore({ database: "app" }), fileStore("/tmp/x")]) s.get("k");

  // @ts-expect-error a store is required
  await openRegulator({ userId: "alice" });
  // @ts-expect-error a store needs delete
  await openRegulator({ userId: "alice", store: { get: async () => undefined, set: async () => {} } });
  // @ts-expect-error storeTexts is a boolean
  await openRegulator({ userId: "alice", store: custom, storeTexts: "no" });
  // @ts-expect-error exportMemory takes texts only
  r.exportMemory({ session: true });
}
