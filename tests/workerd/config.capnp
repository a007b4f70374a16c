# Raw workerd config for tests/workerd/run.mjs. Paths are relative to this
# file. The socket address below is a placeholder: run.mjs overrides it with
# --socket-addr http=127.0.0.1:<free port>.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .mainWorker),
    # The mock upstream of the proxy tests listens on 127.0.0.1.
    (name = "loopback", network = (allow = ["local", "private", "public"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ],
);

const mainWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "proxy.mjs", esModule = embed "proxy.mjs"),
    (name = "pkg/adapters/workers.js", esModule = embed "../../pkg/adapters/workers.js"),
    (name = "shared/scenario.mjs", esModule = embed "../shared/scenario.mjs"),
    (name = "pkg/entry-workerd.js", esModule = embed "../../pkg/entry-workerd.js"),
    (name = "pkg/reins.js", esModule = embed "../../pkg/reins.js"),
    # A wasm module import is a precompiled WebAssembly.Module, as on Cloudflare.
    (name = "pkg/reins_core_bg.wasm", wasm = embed "../../pkg/reins_core_bg.wasm"),
  ],
  compatibilityDate = "2026-11-01",  # must not be newer than the workerd build
  bindings = [
    (name = "USER_MEMORY", durableObjectNamespace = "UserMemory"),
    (name = "REINS_MEMORY", durableObjectNamespace = "ReinsMemory"),
    # A test secret (at least 16 bytes) for the signed-memory routes.
    (name = "SIGNING_KEY", text = "reins-workerd-test-signing-key-0123456789"),
  ],
  # One Durable Object per user holds that user's memory (worker.mjs).
  durableObjectNamespaces = [
    (className = "UserMemory", uniqueKey = "reins-test-user-memory"),
    (className = "ReinsMemory", uniqueKey = "reins-test-proxy-memory"),
  ],
  globalOutbound = "loopback",
  # Kept for the life of the workerd process: each run starts empty.
  durableObjectStorage = (inMemory = void),
);
