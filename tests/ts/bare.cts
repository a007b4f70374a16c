// A CommonJS consumer (compiled to `require("reins")`) under NodeNext with
// the bare lib: Node 20.19+ can require this ESM-only package, and TypeScript
// 5.8+ allows it under NodeNext (5.7 and older report TS1479 here).
import { Regulator, memoryStore } from "reins";
import type { Store } from "reins";

const store: Store = memoryStore();
const r = new Regulator({ userId: "bob" });
r.turnStart("hi");
const kind: string = r.decide().kind;
export = { store, kind };
