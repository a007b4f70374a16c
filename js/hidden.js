// Symbols the package's own modules share and the public entry points do not
// export: the persistent wrapper reads the core through them.
export const REVISION = Symbol("reins.memoryRevision");
export const FORGET = Symbol("reins.forgetMemory");
export const MERGE_BEHIND = Symbol("reins.mergeBehind");
