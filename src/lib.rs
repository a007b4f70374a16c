//! # reins
//!
//! A reliability regulator for LLM agents. An agent loop reports small events
//! (the user's message, the response, token cost, tool calls and results,
//! quality feedback, corrections); reins answers each turn with a typed
//! decision: continue, halt a runaway loop or budget, warn that the answer
//! drifted from what was asked, or surface what this user corrected before.
//!
//! The core is pure and deterministic: it never reads a clock (time arrives as
//! `at_ms` on events), a random source (record ids come from an injected seed),
//! storage or the network.
//!
//! ```
//! use reins::{Config, DecisionKind, Regulator};
//!
//! let mut r = Regulator::new("alice", Config { cost_cap_tokens: 2000, ..Config::default() })?;
//! r.turn_start("Refactor fetch_user to be async", None)?;
//! r.turn_complete("Refactored fetch_user: it is now async.", None)?;
//! r.cost(25, 800, 900)?;
//! let d = r.decide();
//! assert_eq!(d.kind(), DecisionKind::Continue);
//!
//! let saved = r.export();
//! let restored = Regulator::import(&saved)?;
//! assert_eq!(restored.export(), saved);
//! # Ok::<(), reins::Error>(())
//! ```

pub mod chat;
pub mod config;
pub mod decision;
pub mod detect;
pub mod error;
pub mod event;
pub(crate) mod hash;
pub(crate) mod json;
pub(crate) mod packed;
pub mod regulator;
pub mod replay;
pub(crate) mod sort;
pub mod sorted_map;
pub mod state;
pub mod text;
#[cfg(target_arch = "wasm32")]
mod wasm;
pub(crate) mod work;

pub use config::{Config, CostScope, TokenBasis, ToolLoopRule};
pub use decision::{BreakReason, CorrectionPattern, Decision, DecisionKind, LoopPattern, Verdict};
pub use error::{Error, ErrorKind, Result};
pub use event::{Args, EffectHint, Event, EventRef};
pub use regulator::Regulator;
pub use state::{Memory, Snapshot};
