//! The module contracts as the kernel sees them: object-safe traits stored as
//! `Arc<dyn …>`. The loader wraps each plugin in these; tests and benches may
//! implement them in-process. Futures are spelled out (no `async_trait`) so
//! the signatures say exactly what is boxed.

use serde_json::Value;

use crate::errors::ModuleError;
use crate::models::{ChatRequest, ChatResponse, Message, ModelInfo, ProviderInfo, ToolResult, ToolSpec};
pub use crate::ops::{
    ContextSyncMessages, ContextSyncView, ContextView, RequestView, ResolveRequest, ResolvedModule, ResolvedSource,
    ViewCursor, ViewDelta,
};

// The hook trait lives beside the registry that calls it (and the
// orchestrator's beside the coordinator it is given); these paths stay.
pub use crate::hooks::HookHandler;
pub use crate::{BoxFuture, ModuleResult, StreamSink};

pub trait Tool: Send + Sync {
    fn spec(&self) -> &ToolSpec;
    /// Runs the tool. Failures are `ToolResult { success: false }`, never `Err`,
    /// so a tool can't abort the loop; the host turns a panic into such a result.
    fn execute(&self, input: Value) -> BoxFuture<'_, ToolResult>;
}

pub trait Provider: Send + Sync {
    fn info(&self) -> &ProviderInfo;
    fn list_models(&self) -> BoxFuture<'_, ModuleResult<Vec<ModelInfo>>>;
    /// One completion. With a `stream` sink the provider may stream deltas into it.
    fn complete(&self, request: ChatRequest, stream: Option<StreamSink>) -> BoxFuture<'_, ModuleResult<ChatResponse>>;

    /// Whether the provider fetches a [`ContextView`]'s messages itself
    /// (`context.sync_view`); the coordinator fills them in for one that doesn't.
    fn syncs_context(&self) -> bool {
        false
    }

    /// The same with the request and response as JSON text. A plugin
    /// provider speaks JSON already, so a plugin orchestrator's request
    /// crosses the host without being parsed and re-serialised. `context`
    /// comes only to a provider that [`syncs_context`](Self::syncs_context).
    fn complete_json(
        &self,
        request: String,
        context: Option<ContextView>,
        stream: Option<StreamSink>,
    ) -> BoxFuture<'_, ModuleResult<String>> {
        Box::pin(async move {
            if context.is_some() {
                return Err(ModuleError::internal("a context view was sent to a provider that does not sync one"));
            }
            let request: ChatRequest = serde_json::from_str(&request)?;
            let response = self.complete(request, stream).await?;
            serde_json::to_string(&response).map_err(|err| ModuleError::internal(err.to_string()))
        })
    }
}

pub trait ContextManager: Send + Sync {
    fn add_message(&self, message: Message) -> BoxFuture<'_, ModuleResult<()>>;
    /// The full, uncompacted history.
    fn get_messages(&self) -> BoxFuture<'_, ModuleResult<Vec<Message>>>;
    /// A view fit for one request; never modifies the stored history.
    fn get_messages_for_request(&self, view: RequestView) -> BoxFuture<'_, ModuleResult<Vec<Message>>>;
    /// The view as what changed since `request.since`; a context that keeps
    /// no cursors answers the whole view.
    fn sync_view(&self, request: ContextSyncView) -> BoxFuture<'_, ModuleResult<ViewDelta>> {
        Box::pin(async move { Ok(ViewDelta::full(self.get_messages_for_request(request.view).await?)) })
    }
    /// The full history as what changed since `request.since`; a context
    /// that keeps no cursors answers all of it.
    fn sync_messages(&self, _request: ContextSyncMessages) -> BoxFuture<'_, ModuleResult<ViewDelta>> {
        Box::pin(async move { Ok(ViewDelta::full(self.get_messages().await?)) })
    }
    /// The same view as JSON text (forwarded unparsed from a plugin context).
    fn get_messages_for_request_json(&self, view: RequestView) -> BoxFuture<'_, ModuleResult<String>> {
        Box::pin(async move {
            let messages = self.get_messages_for_request(view).await?;
            serde_json::to_string(&messages).map_err(|err| ModuleError::internal(err.to_string()))
        })
    }
    fn set_messages(&self, messages: Vec<Message>) -> BoxFuture<'_, ModuleResult<()>>;
    fn clear(&self) -> BoxFuture<'_, ModuleResult<()>>;
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ResolveError {
    /// This resolver doesn't know the module; the chain goes on.
    #[error("not found")]
    NotFound,
    /// This resolver knows the module but could not produce it; the chain stops.
    #[error("{0}")]
    Failed(String),
}

/// Finds module code. Resolvers are chained; `NotFound` passes to the next.
pub trait ModuleSourceResolver: Send + Sync {
    fn name(&self) -> &str;
    fn resolve<'a>(&'a self, request: &'a ResolveRequest) -> BoxFuture<'a, Result<ResolvedModule, ResolveError>>;
}
