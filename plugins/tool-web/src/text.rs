//! Bodies to text: HTML becomes readable plain text; text, JSON and XML are
//! returned as they are; binary bodies are refused.

/// How a body is turned into text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Html,
    Text,
    /// Images, audio, video, fonts, archives, PDFs…: refused before the body is read.
    Binary,
    /// No useful content type (missing, `application/octet-stream`, unknown):
    /// decided from the first bytes.
    Sniff,
}

/// The kind of body a `Content-Type` header announces.
pub fn kind_of(content_type: Option<&str>) -> BodyKind {
    let Some(content_type) = content_type else { return BodyKind::Sniff };
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    match essence.as_str() {
        "text/html" | "application/xhtml+xml" => BodyKind::Html,
        "" | "application/octet-stream" | "binary/octet-stream" => BodyKind::Sniff,
        "application/json"
        | "application/xml"
        | "application/javascript"
        | "application/ecmascript"
        | "application/x-javascript"
        | "application/yaml"
        | "application/x-yaml"
        | "application/toml"
        | "application/x-ndjson"
        | "application/sql"
        | "application/graphql"
        | "application/x-sh" => BodyKind::Text,
        e if e.starts_with("text/") || e.ends_with("+json") || e.ends_with("+xml") => BodyKind::Text,
        e if ["image/", "audio/", "video/", "font/", "model/"].iter().any(|p| e.starts_with(p)) => BodyKind::Binary,
        "application/pdf"
        | "application/zip"
        | "application/gzip"
        | "application/x-tar"
        | "application/wasm"
        | "application/x-7z-compressed"
        | "application/vnd.rar"
        | "application/x-bzip2"
        | "application/x-xz" => BodyKind::Binary,
        _ => BodyKind::Sniff,
    }
}

/// Decides a [`BodyKind::Sniff`] body from its bytes: HTML, text, or binary.
pub fn sniff(body: &[u8]) -> BodyKind {
    let head = &body[..body.len().min(1024)];
    if head.contains(&0) {
        return BodyKind::Binary;
    }
    let start = String::from_utf8_lossy(head).trim_start_matches('\u{feff}').trim_start().to_ascii_lowercase();
    if start.starts_with("<!doctype html") || start.starts_with("<html") {
        return BodyKind::Html;
    }
    // A cut at the size cap may split the last character: tolerate an incomplete tail.
    match std::str::from_utf8(body) {
        Ok(_) => BodyKind::Text,
        Err(err) if err.error_len().is_none() => BodyKind::Text,
        Err(_) => BodyKind::Binary,
    }
}

/// Readable text of an HTML document: headings marked with `#`, links
/// numbered with their targets listed after the text, `<script>`,
/// `<style>` and other non-rendered elements dropped.
///
/// html5ever's tree building is quadratic in nesting depth (a 1 MiB page of
/// nested `<div>`s would take minutes), so a document nested deeper than
/// [`MAX_DEPTH`] gets a linear tag strip instead.
pub fn html_to_text(html: &[u8]) -> String {
    // Wide enough that paragraphs are rarely wrapped: the reader is a model, not a terminal.
    const WIDTH: usize = 200;
    if max_depth(html) > MAX_DEPTH {
        return strip_tags(html);
    }
    match html2text::config::plain().no_table_borders().string_from_read(html, WIDTH) {
        Ok(text) => tidy(&text),
        // html5ever recovers from any markup, so this is rare; keep the raw text rather than fail.
        Err(_) => String::from_utf8_lossy(html).into_owned(),
    }
}

/// Nesting beyond which [`html_to_text`] strips tags instead of parsing;
/// real pages stay far below it.
pub const MAX_DEPTH: usize = 1000;

/// Elements that never hold content or whose end tag may be left out
/// (`<p>`, `<li>`…): they don't count towards the depth.
const NOT_NESTING: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "p", "li",
    "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot", "colgroup", "rb", "rt", "rp",
    "html", "head", "body",
];

/// A linear estimate of the deepest element nesting: start tags minus end
/// tags, skipping comments, declarations and script/style content.
fn max_depth(html: &[u8]) -> usize {
    let (mut depth, mut max, mut i) = (0usize, 0usize, 0usize);
    while let Some(offset) = html[i..].iter().position(|&b| b == b'<') {
        i += offset + 1;
        let rest = &html[i..];
        if rest.starts_with(b"!--") {
            i += find(rest, b"-->").map_or(rest.len(), |end| end + 3);
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = usize::from(closing);
        let name_len = rest[name_start..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if name_len == 0 {
            continue; // `<!doctype`, `<?xml`, a stray `<`
        }
        let name = String::from_utf8_lossy(&rest[name_start..name_start + name_len]).to_ascii_lowercase();
        let tag_end = rest.iter().position(|&b| b == b'>').map_or(rest.len(), |end| end + 1);
        let self_closing = rest[..tag_end].ends_with(b"/>");
        i += tag_end;
        if closing {
            if !NOT_NESTING.contains(&name.as_str()) {
                depth = depth.saturating_sub(1);
            }
        } else if matches!(name.as_str(), "script" | "style") {
            let close = format!("</{name}");
            i += find_ignore_case(&html[i..], close.as_bytes()).unwrap_or(html.len() - i);
        } else if !self_closing && !NOT_NESTING.contains(&name.as_str()) {
            depth += 1;
            max = max.max(depth);
        }
    }
    max
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// The fallback for pathological documents: text between tags, without
/// script/style content, common entities decoded, whitespace squeezed.
fn strip_tags(html: &[u8]) -> String {
    let html = String::from_utf8_lossy(html);
    let lower = html.to_ascii_lowercase();
    let mut text = String::with_capacity(html.len() / 2);
    let mut i = 0;
    while let Some(offset) = html[i..].find('<') {
        text.push_str(&html[i..i + offset]);
        text.push(' ');
        i += offset;
        let skip_to = ["script", "style"]
            .iter()
            .find(|name| lower[i + 1..].starts_with(*name))
            .and_then(|name| lower[i..].find(&format!("</{name}")).map(|end| i + end + 2));
        let from = skip_to.unwrap_or(i);
        i = html[from..].find('>').map_or(html.len(), |end| from + end + 1);
    }
    text.push_str(&html[i..]);
    let text = text
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Trims trailing spaces on each line and squeezes runs of blank lines.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            if blank > 1 || out.is_empty() {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    while out.ends_with('\n') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r#"<!DOCTYPE html>
<html><head><title>Tide tables</title>
<style>body { color: red } .secret-style { display: none }</style>
<script>var secretScript = "do not show";</script>
</head>
<body>
<h1>Tide tables</h1>
<p>High water at <b>noon</b>. See <a href="https://example.com/harbour">the harbour page</a>.</p>
<h2>Notes</h2>
<ul><li>First item</li><li>Second item</li></ul>
<noscript>enable javascript</noscript>
<script type="text/javascript">document.write("injected");</script>
</body></html>"#;

    #[test]
    fn html_becomes_readable_text_without_scripts_or_styles() {
        let text = html_to_text(PAGE.as_bytes());
        assert!(text.contains("# Tide tables"), "{text}");
        assert!(text.contains("## Notes"), "{text}");
        assert!(text.contains("High water at **noon**."), "{text}");
        assert!(text.contains("the harbour page"), "{text}");
        assert!(text.contains("https://example.com/harbour"), "the link target is kept: {text}");
        assert!(text.contains("First item") && text.contains("Second item"), "{text}");
        for hidden in ["secretScript", "do not show", "color: red", "secret-style", "injected", "<p>", "<b>"] {
            assert!(!text.contains(hidden), "{hidden:?} leaked into: {text}");
        }
        assert!(!text.contains("\n\n\n"), "blank lines are squeezed: {text:?}");
    }

    #[test]
    fn broken_or_cut_html_still_gives_text() {
        let text = html_to_text(b"<html><body><p>Cut off in the mid");
        assert_eq!(text, "Cut off in the mid");
        let text = html_to_text(&[b"<p>caf\xc3".as_slice()].concat());
        assert!(text.starts_with("caf"), "{text}");
    }

    #[test]
    fn nesting_depth_is_estimated_linearly() {
        assert_eq!(max_depth(PAGE.as_bytes()), 1, "only <title> nests: p, li, html, head, body don't count");
        assert_eq!(max_depth(b"<div><span><em>x</em></span></div><div>y</div>"), 3);
        assert_eq!(max_depth(b"<p>one<p>two<li>three<br><img src=x><hr/>"), 0);
        assert_eq!(max_depth(b"<!-- <div><div> --><script>if (a<b) '<div>'</script><div/>"), 0);
        assert_eq!(max_depth("<div>".repeat(5000).as_bytes()), 5000);
    }

    #[test]
    fn pathologically_nested_html_is_stripped_in_linear_time() {
        // 1 MiB of nested divs would take html5ever minutes.
        let html = format!(
            "<style>p {{}}</style>{}Deep &amp; <b>bold</b><script>hidden()</script>{}",
            "<div>".repeat(200_000),
            "</div>".repeat(10)
        );
        let started = std::time::Instant::now();
        let text = html_to_text(html.as_bytes());
        assert_eq!(text, "Deep & bold");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
        // Just under the limit, html2text still does the work.
        let html = format!("{}<h1>Title</h1>{}", "<div>".repeat(MAX_DEPTH - 1), "</div>".repeat(MAX_DEPTH - 1));
        assert_eq!(html_to_text(html.as_bytes()), "# Title");
    }

    #[test]
    fn content_types_choose_the_conversion() {
        assert_eq!(kind_of(Some("text/html; charset=utf-8")), BodyKind::Html);
        assert_eq!(kind_of(Some("Application/XHTML+XML")), BodyKind::Html);
        assert_eq!(kind_of(Some("text/plain")), BodyKind::Text);
        assert_eq!(kind_of(Some("application/json")), BodyKind::Text);
        assert_eq!(kind_of(Some("application/ld+json; charset=utf-8")), BodyKind::Text);
        assert_eq!(kind_of(Some("application/rss+xml")), BodyKind::Text);
        assert_eq!(kind_of(Some("image/png")), BodyKind::Binary);
        assert_eq!(kind_of(Some("application/pdf")), BodyKind::Binary);
        assert_eq!(kind_of(Some("application/octet-stream")), BodyKind::Sniff);
        assert_eq!(kind_of(None), BodyKind::Sniff);
    }

    #[test]
    fn sniffing_tells_html_text_and_binary_apart() {
        assert_eq!(sniff(b"\xef\xbb\xbf  <!DOCTYPE html><p>x"), BodyKind::Html);
        assert_eq!(sniff(b"<HTML><body>x"), BodyKind::Html);
        assert_eq!(sniff(b"{\"a\": 1}"), BodyKind::Text);
        assert_eq!(sniff(b"caf\xc3"), BodyKind::Text, "a character cut at the cap is still text");
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n\0\0"), BodyKind::Binary);
        assert_eq!(sniff(b"\xff\xfe\xfd not utf-8"), BodyKind::Binary);
    }
}
