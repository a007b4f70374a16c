// With the DOM and esnext.disposable libs, the package's types are the
// lib's own: `using`, DOM Storage, CryptoKey, Event and listener options.
import { type StoreErrorEvent, Regulator, localStorageStore, memoryStore, openRegulator, signSnapshot, verifySnapshot } from "reins";

{
  using r = new Regulator({ userId: "a" });
  r.decide();
  const disposable: Disposable = r;
  disposable;
}

export async function dom(): Promise<void> {
  const stores = [localStorageStore(localStorage), localStorageStore(sessionStorage)];
  stores;
  const key: CryptoKey = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const sealed = await signSnapshot("{}", key);
  await verifySnapshot(sealed, key);

  await using s = await openRegulator({ userId: "a", store: memoryStore(), signingKey: key });
  const asyncDisposable: AsyncDisposable = s;
  asyncDisposable;
  const controller = new AbortController();
  const options: AddEventListenerOptions = { once: true, signal: controller.signal };
  const listener = (e: StoreErrorEvent) => {
    const event: Event = e;
    event.preventDefault();
    const target: EventTarget | null = e.target;
    target;
    e.error.code;
  };
  s.addEventListener("error", listener, options);
  s.addEventListener("error", listener, { passive: true, signal: AbortSignal.timeout(10) });
  const removal: EventListenerOptions = { capture: false };
  s.removeEventListener("error", listener, removal);
  controller.abort();

  // @ts-expect-error Web Storage needs setItem
  localStorageStore({ getItem: () => null, removeItem: () => {} });
  // @ts-expect-error the listener options are the DOM's
  s.addEventListener("error", listener, { signal: "stop" });
  // @ts-expect-error a Regulator is not async-disposable (a StoredRegulator is)
  const notAsync: AsyncDisposable = new Regulator({ userId: "b" });
  notAsync;
}
