// Lets `./index.js` resolve everywhere (Deno does not map .js to .d.ts as
// tsc does); the entry files are what consumers import.
/* @ts-self-types="./index.d.ts" */
export * from "./api.js";
