//! The store of a session's services (run states, agent histories), opened
//! on first use: a session whose orchestrator never asks for them never
//! opens it (a SQLite open, or a PostgreSQL pool check, on every served run
//! otherwise). The services of one session share it.

use std::sync::{Mutex, OnceLock};

use amplifier_store::{Store, StoreError};

use crate::StoreConfig;

pub(crate) struct LazyStore {
    config: StoreConfig,
    store: OnceLock<Result<Mutex<Store>, String>>,
}

impl LazyStore {
    pub(crate) fn new(config: &StoreConfig) -> LazyStore {
        LazyStore { config: config.clone(), store: OnceLock::new() }
    }

    /// `use_it`'s result on the store; the outer error says why the store
    /// could not be opened (the same message on every call).
    pub(crate) fn with<T>(
        &self,
        use_it: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<Result<T, StoreError>, &str> {
        let store = self.store.get_or_init(|| self.config.open().map(Mutex::new).map_err(|err| err.to_string()));
        let store = store.as_ref().map_err(String::as_str)?;
        // A panic while holding the lock left no half-written row (the
        // database rolled it back), so the store is still usable.
        let mut store = store.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(use_it(&mut store))
    }
}
