//! Cumulative spend and the quality trend: the cost-cap and quality-decline
//! circuit breaks.

use std::collections::VecDeque;

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use super::EPS;
use crate::config::{Config, TokenBasis};
use crate::decision::BreakReason;

/// Money totals stop growing here; far beyond any real budget, and finite.
const MAX_USD: f64 = 1e15;

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Budget {
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub wallclock_ms: u64,
    pub cost_events: u64,
    pub usd: f64,
    /// Quality samples, oldest first, at most `Config::quality_history`.
    pub quality: VecDeque<f64>,
}

crate::json::typed::from_json!(Budget {
    req tokens_in: "tokensIn",
    req tokens_out: "tokensOut",
    req wallclock_ms: "wallclockMs",
    req cost_events: "costEvents",
    req usd: "usd",
    req quality: "quality",
});

impl Budget {
    /// Starts spend over (a new task); the quality trend stays.
    pub fn reset_spend(&mut self) {
        let quality = std::mem::take(&mut self.quality);
        *self = Self {
            quality,
            ..Self::default()
        };
    }

    pub fn record_cost(
        &mut self,
        tokens_in: u64,
        tokens_out: u64,
        wallclock_ms: u64,
        usd: Option<f64>,
    ) {
        self.tokens_in = self.tokens_in.saturating_add(tokens_in);
        self.tokens_out = self.tokens_out.saturating_add(tokens_out);
        self.wallclock_ms = self.wallclock_ms.saturating_add(wallclock_ms);
        self.cost_events = self.cost_events.saturating_add(1);
        if let Some(u) = usd {
            self.usd = (self.usd + u).min(MAX_USD);
        }
    }

    pub fn record_quality(&mut self, quality: f64, keep: usize) {
        self.quality.push_back(quality);
        while self.quality.len() > keep {
            self.quality.pop_front();
        }
    }

    pub fn tokens_spent(&self, basis: TokenBasis) -> u64 {
        match basis {
            TokenBasis::Output => self.tokens_out,
            TokenBasis::Total => self.tokens_out.saturating_add(self.tokens_in),
        }
    }

    /// Mean of the newest `window` samples (fewer if fewer exist), summed
    /// oldest to newest; `None` with no samples.
    pub fn mean_recent(&self, window: usize) -> Option<f64> {
        let n = self.quality.len().min(window);
        if n == 0 {
            return None;
        }
        let sum: f64 = self.quality.iter().skip(self.quality.len() - n).sum();
        Some(sum / n as f64)
    }

    fn is_poor(mean: f64, cfg: &Config) -> bool {
        mean < cfg.poor_quality_mean - EPS
    }

    /// Over budget with poor recent quality, or with no quality signal at all.
    pub fn cost_break(&self, cfg: &Config) -> Option<BreakReason> {
        let spent = self.tokens_spent(cfg.token_cap_basis);
        let tokens_over = spent >= cfg.cost_cap_tokens;
        let usd_over = cfg.cost_cap_usd.is_some_and(|cap| self.usd + EPS >= cap);
        if !tokens_over && !usd_over {
            return None;
        }
        let mean = self.mean_recent(cfg.quality_window as usize);
        let fires = match mean {
            None => cfg.halt_over_cap_without_quality,
            Some(m) => Self::is_poor(m, cfg),
        };
        fires.then_some(BreakReason::CostCap {
            tokens_spent: spent,
            tokens_cap: cfg.cost_cap_tokens,
            usd_spent: self.usd,
            usd_cap: cfg.cost_cap_usd,
            mean_quality: mean,
            quality_samples: self.quality.len() as u32,
        })
    }

    /// Oldest-minus-newest across the window dropped by the configured delta
    /// and the window's mean is poor.
    pub fn decline_break(&self, cfg: &Config) -> Option<BreakReason> {
        let window = cfg.quality_window as usize;
        if self.quality.len() < window {
            return None;
        }
        let first = *self.quality.get(self.quality.len() - window)?;
        let last = *self.quality.back()?;
        let delta = first - last;
        let mean = self.mean_recent(window)?;
        (delta >= cfg.quality_decline_min_delta - EPS && Self::is_poor(mean, cfg)).then_some(
            BreakReason::QualityDecline {
                window: cfg.quality_window,
                delta,
                mean_quality: mean,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_quality(qs: &[f64]) -> Budget {
        let mut b = Budget::default();
        for &q in qs {
            b.record_quality(q, 20);
        }
        b
    }

    #[test]
    fn counters_saturate_instead_of_wrapping() {
        let mut b = Budget::default();
        b.record_cost(u64::MAX, u64::MAX - 1, 5, Some(1e14));
        b.record_cost(10, 10, u64::MAX, Some(1e15));
        assert_eq!(
            (b.tokens_in, b.tokens_out, b.wallclock_ms),
            (u64::MAX, u64::MAX, u64::MAX)
        );
        assert_eq!(b.usd, MAX_USD);
        assert_eq!(b.cost_events, 2);
    }

    #[test]
    fn history_keeps_the_newest() {
        let b = with_quality(&(0..25).map(|i| i as f64 / 100.0).collect::<Vec<_>>());
        assert_eq!(b.quality.len(), 20);
        assert_eq!(b.quality.front(), Some(&0.05));
        assert!((b.mean_recent(3).unwrap() - 0.23).abs() < 1e-12);
    }

    #[test]
    fn decline_does_not_flip_on_the_last_bit() {
        let cfg = Config::default();
        // 0.35 − 0.2 rounds below 0.15 and 0.45 − 0.3 above it; both are a 0.15 drop.
        let a = with_quality(&[0.35, 0.3, 0.2]).decline_break(&cfg);
        let b = with_quality(&[0.45, 0.3, 0.3]).decline_break(&cfg);
        assert!(a.is_some() && b.is_some(), "{a:?} {b:?}");
        assert!(
            with_quality(&[0.34, 0.3, 0.2])
                .decline_break(&cfg)
                .is_none()
        );
    }

    #[test]
    fn decline_needs_a_full_window_and_a_poor_mean() {
        let cfg = Config::default();
        assert!(with_quality(&[0.9, 0.1]).decline_break(&cfg).is_none());
        assert!(
            with_quality(&[0.9, 0.8, 0.7]).decline_break(&cfg).is_none(),
            "mean 0.8 is fine"
        );
        assert!(
            with_quality(&[0.3, 0.0, 0.29])
                .decline_break(&cfg)
                .is_none(),
            "flat is not a decline"
        );
        assert!(
            with_quality(&[0.3, 0.5, 0.7]).decline_break(&cfg).is_none(),
            "improving"
        );
        let Some(BreakReason::QualityDecline { delta, .. }) =
            with_quality(&[0.8, 0.5, 0.3, 0.2, 0.15]).decline_break(&cfg)
        else {
            panic!("expected a decline")
        };
        assert!((delta - 0.15).abs() < 1e-12);
    }

    #[test]
    fn cost_cap_with_poor_quality_absent_quality_and_good_quality() {
        let cfg = Config {
            cost_cap_tokens: 1000,
            ..Config::default()
        };
        let mut b = with_quality(&[0.3, 0.3, 0.3]);
        b.record_cost(0, 999, 0, None);
        assert!(b.cost_break(&cfg).is_none(), "under the cap");
        b.record_cost(0, 1, 0, None);
        assert!(matches!(
            b.cost_break(&cfg),
            Some(BreakReason::CostCap {
                tokens_spent: 1000,
                ..
            })
        ));

        let mut silent = Budget::default();
        silent.record_cost(0, 5000, 0, None);
        assert!(matches!(
            silent.cost_break(&cfg),
            Some(BreakReason::CostCap {
                mean_quality: None,
                ..
            })
        ));
        let lenient = Config {
            halt_over_cap_without_quality: false,
            ..cfg.clone()
        };
        assert!(silent.cost_break(&lenient).is_none());

        let mut good = with_quality(&[0.9, 0.9, 0.9]);
        good.record_cost(0, 5000, 0, None);
        assert!(good.cost_break(&cfg).is_none());
    }

    #[test]
    fn money_cap_and_total_token_basis() {
        let cfg = Config {
            cost_cap_usd: Some(0.3),
            ..Config::default()
        };
        let mut b = Budget::default();
        for _ in 0..3 {
            b.record_cost(10, 10, 0, Some(0.1));
        }
        assert!(
            b.cost_break(&cfg).is_some(),
            "0.1 × 3 reaches 0.3 despite rounding"
        );
        let total = Config {
            cost_cap_tokens: 100,
            token_cap_basis: TokenBasis::Total,
            ..Config::default()
        };
        let mut t = Budget::default();
        t.record_cost(90, 10, 0, None);
        assert!(t.cost_break(&total).is_some());
        assert!(
            t.cost_break(&Config {
                cost_cap_tokens: 100,
                ..Config::default()
            })
            .is_none()
        );
    }
}
