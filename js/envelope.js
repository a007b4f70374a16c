// How a snapshot is written to a store: one header line, then the snapshot.
//
//   reins1 <length of the snapshot> <HMAC-SHA256, base64url, or ->\n<snapshot>
//
// The length makes a partial write (a crash between two saves, a truncated
// copy) read as corrupt, never as a smaller valid memory; the signature,
// when the app sets a key, makes an edited or foreign snapshot read as
// tampered. The version after "reins" is the envelope's: a newer one is
// refused and left as it is.

const VERSION = 1;
const HEAD = /^reins([0-9]{1,6}) ([0-9]{1,10}) ([A-Za-z0-9_-]{43}|-)\n/;
const encoder = new TextEncoder();

/** A TypeError or RangeError about an option or argument, with its `code`. */
export function invalid(Kind, message) {
  return Object.assign(new Kind(message), { code: "REINS_INVALID_OPTION" });
}

/** Errors with a `code`, for store failures and refused snapshots. */
export class StoreError extends Error {
  constructor(code, message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "StoreError";
    this.code = code;
    if (details.key !== undefined) this.key = details.key;
    if (details.backupKey !== undefined) this.backupKey = details.backupKey;
  }
}

/**
 * A signing key, checked (a regulator checks it when it is made, not at its
 * first save): the CryptoKey as given, or the secret's raw bytes.
 */
export function checkSecret(secret) {
  if (typeof CryptoKey === "function" && secret instanceof CryptoKey) return secret;
  const bytes = typeof secret === "string" ? encoder.encode(secret) : secret instanceof Uint8Array || secret instanceof ArrayBuffer ? secret : undefined;
  if (bytes === undefined) throw invalid(TypeError, "signingKey: must be a string, a Uint8Array, an ArrayBuffer or an HMAC CryptoKey");
  if (bytes.byteLength < 16) throw invalid(RangeError, `signingKey: must be at least 16 bytes, got ${bytes.byteLength}`);
  return bytes;
}

// Imported keys, so a save does not import its key again: by object, and
// the last secret string (an app has one).
const keys = new WeakMap();
let lastText;
let lastKey;

/** An HMAC-SHA256 key from a secret string, bytes or a CryptoKey. */
async function hmacKey(secret) {
  if (typeof secret === "string" ? secret === lastText : keys.has(secret)) return typeof secret === "string" ? lastKey : keys.get(secret);
  if (globalThis.crypto?.subtle === undefined) {
    throw new StoreError("REINS_SIGNING_UNAVAILABLE", "signing: Web Crypto (crypto.subtle) is not available here");
  }
  const checked = checkSecret(secret);
  const raw = checked instanceof Uint8Array || checked instanceof ArrayBuffer;
  const key = raw ? await crypto.subtle.importKey("raw", checked, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]) : checked;
  if (typeof secret === "string") [lastText, lastKey] = [secret, key];
  else keys.set(secret, key);
  return key;
}

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function fromBase64url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=");
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** The snapshot in its envelope, signed when `secret` is given. */
export async function seal(snapshot, secret) {
  const sig = secret === undefined ? "-" : base64url(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(snapshot)));
  return `reins${VERSION} ${snapshot.length} ${sig}\n${snapshot}`;
}

/**
 * What a stored value holds: `{ snapshot }`, or `{ refused }` with a code
 * saying why it is not read. A bare snapshot (what apps stored with
 * `export()` before this layer) is read too, unless a key is required.
 */
export async function unseal(value, secret) {
  if (typeof value !== "string") {
    return { refused: "REINS_STORE_CORRUPT", why: `holds ${value === null ? "null" : typeof value}, not a string` };
  }
  const head = HEAD.exec(value);
  if (head === null) {
    if (/^reins[0-9]/.test(value)) return { refused: "REINS_STORE_CORRUPT", why: "has a malformed header" };
    if (value.startsWith("{")) {
      if (secret !== undefined) return { refused: "REINS_STORE_UNSIGNED", why: "is not signed, and a signing key is set" };
      return { snapshot: value };
    }
    return { refused: "REINS_STORE_CORRUPT", why: "is not a reins snapshot" };
  }
  if (Number(head[1]) > VERSION) {
    return { refused: "REINS_STORE_NEWER", why: `was written by a newer reins (envelope version ${head[1]}; this one reads ${VERSION})` };
  }
  if (Number(head[1]) < 1) return { refused: "REINS_STORE_CORRUPT", why: "has a malformed header" };
  const snapshot = value.slice(head[0].length);
  if (snapshot.length !== Number(head[2])) {
    return { refused: "REINS_STORE_CORRUPT", why: `is cut short or padded: ${snapshot.length} characters where the header says ${head[2]} (a partial write?)` };
  }
  if (secret !== undefined) {
    if (head[3] === "-") return { refused: "REINS_STORE_UNSIGNED", why: "is not signed, and a signing key is set" };
    const ok = await crypto.subtle.verify("HMAC", await hmacKey(secret), fromBase64url(head[3]), encoder.encode(snapshot));
    if (!ok) return { refused: "REINS_STORE_TAMPERED", why: "has a signature that does not match its content (edited, or signed with another key)" };
  }
  return { snapshot };
}

/**
 * Signs a snapshot for a trip through untrusted hands (a Worker hands a
 * user's memory to the browser and takes it back): the result is what
 * `verifySnapshot` accepts with the same key.
 */
export async function signSnapshot(snapshot, secret) {
  if (typeof snapshot !== "string") throw invalid(TypeError, "signSnapshot: snapshot must be a string");
  if (secret === undefined) throw invalid(TypeError, "signSnapshot: a key is required");
  return seal(snapshot, secret);
}

/** The snapshot inside a `signSnapshot` result, or a StoreError if unsigned or tampered. */
export async function verifySnapshot(sealed, secret) {
  if (secret === undefined) throw invalid(TypeError, "verifySnapshot: a key is required");
  const r = await unseal(sealed, secret);
  if (r.refused !== undefined) throw new StoreError(r.refused, `snapshot: ${r.why}`);
  return r.snapshot;
}
