//! What a module registered through its [`crate::Host`]: hooks,
//! contributors, cleanups and its `on_session_ready`, which the host calls
//! back as `callback.*` operations on the module's instance, whatever its kind.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use amplifier_protocol::models::{HookResult, JsonMap};
use amplifier_protocol::ops::plugin::callback;
use amplifier_protocol::ops::{CallbackName, ContributorName, Done, HookCall, NoParams, Op};
use amplifier_protocol::{ErrorKind, ModuleError};
use futures::future::BoxFuture;
use serde_json::Value;

use crate::module::{start, Answers, Kind, Starter};
use crate::{ModuleResult, Stream};

pub(crate) type HookFn = Arc<dyn Fn(String, JsonMap) -> BoxFuture<'static, ModuleResult<HookResult>> + Send + Sync>;
pub(crate) type ContributorFn = Arc<dyn Fn() -> BoxFuture<'static, ModuleResult<Option<Value>>> + Send + Sync>;
/// A cleanup or an `on_session_ready`: runs once.
pub(crate) type OnceFn = Box<dyn FnOnce() -> BoxFuture<'static, ModuleResult<()>> + Send>;

/// One instance's registrations, shared by its `Host` and its ABI face.
#[derive(Default)]
pub(crate) struct Callbacks {
    pub(crate) hooks: Mutex<HashMap<String, HookFn>>,
    pub(crate) contributors: Mutex<HashMap<(String, String), ContributorFn>>,
    pub(crate) cleanups: Mutex<HashMap<String, OnceFn>>,
    pub(crate) session_ready: Mutex<Option<OnceFn>>,
}

impl Callbacks {
    pub(crate) fn has_session_ready(&self) -> bool {
        self.session_ready.lock().expect("session-ready callback").is_some()
    }
}

fn not_registered(what: &str, name: &str) -> ModuleError {
    ModuleError::new(ErrorKind::NotFound, format!("this module registered no {what} '{name}'"))
}

impl Kind for Callbacks {
    const NAME: &'static str = "callback";
    const OPS: &'static [(&'static str, Starter<Self>)] = &[
        (callback::Hook::NAME, start::<Self, callback::Hook>),
        (callback::Contribute::NAME, start::<Self, callback::Contribute>),
        (callback::Cleanup::NAME, start::<Self, callback::Cleanup>),
        (callback::SessionReady::NAME, start::<Self, callback::SessionReady>),
    ];
}

impl Answers<callback::Hook> for Callbacks {
    fn answer(self: Arc<Self>, call: HookCall, _stream: Stream) -> BoxFuture<'static, ModuleResult<HookResult>> {
        let hook = self.hooks.lock().expect("hook callbacks").get(&call.handler).cloned();
        match hook {
            Some(hook) => hook(call.event, call.data),
            None => Box::pin(async move { Err(not_registered("hook", &call.handler)) }),
        }
    }
}

impl Answers<callback::Contribute> for Callbacks {
    fn answer(
        self: Arc<Self>,
        call: ContributorName,
        _stream: Stream,
    ) -> BoxFuture<'static, ModuleResult<Option<Value>>> {
        let key = (call.channel, call.name);
        let contributor = self.contributors.lock().expect("contributor callbacks").get(&key).cloned();
        match contributor {
            Some(contributor) => contributor(),
            None => Box::pin(async move { Err(not_registered("contributor", &format!("{}/{}", key.0, key.1))) }),
        }
    }
}

impl Answers<callback::Cleanup> for Callbacks {
    fn answer(self: Arc<Self>, call: CallbackName, _stream: Stream) -> BoxFuture<'static, ModuleResult<Done>> {
        // Taken: a cleanup runs once.
        let cleanup = self.cleanups.lock().expect("cleanup callbacks").remove(&call.name);
        match cleanup {
            Some(cleanup) => {
                let done = cleanup();
                Box::pin(async move { done.await.map(|()| Done) })
            }
            None => Box::pin(async move { Err(not_registered("cleanup", &call.name)) }),
        }
    }
}

impl Answers<callback::SessionReady> for Callbacks {
    fn answer(self: Arc<Self>, _: NoParams, _stream: Stream) -> BoxFuture<'static, ModuleResult<Done>> {
        let ready = self.session_ready.lock().expect("session-ready callback").take();
        match ready {
            Some(ready) => {
                let done = ready();
                Box::pin(async move { done.await.map(|()| Done) })
            }
            None => Box::pin(async move { Err(not_registered("on_session_ready", "")) }),
        }
    }
}
