//! `context-simple`: conversation memory kept in memory.
//!
//! ```yaml
//! session:
//!   context:
//!     module: context-simple
//!     config:
//!       max_tokens: 100000          # a cap on the budget (default: the provider's model decides)
//!       compact_threshold: 0.92     # views use at most this share of the budget
//!       protected_tool_results: 5   # recent tool results never truncated
//!       truncate_chars: 250         # what an older tool result keeps
//!       protected_recent: 0.30      # share of recent messages never omitted
//! ```
//!
//! The history itself is never compacted: `get_messages` always returns all
//! of it, and each request gets a view that fits its token budget, announced
//! by `context:pre_compact`/`context:post_compact` and `context:compaction`.
//! As upstream's: the budget follows the provider's model (its window, less
//! half its most output and a margin; `context:budget` when it changes), and
//! a tool result over `max_tool_result_bytes` is cut as it enters. The history, the token
//! estimates and the compaction live in `amplifier-context-core`, shared
//! with `context-persistent`.

use amplifier_context_core::{Config, InMemoryContext};
use amplifier_sdk::prelude::*;

fn mount(ctx: MountContext) -> ModuleResult<InMemoryContext> {
    let config: Config = ctx.config()?;
    Ok(InMemoryContext::new(&config, ctx.host))
}

export_module!(context => mount);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_is_the_shared_one_and_rejects_unknown_keys() {
        use serde::Deserialize;
        let parse = |config: Value| Config::deserialize(config);
        assert_eq!(parse(json!({"max_tokens": 1000})).unwrap().max_tokens, Some(1000));
        assert!(parse(json!({"max_messages": 100})).is_err());
    }
}
