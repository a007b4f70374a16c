//! tau-bench result files → traces.
//!
//! A tau-bench run writes a JSON array of records
//! `{task_id, trial, reward, info, traj}`, where `traj` is the OpenAI chat
//! transcript of one simulated conversation (see [`super::openai`]). Each
//! record becomes a [`Trace`] with id `{task_id}-{trial}` and
//! `success = reward ≥ 1` (tau-bench rewards are 0 or 1; a missing or `null`
//! reward gives `success: None`). `info` is ignored.

use serde_json::{Map, Value};

use super::Trace;
use super::openai::events_at;
use crate::error::{Error, Result};
use crate::event::describe;

/// Parses a tau-bench result file (JSON text) into traces, in file order.
/// Errors name the field, e.g. `records[12].traj[3].role`.
pub fn tau_bench(json: &str) -> Result<Vec<Trace>> {
    let value: Value = serde_json::from_str(json)
        .map_err(|e| Error::type_error("records", format!("is not JSON: {e}")))?;
    let records = value.as_array().ok_or_else(|| {
        Error::type_error(
            "records",
            format!(
                "must be an array of tau-bench records, got {}",
                describe(&value)
            ),
        )
    })?;
    records
        .iter()
        .enumerate()
        .map(|(i, record)| tau_record(record, &format!("records[{i}]")))
        .collect()
}

/// Whether `v` looks like a tau-bench result file.
pub fn is_tau_bench(v: &Value) -> bool {
    v.as_array()
        .and_then(|r| r.first())
        .is_some_and(|r| r.get("traj").is_some() && r.get("task_id").is_some())
}

/// One tau-bench record; `here` is its position (`records[12]`).
pub fn tau_record(record: &Value, here: &str) -> Result<Trace> {
    let obj = record.as_object().ok_or_else(|| {
        Error::type_error(here, format!("must be an object, got {}", describe(record)))
    })?;
    let task = id_part(obj, "task_id", here)?;
    let trial = id_part(obj, "trial", here)?;
    let reward = match obj.get("reward") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(r) => Some(r),
            None => {
                return Err(Error::range_error(
                    format!("{here}.reward"),
                    format!("must be a finite number, got {n}"),
                ));
            }
        },
        Some(other) => {
            return Err(Error::type_error(
                format!("{here}.reward"),
                format!("must be a number, got {}", describe(other)),
            ));
        }
    };
    let traj_at = format!("{here}.traj");
    let traj = obj
        .get("traj")
        .ok_or_else(|| Error::type_error(traj_at.as_str(), "is missing"))?;
    Ok(Trace {
        id: format!("{task}-{trial}"),
        success: reward.map(|r| r >= 1.0),
        events: events_at(traj, &traj_at)?,
        source: Some("tau-bench".into()),
        reward,
        ..Trace::default()
    })
}

/// `task_id` or `trial`: a number or a string.
fn id_part(obj: &Map<String, Value>, key: &str, here: &str) -> Result<String> {
    match obj.get(key) {
        Some(Value::Number(n)) => Ok(n.to_string()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(Error::type_error(
            format!("{here}.{key}"),
            format!("must be a number or a string, got {}", describe(other)),
        )),
        None => Err(Error::type_error(format!("{here}.{key}"), "is missing")),
    }
}
