//! A module loader that calls back once for every session it loads modules
//! for: the top-level session and each child session the kernel spawns
//! (children share their parent's loader). This is how the front end
//! reaches sub-agent sessions: SSE observes them, the store records them.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use amplifier_kernel::plan::{ModuleKind, ModuleSpec};
use amplifier_kernel::session::{LoadError, LoadedModule, ModuleLoader};
use amplifier_kernel::traits::BoxFuture;
use amplifier_kernel::Coordinator;

type OnNewSession = Box<dyn Fn(&Arc<Coordinator>) + Send + Sync>;

pub struct EachSession {
    inner: Arc<dyn ModuleLoader>,
    on_new: OnNewSession,
    seen: Mutex<HashSet<String>>,
}

impl EachSession {
    pub fn wrap(
        inner: Arc<dyn ModuleLoader>,
        on_new: impl Fn(&Arc<Coordinator>) + Send + Sync + 'static,
    ) -> Arc<EachSession> {
        Arc::new(EachSession { inner, on_new: Box::new(on_new), seen: Mutex::default() })
    }
}

impl ModuleLoader for EachSession {
    fn load<'a>(
        &'a self,
        kind: ModuleKind,
        spec: &'a ModuleSpec,
        coordinator: &'a Arc<Coordinator>,
    ) -> BoxFuture<'a, Result<LoadedModule, LoadError>> {
        if self.seen.lock().expect("seen lock").insert(coordinator.session_id().to_owned()) {
            (self.on_new)(coordinator);
        }
        self.inner.load(kind, spec, coordinator)
    }

    fn prepare<'a>(&'a self, modules: &'a [&'a ModuleSpec]) -> BoxFuture<'a, ()> {
        self.inner.prepare(modules)
    }
}
