//! A resolver's check: `resolver_resolve`.

use std::sync::Arc;

use amplifier_kernel::traits::{ModuleSourceResolver, ResolveError, ResolveRequest};

use crate::{timed, Checks, Severity, CHECK_TIMEOUT};

pub(crate) async fn check_resolver(checks: &mut Checks, resolver: Arc<dyn ModuleSourceResolver>) {
    let request = ResolveRequest {
        module_id: format!("validate-no-such-module-{}", std::process::id()),
        source_hint: None,
        base_dir: None,
    };
    match timed(CHECK_TIMEOUT, resolver.resolve(&request)).await {
        Err(message) => checks.fail("resolver_resolve", Severity::Error, message),
        Ok(Err(ResolveError::NotFound)) => checks
            .pass("resolver_resolve", "answers \"not found\" for an unknown module, so the built-in chain goes on"),
        Ok(Err(ResolveError::Failed(message))) => checks.fail(
            "resolver_resolve",
            Severity::Error,
            format!("fails for an unknown module instead of answering \"not found\": {message}"),
        ),
        Ok(Ok(found)) => checks.fail(
            "resolver_resolve",
            Severity::Warning,
            format!(
                "claims the unknown module '{}' ({}): the built-in resolvers would never run",
                request.module_id, found.origin
            ),
        ),
    }
}
