//! Images a person attaches to a prompt: `amplifier run --image FILE` and
//! the REPL's `/image FILE`. Each becomes a user message (its file name,
//! then the image as a base64 block) added to the conversation before the
//! prompt, which providers that take images send as such (Anthropic's
//! `image` block, OpenAI's `image_url` part).

use std::path::Path;

use amplifier_kernel::models::{ContentBlock, Message, MessageContent, Role};
use base64::Engine;
use serde_json::json;

use crate::error::{CliError, CliResult};

/// The largest image accepted: above the hosted APIs' own limits (5 MB at
/// Anthropic, 20 MB at OpenAI), so the provider's error, not ours, speaks
/// for them; this only stops a wrong file from filling the context.
const MAX_BYTES: u64 = 20 * 1024 * 1024;

/// The media type of `bytes`, by their signature: the extension may lie.
fn media_type(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0x89, b'P', b'N', b'G', ..] => Some("image/png"),
        [0xFF, 0xD8, 0xFF, ..] => Some("image/jpeg"),
        [b'G', b'I', b'F', b'8', ..] => Some("image/gif"),
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => Some("image/webp"),
        _ => None,
    }
}

/// `path` as a user message: a line naming the file, then the image.
pub fn image_message(path: &Path) -> CliResult<Message> {
    let shown = path.display();
    let size =
        std::fs::metadata(path).map_err(|err| CliError::usage(format!("cannot read the image {shown}: {err}")))?;
    if size.len() > MAX_BYTES {
        return Err(CliError::usage(format!(
            "the image {shown} is {} MiB; the most an image may be is {} MiB",
            size.len() / (1024 * 1024),
            MAX_BYTES / (1024 * 1024)
        )));
    }
    let bytes = std::fs::read(path).map_err(|err| CliError::usage(format!("cannot read the image {shown}: {err}")))?;
    let media_type = media_type(&bytes).ok_or_else(|| {
        CliError::usage(format!("{shown} is not a PNG, JPEG, GIF or WebP image"))
            .hint("attach images of those formats, which the hosted models take")
    })?;
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let name = path.file_name().map_or_else(|| shown.to_string(), |name| name.to_string_lossy().into_owned());
    let blocks = vec![
        ContentBlock::text(format!("Attached image: {name}")),
        ContentBlock::Image {
            source: json!({"type": "base64", "media_type": media_type, "data": data}),
            visibility: None,
            extensions: Default::default(),
        },
    ];
    Ok(Message { content: MessageContent::Blocks(blocks), ..Message::new(Role::User, "") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_known_by_their_bytes_and_anything_else_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("shot.jpg"); // the extension lies; the bytes do not
        std::fs::write(&png, b"\x89PNG\r\n\x1a\nrest").unwrap();
        let message = image_message(&png).unwrap();
        let MessageContent::Blocks(blocks) = &message.content else { panic!("blocks") };
        assert_eq!(message.role, Role::User);
        assert!(matches!(&blocks[0], ContentBlock::Text { text, .. } if text == "Attached image: shot.jpg"));
        let ContentBlock::Image { source, .. } = &blocks[1] else { panic!("an image block") };
        assert_eq!(source["media_type"], "image/png");
        assert_eq!(source["data"], "iVBORw0KGgpyZXN0");

        let text = dir.path().join("notes.png");
        std::fs::write(&text, "just words").unwrap();
        let refused = image_message(&text).unwrap_err().to_string();
        assert!(refused.contains("notes.png is not a PNG, JPEG, GIF or WebP image"), "{refused}");
        let missing = image_message(&dir.path().join("nope.png")).unwrap_err().to_string();
        assert!(missing.contains("cannot read the image") && missing.contains("nope.png"), "{missing}");
    }
}
