//! The replay binding: recorded runs read, replayed and swept inside the
//! module, so a large set crosses the boundary once, as file text.

use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::{JsResult, js_err};
use crate::Config;
use crate::error::Error;
use crate::replay::{Trace, format, import, many, oracle, report};

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn parse(field: &str, text: &str) -> JsResult<Value> {
    crate::chat::parse(field, text).map_err(js_err)
}

/// A report without its per-turn detail (`detail: false`).
fn brief(mut r: report::ReplayReport) -> report::ReplayReport {
    r.per_turn.clear();
    r.changes.clear();
    r
}

/// Recorded runs held in the module, replayed under one set of options.
#[wasm_bindgen]
pub struct Replayer {
    config: Config,
    estimate: bool,
    traces: Vec<Trace>,
    summary: many::Summary,
}

#[wasm_bindgen]
impl Replayer {
    /// `config_json`: regulator options (without `userId`) as JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str, estimate: bool) -> JsResult<Replayer> {
        Ok(Replayer {
            config: Config::from_json(config_json).map_err(js_err)?,
            estimate,
            traces: Vec::new(),
            summary: many::Summary::default(),
        })
    }

    /// Reads the file `text` called `name`, replays its runs and keeps them:
    /// `{reports, problems}` as JSON (reports without per-turn detail unless `detail`).
    #[wasm_bindgen(js_name = addFile)]
    pub fn add_file(&mut self, text: &str, name: &str, detail: bool) -> String {
        let got = import::import(text, name, self.estimate);
        let reports = self.add(got.traces, detail);
        // Written field by field: through a `Value` the keys would come out sorted.
        format!(
            r#"{{"reports":{},"problems":{}}}"#,
            json(&reports),
            json(&got.problems)
        )
    }

    /// Runs in the trace format (a JSON array of them, or one), replayed and kept.
    #[wasm_bindgen(js_name = addTraces)]
    pub fn add_traces(&mut self, traces_json: &str, detail: bool) -> JsResult<String> {
        let v = parse("traces", traces_json)?;
        let list = match &v {
            Value::Array(l) => l.iter().collect::<Vec<_>>(),
            one => vec![one],
        };
        let mut traces = Vec::with_capacity(list.len());
        for (i, t) in list.into_iter().enumerate() {
            let mut t =
                format::read(t, &format!("traces[{i}]"), &format!("trace-{i}")).map_err(js_err)?;
            if self.estimate {
                crate::replay::estimate::estimate_costs(&mut t);
            }
            traces.push(t);
        }
        Ok(json(&self.add(traces, detail)))
    }

    fn add(&mut self, traces: Vec<Trace>, detail: bool) -> Vec<report::ReplayReport> {
        let mut out = Vec::with_capacity(traces.len());
        for t in traces {
            let r = report::replay_report(&t, &self.config);
            self.summary.add(&r);
            out.push(if detail { r } else { brief(r) });
            self.traces.push(t);
        }
        out
    }

    /// The figures over every run added so far, as JSON.
    pub fn summary(&self) -> String {
        json(&self.summary)
    }

    /// Runs held.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.traces.len()
    }

    /// The held runs replayed under each combination of `grid_json`
    /// (`{option: [values]}`) over `base_json` options: the points, Pareto
    /// frontier first, as JSON.
    pub fn sweep(&self, base_json: &str, grid_json: &str) -> JsResult<String> {
        let base = match parse("options", base_json)? {
            Value::Object(m) => m,
            _ => return Err(js_err(Error::type_error("options", "must be an object"))),
        };
        let grid: Map<String, Value> = match parse("grid", grid_json)? {
            Value::Object(m) => m,
            _ => {
                return Err(js_err(Error::type_error(
                    "grid",
                    "must be an object of option → values",
                )));
            }
        };
        let mut lists = std::collections::BTreeMap::new();
        for (k, v) in grid {
            match v {
                Value::Array(vals) => {
                    lists.insert(k, vals);
                }
                other => {
                    return Err(js_err(Error::type_error(
                        format!("grid.{k}"),
                        format!(
                            "must be an array of values, got {}",
                            crate::event::describe(&other)
                        ),
                    )));
                }
            }
        }
        let points = many::sweep(&self.traces, &base, &lists).map_err(js_err)?;
        Ok(json(&points))
    }

    /// The held runs in the trace format, one JSON line each.
    #[wasm_bindgen(js_name = tracesJsonl)]
    pub fn traces_jsonl(&self) -> String {
        let mut out = String::new();
        for t in &self.traces {
            out.push_str(&format::to_json(t));
            out.push('\n');
        }
        out
    }
}

/// Reads a file of recorded runs: `{traces, problems}` as JSON, traces in the trace format.
#[wasm_bindgen(js_name = importTraces)]
pub fn import_traces(text: &str, name: &str, estimate: bool) -> String {
    let got = import::import(text, name, estimate);
    let traces: Vec<Value> = got
        .traces
        .iter()
        .map(|t| serde_json::from_str(&format::to_json(t)).unwrap_or(Value::Null))
        .collect();
    json(&serde_json::json!({ "traces": traces, "problems": got.problems }))
}

/// A chat message array, or a trace (its events as messages).
fn messages(field: &str, json: &str) -> JsResult<Value> {
    let v = parse(field, json)?;
    if format::is_trace(&v) {
        let t = format::read(&v, field, "trace").map_err(js_err)?;
        return Ok(oracle::messages_of(&t.events));
    }
    Ok(v)
}

/// Which earlier messages each message needs within `horizon` more: JSON.
#[wasm_bindgen(js_name = oracleDemand)]
pub fn oracle_demand(messages_json: &str, horizon: u32) -> JsResult<String> {
    let m = messages("messages", messages_json)?;
    Ok(json(
        &oracle::oracle_demand(&m, horizon as usize).map_err(js_err)?,
    ))
}

/// Faults of a keep-policy (`"recent:N"`, `"incremental"`, or `choose(t,
/// candidates) → kept`) against the look-ahead oracle under a budget: JSON.
#[wasm_bindgen(js_name = oracleGap)]
pub fn oracle_gap(
    messages_json: &str,
    policy: &str,
    horizon: u32,
    budget_tokens: f64,
    choose: Option<js_sys::Function>,
) -> JsResult<String> {
    let m = messages("messages", messages_json)?;
    let budget = super::count("budgetTokens", budget_tokens)?;
    let failed: std::rc::Rc<std::cell::RefCell<Option<JsValue>>> = Default::default();
    let mut policy = match choose {
        Some(f) => {
            let failed = failed.clone();
            oracle::Policy::Custom(Box::new(move |t, pool: &[usize]| {
                let candidates: Vec<u32> = pool.iter().map(|&u| u as u32).collect();
                let arg = js_sys::Uint32Array::from(&candidates[..]);
                match f.call2(&JsValue::NULL, &JsValue::from(t as u32), &arg) {
                    Ok(kept) => js_sys::Array::from(&kept)
                        .iter()
                        .filter_map(|v| v.as_f64())
                        .filter(|v| v.fract() == 0.0 && *v >= 0.0)
                        .map(|v| v as usize)
                        .collect(),
                    Err(e) => {
                        failed.borrow_mut().get_or_insert(e);
                        Vec::new()
                    }
                }
            }))
        }
        None => oracle::parse_policy(policy).map_err(js_err)?,
    };
    let gap = oracle::oracle_gap(&m, &mut policy, horizon as usize, budget).map_err(js_err)?;
    if let Some(e) = failed.borrow_mut().take() {
        return Err(e);
    }
    Ok(json(&gap))
}

#[wasm_bindgen]
impl Replayer {
    /// The gap report of `policy` over every held run (their events as
    /// messages): per run and in total, as JSON.
    pub fn oracle(&self, policy: &str, horizon: u32, budget_tokens: f64) -> JsResult<String> {
        let budget = super::count("budgetTokens", budget_tokens)?;
        let mut runs = Vec::with_capacity(self.traces.len());
        let mut total = serde_json::json!({"runs": 0, "references": 0, "onlineFaults": 0, "oracleFaults": 0, "gap": 0, "unavoidableFaults": 0});
        let mut sum = |k: &str, v: i64| total[k] = (total[k].as_i64().unwrap_or(0) + v).into();
        for t in &self.traces {
            let m = oracle::messages_of(&t.events);
            let mut p = oracle::parse_policy(policy).map_err(js_err)?;
            let d = oracle::oracle_demand(&m, horizon as usize).map_err(js_err)?;
            let g = oracle::oracle_gap(&m, &mut p, horizon as usize, budget).map_err(js_err)?;
            sum("runs", 1);
            sum("references", d.reference_count as i64);
            sum("onlineFaults", g.online_faults as i64);
            sum("oracleFaults", g.oracle_faults as i64);
            sum("gap", g.gap);
            sum("unavoidableFaults", g.unavoidable_faults as i64);
            runs.push(serde_json::json!({
                "id": t.id, "references": d.reference_count, "onlineFaults": g.online_faults,
                "oracleFaults": g.oracle_faults, "gap": g.gap, "unavoidableFaults": g.unavoidable_faults,
            }));
        }
        Ok(json(&serde_json::json!({
            "policy": policy, "horizon": horizon, "budgetTokens": budget, "runs": runs, "total": total,
        })))
    }
}
