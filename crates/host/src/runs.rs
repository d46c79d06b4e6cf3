//! Orchestrators' run states in the session store: the kernel's
//! [`RunStates`] service (`runs.*` host operations) for every hosted
//! session, and what `amplifier serve` reads for `GET /v1/runs/{thread}`.
//! The store opens on first use, so a plan without a run-keeping
//! orchestrator never touches it.

use std::sync::Arc;

use amplifier_kernel::services::RunStates;
use amplifier_kernel::traits::{BoxFuture, ModuleResult};
use amplifier_kernel::{Coordinator, ModuleError};
use amplifier_store::{Store, StoreError};
use serde_json::Value;

use crate::lazy_store::LazyStore;

/// A thread's stored state, `None` when it has none.
pub fn load(store: &Store, thread: &str) -> Result<Option<Value>, StoreError> {
    let Some(text) = store.run_state(thread)? else { return Ok(None) };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|err| StoreError::Invalid(format!("the run state of thread {thread} is not JSON: {err}")))
}

struct StoreRunStates {
    store: Arc<LazyStore>,
}

impl StoreRunStates {
    fn with_store<T>(&self, use_it: impl FnOnce(&mut Store) -> Result<T, StoreError>) -> ModuleResult<T> {
        match self.store.with(use_it) {
            Ok(result) => result.map_err(|err| ModuleError::internal(err.to_string())),
            Err(message) => Err(ModuleError::internal(format!("run states: {message}"))),
        }
    }
}

impl RunStates for StoreRunStates {
    fn load<'a>(&'a self, thread: &'a str) -> BoxFuture<'a, ModuleResult<Option<Value>>> {
        let result = self.with_store(|store| load(store, thread));
        Box::pin(async move { result })
    }

    fn save<'a>(&'a self, thread: &'a str, state: Value) -> BoxFuture<'a, ModuleResult<()>> {
        let result = self.with_store(|store| store.save_run_state(thread, &state.to_string()));
        Box::pin(async move { result })
    }
}

/// Gives the session run states kept in `store`.
pub(crate) fn attach(coordinator: &Coordinator, store: Arc<LazyStore>) {
    coordinator.set_run_states(Arc::new(StoreRunStates { store }));
}
