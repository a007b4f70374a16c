//! The JS binding: the only place with `#[wasm_bindgen]`. It converts JS
//! values to Rust ones and delegates; every rule lives in the core.
//!
//! Hot calls take plain arguments (numbers cross for a few ns, objects for
//! ~1 µs). `decideJson` returns `undefined` on the continue path so the JS
//! wrapper can hand back a shared frozen object without building anything.

use wasm_bindgen::prelude::*;

#[cfg(feature = "replay-wasm")]
mod replay;

use crate::config::MAX_SAFE_INT;
use crate::event::{Args, EVENT_FIELDS, EffectHint};
use crate::{Config, Error, ErrorKind, EventRef, Regulator};

pub(crate) type JsResult<T> = Result<T, JsValue>;

/// A core error as the JS error class its kind names, with its `code`.
pub(crate) fn js_err(e: Error) -> JsValue {
    let msg = e.to_string();
    let err: JsValue = match e.kind() {
        ErrorKind::Type => js_sys::TypeError::new(&msg).into(),
        ErrorKind::Range => js_sys::RangeError::new(&msg).into(),
    };
    // Setting a property on a fresh error object cannot fail.
    let _ = js_sys::Reflect::set(&err, &"code".into(), &e.code().into());
    err
}

/// A JS number as a count: finite, whole, 0 to 2^53 − 1.
pub(crate) fn count(field: &str, v: f64) -> JsResult<u64> {
    if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= MAX_SAFE_INT as f64 {
        Ok(v as u64)
    } else {
        Err(js_err(Error::range_error(
            field,
            format!("must be a whole number from 0 to 2^53-1, got {v}"),
        )))
    }
}

/// Times may carry fractions (`performance.now()`); whole milliseconds are kept.
fn at(field: &str, v: Option<f64>) -> JsResult<Option<u64>> {
    v.map(|t| {
        count(
            field,
            if t.is_finite() && t >= 0.0 {
                t.floor()
            } else {
                t
            },
        )
    })
    .transpose()
}

/// Text the JS layer sent as UTF-8 bytes (`TextEncoder` output). Messages,
/// answers, snapshots and chat bodies cross this way: bytes are copied into
/// the module in one block, where a string parameter is copied by a JS loop
/// over its characters (94 µs of a 322 µs import of a 78 KB snapshot, Node 20).
fn utf8<'a>(field: &str, bytes: &'a [u8]) -> JsResult<&'a str> {
    std::str::from_utf8(bytes).map_err(|_| js_err(Error::type_error(field, "is not valid UTF-8")))
}

/// Random bits for record ids. Workers forbid randomness outside a request
/// handler; there the ids still differ by content, time and sequence.
fn random_seed() -> u64 {
    let mut b = [0u8; 8];
    match getrandom::fill(&mut b) {
        Ok(()) => u64::from_le_bytes(b),
        Err(_) => 0,
    }
}

#[wasm_bindgen]
pub struct RegulatorCore {
    inner: Regulator,
}

#[wasm_bindgen]
impl RegulatorCore {
    /// `config_json` is the options object minus `userId`, as JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(user_id: &str, config_json: &str) -> JsResult<RegulatorCore> {
        let config = Config::from_json(config_json).map_err(js_err)?;
        let inner = Regulator::new(user_id, config)
            .map_err(js_err)?
            .with_id_source(random_seed);
        Ok(Self { inner })
    }

    #[wasm_bindgen(js_name = import)]
    pub fn import_json(json: &[u8]) -> JsResult<RegulatorCore> {
        let inner = Regulator::import(utf8("snapshot", json)?)
            .map_err(js_err)?
            .with_id_source(random_seed);
        Ok(Self { inner })
    }

    /// A fresh regulator under the app's current options holding the memory
    /// of `json` (see `Regulator::restore`).
    pub fn restore(user_id: &str, config_json: &str, json: &[u8]) -> JsResult<RegulatorCore> {
        let json = utf8("snapshot", json)?;
        let config = Config::from_json(config_json).map_err(js_err)?;
        let inner = Regulator::restore(user_id, config, json)
            .map_err(js_err)?
            .with_id_source(random_seed);
        Ok(Self { inner })
    }

    /// Whether the module's memory has room for `bytes` more, grown now if
    /// it must be: the JS layer asks before a large input crosses, so an
    /// allocation that would fail (and trap the instance) becomes a
    /// `RangeError` instead. Wasm memory never shrinks, so room found here
    /// is there for the call that follows.
    pub fn reserve(bytes: f64) -> bool {
        let Some(n) = (bytes.is_finite() && bytes >= 0.0).then_some(bytes as usize) else {
            return false;
        };
        let mut room: Vec<u8> = Vec::new();
        room.try_reserve_exact(n).is_ok()
    }

    /// The longest snapshot `import` and `merge` accept, in UTF-8 bytes.
    /// The code of an error the JS layer makes about `field` (see `code_for`).
    #[wasm_bindgen(js_name = errorCode)]
    pub fn error_code(field: &str, message: &str) -> String {
        crate::error::code_for(field, message).to_string()
    }

    #[wasm_bindgen(js_name = maxSnapshotBytes)]
    pub fn max_snapshot_bytes() -> u32 {
        crate::state::MAX_SNAPSHOT_BYTES as u32
    }

    /// The longest options text accepted, in UTF-8 bytes.
    #[wasm_bindgen(js_name = maxChatBytes)]
    pub fn max_chat_bytes() -> u32 {
        crate::chat::MAX_CHAT_BYTES as u32
    }

    #[wasm_bindgen(js_name = maxConfigBytes)]
    pub fn max_config_bytes() -> u32 {
        crate::config::MAX_CONFIG_BYTES as u32
    }

    /// The event wire shape, `[[type, [[field, kind, required], …]], …]`, so
    /// the JS layer checks generic events against the same table as the core.
    #[wasm_bindgen(js_name = eventFields)]
    pub fn event_fields() -> String {
        let table: Vec<serde_json::Value> = EVENT_FIELDS
            .iter()
            .map(|(t, fs)| {
                let fields: Vec<serde_json::Value> = fs
                    .iter()
                    .map(|(n, k, r)| serde_json::json!([n, format!("{k:?}"), r]))
                    .collect();
                serde_json::json!([t, fields])
            })
            .collect();
        serde_json::to_string(&table).unwrap_or_default()
    }

    fn apply(&mut self, e: EventRef<'_>) -> JsResult<()> {
        self.inner.apply(e).map_err(js_err)
    }

    #[wasm_bindgen(js_name = turnStart)]
    pub fn turn_start(&mut self, message: &[u8], at_ms: Option<f64>) -> JsResult<()> {
        let message = utf8("turnStart.message", message)?;
        let at_ms = at("turnStart.atMs", at_ms)?;
        self.apply(EventRef::TurnStart { message, at_ms })
    }

    pub fn token(&mut self, logprob: Option<f64>, at_ms: Option<f64>) -> JsResult<()> {
        let at_ms = at("token.atMs", at_ms)?;
        self.apply(EventRef::Token { logprob, at_ms })
    }

    pub fn tokens(
        &mut self,
        logprobs: &[f64],
        unavailable: f64,
        at_ms: Option<f64>,
    ) -> JsResult<()> {
        let unavailable = count("tokens.unavailable", unavailable)?;
        let at_ms = at("tokens.atMs", at_ms)?;
        self.apply(EventRef::Tokens {
            logprobs,
            unavailable,
            at_ms,
        })
    }

    #[wasm_bindgen(js_name = turnComplete)]
    pub fn turn_complete(&mut self, response: &[u8], at_ms: Option<f64>) -> JsResult<()> {
        let response = utf8("turnComplete.response", response)?;
        let at_ms = at("turnComplete.atMs", at_ms)?;
        self.apply(EventRef::TurnComplete { response, at_ms })
    }

    pub fn cost(
        &mut self,
        tokens_in: f64,
        tokens_out: f64,
        wallclock_ms: f64,
        usd: Option<f64>,
        provider: Option<String>,
        at_ms: Option<f64>,
    ) -> JsResult<()> {
        let e = EventRef::Cost {
            tokens_in: count("cost.tokensIn", tokens_in)?,
            tokens_out: count("cost.tokensOut", tokens_out)?,
            wallclock_ms: count("cost.wallclockMs", wallclock_ms)?,
            provider: provider.as_deref(),
            usd,
            at_ms: at("cost.atMs", at_ms)?,
        };
        self.apply(e)
    }

    #[wasm_bindgen(js_name = qualityFeedback)]
    pub fn quality_feedback(&mut self, quality: f64, at_ms: Option<f64>) -> JsResult<()> {
        let at_ms = at("qualityFeedback.atMs", at_ms)?;
        self.apply(EventRef::QualityFeedback { quality, at_ms })
    }

    #[wasm_bindgen(js_name = userCorrection)]
    pub fn user_correction(
        &mut self,
        message: &[u8],
        corrects_last: bool,
        at_ms: Option<f64>,
    ) -> JsResult<()> {
        let message = utf8("userCorrection.message", message)?;
        let at_ms = at("userCorrection.atMs", at_ms)?;
        self.apply(EventRef::UserCorrection {
            message,
            corrects_last,
            at_ms,
        })
    }

    /// `args_json` is the arguments as JSON text (the JS layer stringifies objects).
    #[wasm_bindgen(js_name = toolCall)]
    pub fn tool_call(
        &mut self,
        name: &str,
        args_json: Option<String>,
        call_id: Option<String>,
        side_effect: Option<bool>,
        read_only: Option<bool>,
        at_ms: Option<f64>,
    ) -> JsResult<()> {
        let at_ms = at("toolCall.atMs", at_ms)?;
        let args = args_json.as_deref().map(Args::Json);
        self.apply(EventRef::ToolCall {
            name,
            args,
            call_id: call_id.as_deref(),
            effect: EffectHint::from_flags(side_effect, read_only),
            at_ms,
        })
    }

    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(js_name = toolResult)]
    pub fn tool_result(
        &mut self,
        name: &str,
        ok: bool,
        duration_ms: f64,
        error: Option<String>,
        result: Option<String>,
        call_id: Option<String>,
        at_ms: Option<f64>,
    ) -> JsResult<()> {
        let e = EventRef::ToolResult {
            name,
            ok,
            duration_ms: count("toolResult.durationMs", duration_ms)?,
            error: error.as_deref(),
            result: result.as_deref(),
            call_id: call_id.as_deref(),
            at_ms: at("toolResult.atMs", at_ms)?,
        };
        self.apply(e)
    }

    /// The concerns of the decision as JSON (winner first), or `undefined`
    /// when it is `continue`. The JS layer spreads the winner beside the list,
    /// so the winner is not serialised and parsed twice.
    #[wasm_bindgen(js_name = decideJson)]
    pub fn decide_json(&self) -> Option<String> {
        let d = self.inner.decide();
        if d.is_continue() {
            None
        } else {
            serde_json::to_string(&d.concerns).ok()
        }
    }

    pub fn export(&self) -> String {
        self.inner.export()
    }

    #[wasm_bindgen(js_name = mergeBehind)]
    pub fn merge_behind(&mut self, json: &[u8], texts: bool) -> JsResult<bool> {
        let json = utf8("snapshot", json)?;
        self.inner.merge_behind(json, texts).map_err(js_err)
    }

    #[wasm_bindgen(js_name = exportMemory)]
    pub fn export_memory(&self, texts: bool) -> String {
        self.inner.export_memory(texts)
    }

    #[wasm_bindgen(js_name = forgetMemory)]
    pub fn forget_memory(&mut self) {
        self.inner.forget_memory();
    }

    /// A u64 counter; crosses as a number (exact below 2^53, and compared
    /// only for change).
    #[wasm_bindgen(js_name = memoryRevision)]
    pub fn memory_revision(&self) -> f64 {
        self.inner.memory_revision() as f64
    }

    pub fn merge(&mut self, json: &[u8]) -> JsResult<()> {
        let json = utf8("snapshot", json)?;
        self.inner.merge(json).map_err(js_err)
    }

    /// What `injectCorrections` puts in front of the prompt, or `undefined`:
    /// the prompt itself never crosses into the module.
    #[wasm_bindgen(js_name = injectionHead)]
    pub fn injection_head(&self) -> Option<String> {
        self.inner.injection_head()
    }

    #[wasm_bindgen(js_name = correctionsPrelude)]
    pub fn corrections_prelude(&self) -> Option<String> {
        self.inner.corrections_prelude()
    }

    #[wasm_bindgen(js_name = metricsJson)]
    pub fn metrics_json(&self) -> String {
        serde_json::to_string(&self.inner.metrics()).unwrap_or_default()
    }

    #[wasm_bindgen(js_name = toolCountsJson)]
    pub fn tool_counts_json(&self) -> String {
        serde_json::to_string(self.inner.tool_counts()).unwrap_or_default()
    }

    #[wasm_bindgen(js_name = preferencesJson)]
    pub fn preferences_json(&self) -> String {
        let texts: Vec<&str> = self.inner.preferences().collect();
        serde_json::to_string(&texts).unwrap_or_default()
    }

    #[wasm_bindgen(js_name = learnedRulesJson)]
    pub fn learned_rules_json(&self) -> String {
        let rules: Vec<_> = self.inner.learned_rules().collect();
        serde_json::to_string(&rules).unwrap_or_default()
    }

    #[wasm_bindgen(js_name = dismissRule)]
    pub fn dismiss_rule(&mut self, id: &str, at_ms: f64) -> JsResult<bool> {
        let id = crate::detect::corrections::rules::parse_id(id).map_err(js_err)?;
        Ok(self.inner.dismiss_rule(id, Some(at_ms as u64)))
    }

    #[wasm_bindgen(js_name = correctionsJson)]
    pub fn corrections_json(&self) -> String {
        let records: Vec<_> = self.inner.corrections().collect();
        serde_json::to_string(&records).unwrap_or_default()
    }

    pub fn confidence(&self) -> f64 {
        self.inner.confidence()
    }

    #[wasm_bindgen(js_name = logprobCoverage)]
    pub fn logprob_coverage(&self) -> f64 {
        self.inner.logprob_coverage()
    }

    #[wasm_bindgen(js_name = driftScore)]
    pub fn drift_score(&self) -> Option<f64> {
        self.inner.drift_score()
    }

    pub fn topic(&self) -> String {
        self.inner.topic().to_string()
    }

    #[wasm_bindgen(js_name = userId)]
    pub fn user_id(&self) -> String {
        self.inner.user_id().to_string()
    }

    #[wasm_bindgen(js_name = configJson)]
    pub fn config_json(&self) -> String {
        serde_json::to_string(self.inner.config()).unwrap_or_default()
    }

    #[wasm_bindgen(js_name = setConfig)]
    pub fn set_config(&mut self, config_json: &str) -> JsResult<()> {
        let config = Config::from_json(config_json).map_err(js_err)?;
        self.inner.set_config(config).map_err(js_err)
    }

    #[wasm_bindgen(js_name = resetSession)]
    pub fn reset_session(&mut self) {
        self.inner.reset_session();
    }

    /// A chat-completions request's `messages`, as JSON text in UTF-8.
    #[wasm_bindgen(js_name = chatRequest)]
    pub fn chat_request(&mut self, messages_json: &[u8], end_ms: Option<f64>) -> JsResult<()> {
        let messages_json = utf8("chatRequest.messages", messages_json)?;
        let end_ms = at("chatRequest.atMs", end_ms)?;
        let messages = crate::chat::parse("messages", messages_json).map_err(js_err)?;
        self.inner.chat_request(&messages, end_ms).map_err(js_err)
    }

    /// A chat-completions response body, as JSON text in UTF-8.
    #[wasm_bindgen(js_name = chatResponse)]
    pub fn chat_response(
        &mut self,
        body_json: &[u8],
        at_ms: Option<f64>,
        duration_ms: f64,
    ) -> JsResult<()> {
        let body_json = utf8("chatResponse.body", body_json)?;
        let at_ms = at("chatResponse.atMs", at_ms)?;
        let duration_ms = count("chatResponse.durationMs", duration_ms)?;
        let body = crate::chat::parse("response", body_json).map_err(js_err)?;
        self.inner
            .chat_response(&body, at_ms, duration_ms)
            .map_err(js_err)
    }

    #[wasm_bindgen(js_name = maxTextBytes)]
    pub fn max_text_bytes(&self) -> u32 {
        self.inner.config().max_text_bytes
    }
}
