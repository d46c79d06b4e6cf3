//! The parameters of every operation a plugin or the host answers, decoded
//! from JSON as the SDK's dispatcher and the host's handler table do
//! (`serde_json::from_str` into the op's `Params`), then written back and
//! read again: what decodes must survive the round trip. The first byte
//! picks the operation; the list mirrors `amplifier_protocol::ops`.
#![no_main]

use amplifier_protocol::ops::{self, Op};

fn round_trip<O: Op>(text: &str) {
    if let Ok(params) = serde_json::from_str::<O::Params>(text) {
        let written = serde_json::to_string(&params).expect("decoded parameters serialize");
        serde_json::from_str::<O::Params>(&written).expect("written parameters decode again");
    }
}

macro_rules! pick {
    ($choice:expr, $text:expr, $($op:path),+ $(,)?) => {{
        let ops: &[fn(&str)] = &[$(round_trip::<$op>),+];
        ops[usize::from($choice) % ops.len()]($text)
    }};
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    pick!(
        choice,
        text,
        ops::plugin::tool::Execute,
        ops::plugin::provider::Complete,
        ops::plugin::provider::ListModels,
        ops::plugin::hook::Handle,
        ops::plugin::orchestrator::Execute,
        ops::plugin::context::AddMessage,
        ops::plugin::context::GetMessages,
        ops::plugin::context::GetMessagesForRequest,
        ops::plugin::context::SetMessages,
        ops::plugin::context::Clear,
        ops::plugin::callback::Hook,
        ops::plugin::callback::Contribute,
        ops::plugin::callback::Cleanup,
        ops::plugin::resolver::Resolve,
        ops::host::hooks::Emit,
        ops::host::hooks::Dispatch,
        ops::host::hooks::Process,
        ops::host::hooks::EmitAndCollect,
        ops::host::hooks::Register,
        ops::host::hooks::Unregister,
        ops::host::provider::Complete,
        ops::host::provider::List,
        ops::host::tool::Execute,
        ops::host::tool::List,
        ops::host::tools::Mount,
        ops::host::tools::Unmount,
        ops::host::context::AddMessage,
        ops::host::context::GetMessages,
        ops::host::context::GetMessagesForRequest,
        ops::host::context::SetMessages,
        ops::host::context::Clear,
        ops::host::capability::Get,
        ops::host::capability::Register,
        ops::host::contributions::Register,
        ops::host::contributions::Collect,
        ops::host::cleanup::Register,
        ops::host::session::Info,
        ops::host::session::SteeringTake,
        ops::host::session::Spawn,
        ops::host::session::Agents,
        ops::host::session::AgentTurn,
        ops::host::history::Fetch,
        ops::host::history::FetchAll,
        ops::host::history::Save,
        ops::host::runs::Load,
        ops::host::runs::Save,
        ops::host::log::Level,
    );
});
