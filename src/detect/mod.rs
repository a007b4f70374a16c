//! One file per detector. Each holds its own bounded state and answers with
//! an optional concern; `regulator.rs` routes events and ranks the answers.

pub mod args;
pub mod budget;
pub mod confidence;
pub mod corrections;
pub mod drift;
pub mod failing;
pub mod incidents;
pub mod insist;
pub mod markers;
pub mod preferences;
pub mod scope;
pub mod tools;

/// Float comparisons against thresholds allow this much slack, so a value
/// that is mathematically on the threshold (0.45 − 0.3 = 0.15) does not flip
/// on the last bit of rounding.
pub(crate) const EPS: f64 = 1e-9;
