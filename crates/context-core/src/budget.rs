//! A request's token budget, from its provider's model as upstream's
//! context-simple derives it: the context window, less a share of the
//! model's most output (the answer's room) and a safety margin; capped by
//! `max_tokens` when the plan sets it; `max_tokens_fallback` when the
//! provider does not say its window.

use amplifier_sdk::prelude::*;

/// `context:budget`: the budget and where it came from, when it changes.
pub const EVENT: &str = "context:budget";
/// The budget when the provider does not say its window (upstream's).
pub const DEFAULT_FALLBACK: u64 = 200_000;
/// Tokens kept free beyond the answer's share (upstream's), at most a
/// tenth of the window: upstream's 4096 would leave a 4096-token local
/// model (provider-local's default) no budget at all.
const SAFETY_MARGIN: u64 = 4096;

/// A model's `(context window, most output)` in tokens.
pub type Model = (u64, u64);

/// The budget settings of a context's config.
#[derive(Debug, Clone)]
pub struct Settings {
    pub cap: Option<u64>,
    pub fallback: u64,
    pub output_reserve_fraction: f64,
}

/// A derived budget with its provenance (upstream's `context:budget` payload).
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    /// `(context_window, max_output_tokens, reserved_output)` when the
    /// provider said its model's.
    pub model: Option<(u64, u64, u64)>,
    pub derived: u64,
    pub cap: Option<u64>,
    pub fallback: u64,
    pub effective: u64,
}

impl Settings {
    /// The budget for a model of `(context_window, max_output_tokens)`.
    pub fn derive(&self, model: Option<Model>) -> Budget {
        let (derived, model) = match model.filter(|(window, output)| *window > 0 && *output > 0) {
            Some((window, output)) => {
                let reserved = (output as f64 * self.output_reserve_fraction) as u64;
                let margin = SAFETY_MARGIN.min(window / 10);
                (window.saturating_sub(reserved).saturating_sub(margin).max(1), Some((window, output, reserved)))
            }
            None => (self.fallback, None),
        };
        let effective = self.cap.map_or(derived, |cap| derived.min(cap));
        Budget { model, derived, cap: self.cap, fallback: self.fallback, effective }
    }
}

impl Budget {
    pub fn payload(&self) -> JsonMap {
        let mut data = JsonMap::new();
        match self.model {
            Some((window, output, reserved)) => {
                data.insert("source".into(), json!("provider_model_info"));
                data.insert("context_window".into(), json!(window));
                data.insert("max_output_tokens".into(), json!(output));
                data.insert("reserved_output".into(), json!(reserved));
            }
            None => {
                data.insert("source".into(), json!("max_tokens_fallback"));
            }
        }
        data.insert("derived_budget".into(), json!(self.derived));
        data.insert("max_tokens".into(), json!(self.cap));
        data.insert("max_tokens_fallback".into(), json!(self.fallback));
        data.insert("capped".into(), json!(self.effective < self.derived));
        data.insert("effective_budget".into(), json!(self.effective));
        data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(cap: Option<u64>) -> Settings {
        Settings { cap, fallback: DEFAULT_FALLBACK, output_reserve_fraction: 0.5 }
    }

    #[test]
    fn the_window_less_half_the_output_and_the_margin_as_upstream() {
        // Upstream's test figures.
        assert_eq!(settings(None).derive(Some((1_048_576, 65_536))).effective, 1_011_712);
        assert_eq!(settings(None).derive(Some((200_000, 64_000))).effective, 163_904);
        let capped = settings(Some(100_000)).derive(Some((200_000, 64_000)));
        assert_eq!((capped.derived, capped.effective), (163_904, 100_000));
        assert_eq!(capped.payload()["capped"], true);
        let unknown = settings(None).derive(None);
        assert_eq!(unknown.effective, 200_000);
        assert_eq!(unknown.payload()["source"], "max_tokens_fallback");
        assert_eq!(settings(Some(1000)).derive(None).effective, 1000, "the cap applies to the fallback too");
        // provider-local's default: a 4096-token window, 512 out.
        assert_eq!(settings(None).derive(Some((4096, 512))).effective, 4096 - 256 - 409);
    }
}
