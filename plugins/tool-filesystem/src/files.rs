//! `read_file`, `write_file`, `edit_file` and `list_dir`.

use std::fmt::Write as _;

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Deserialize;

use crate::beneath;
use crate::policy::{has_other_links, Access, Checked, Policy, ToolError};

/// Bytes inspected for a NUL byte to decide a file is binary.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;
/// Default `limit` of `read_file`.
pub const DEFAULT_READ_LIMIT: u64 = 2000;
/// Longer lines are cut in `read_file` output.
pub const MAX_LINE_CHARS: usize = 2000;
/// Most entries `list_dir` shows.
pub const MAX_DIR_ENTRIES: usize = 1000;

#[derive(Debug, Deserialize)]
pub struct ReadInput {
    pub file_path: String,
    #[serde(default)]
    pub offset: Option<u64>,
    #[serde(default)]
    pub limit: Option<u64>,
}

#[derive(Debug, Deserialize)]
pub struct WriteInput {
    pub file_path: String,
    pub content: String,
}

#[derive(Debug, Deserialize)]
pub struct EditInput {
    pub file_path: String,
    pub old_string: String,
    pub new_string: String,
    #[serde(default)]
    pub replace_all: bool,
}

#[derive(Debug, Deserialize)]
pub struct ListInput {
    #[serde(default)]
    pub path: Option<String>,
}

/// Whether `bytes` (a file's start) looks binary: a NUL in the first 8 KiB.
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

/// `1.5 MiB (1572864 bytes)`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {} ({bytes} bytes)", UNITS[unit])
}

fn too_large(shown: &str, size: u64, cap: u64) -> ToolError {
    ToolError::new(
        "FileTooLarge",
        format!("`{shown}` is {}, over the max_file_bytes cap of {}", human_size(size), human_size(cap)),
    )
}

fn binary(shown: &str, tool: &str) -> ToolError {
    ToolError::new(
        "BinaryFile",
        format!("`{shown}` looks like a binary file (a NUL byte in its first 8 KiB); {tool} works on text files only"),
    )
}

/// Reads a checked existing regular file within the size cap.
fn read_text_file(policy: &Policy, checked: &Checked, tool: &str) -> Result<Vec<u8>, ToolError> {
    let shown = &checked.shown;
    if !checked.exists {
        return Err(ToolError::new("NotFound", format!("`{shown}` does not exist")));
    }
    if checked.path.is_dir() {
        return Err(ToolError::invalid(format!(
            "`{shown}` is a directory; use list_dir, glob or grep for directories"
        )));
    }
    // Opened as checked, or not at all (see `beneath`); then asked of the
    // open file, which can't change under us.
    let file = beneath::open_read(&checked.path).map_err(|err| ToolError::io("open", shown, &err))?;
    let meta = file.metadata().map_err(|err| ToolError::io("read", shown, &err))?;
    if meta.is_dir() {
        return Err(ToolError::invalid(format!(
            "`{shown}` is a directory; use list_dir, glob or grep for directories"
        )));
    }
    if !meta.is_file() {
        return Err(ToolError::invalid(format!("`{shown}` is not a regular file")));
    }
    if has_other_links(&meta) {
        return Err(ToolError::denied(format!(
            "`{shown}` has more than one hard link, and its other names may lie outside the allowed paths; \
             files with more than one link are not read"
        )));
    }
    if meta.len() > policy.max_file_bytes {
        return Err(too_large(shown, meta.len(), policy.max_file_bytes));
    }
    // Read at most one byte past the cap, in case the file grew since `metadata`.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(policy.max_file_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|err| ToolError::io("read", shown, &err))?;
    if bytes.len() as u64 > policy.max_file_bytes {
        return Err(too_large(shown, bytes.len() as u64, policy.max_file_bytes));
    }
    if looks_binary(&bytes) {
        return Err(binary(shown, tool));
    }
    Ok(bytes)
}

/// `read_file`: `cat -n` style numbered lines from `offset` (1-based), at most `limit`.
pub fn read_file(policy: &Policy, input: ReadInput) -> Result<String, ToolError> {
    let checked = policy.check(&input.file_path, Access::Read)?;
    let bytes = read_text_file(policy, &checked, "read_file")?;
    let text = String::from_utf8_lossy(&bytes);
    let shown = &checked.shown;
    let total = text.lines().count() as u64;
    if total == 0 {
        return Ok(format!("[`{shown}` is empty: 0 lines]"));
    }
    let offset = input.offset.unwrap_or(1).max(1);
    let limit = input.limit.unwrap_or(DEFAULT_READ_LIMIT).max(1);
    if offset > total {
        return Err(ToolError::invalid(format!(
            "offset {offset} is past the end of `{shown}`, which has {total} line{}",
            plural(total)
        )));
    }
    let mut out = String::new();
    let mut last = offset - 1;
    let mut cut_lines = 0usize;
    let skip = usize::try_from(offset - 1).unwrap_or(usize::MAX);
    let take = usize::try_from(limit).unwrap_or(usize::MAX);
    for (number, line) in (offset..).zip(text.lines().skip(skip).take(take)) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let _ = write!(out, "{number:>6}\t");
        match line.char_indices().nth(MAX_LINE_CHARS) {
            Some((at, _)) => {
                cut_lines += 1;
                let _ = writeln!(out, "{}… [line cut at {MAX_LINE_CHARS} characters]", &line[..at]);
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
        last = number;
    }
    let _ = write!(out, "[`{shown}`: lines {offset}-{last} of {total}");
    if last < total {
        let _ = write!(
            out,
            "; output cut, {} more line{}: continue with offset={}",
            total - last,
            plural(total - last),
            last + 1
        );
    }
    if cut_lines > 0 {
        let _ = write!(out, "; {cut_lines} long line{} cut", plural(cut_lines as u64));
    }
    out.push(']');
    Ok(out)
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `write_file`: creates parent directories, then replaces the file atomically.
pub fn write_file(policy: &Policy, input: WriteInput) -> Result<String, ToolError> {
    let checked = policy.check(&input.file_path, Access::Write)?;
    let shown = &checked.shown;
    let size = input.content.len() as u64;
    if size > policy.max_file_bytes {
        return Err(ToolError::new(
            "FileTooLarge",
            format!(
                "the content for `{shown}` is {}, over the max_file_bytes cap of {}",
                human_size(size),
                human_size(policy.max_file_bytes)
            ),
        ));
    }
    if checked.exists && checked.path.is_dir() {
        return Err(ToolError::invalid(format!("`{shown}` is a directory")));
    }
    atomic_write(&checked.path, input.content.as_bytes()).map_err(|err| ToolError::io("write", shown, &err))?;
    let verb = if checked.exists { "Overwrote" } else { "Created" };
    Ok(format!("{verb} `{shown}` ({})", human_size(size)))
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`, so readers see the old content or the new, never a part; missing
/// parent directories are made, and an existing file keeps its
/// permissions. Every step is relative to the parent opened as checked.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = format!(".{name}.{}.{n}.tmp", std::process::id());
        match beneath::atomic_write(path, bytes, &temp) {
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            other => return other,
        }
    }
}

/// `edit_file`: replaces `old_string` (which must occur, once unless
/// `replace_all`) with `new_string`; returns the number of replacements.
pub fn edit_file(policy: &Policy, input: EditInput) -> Result<(String, usize), ToolError> {
    let checked = policy.check(&input.file_path, Access::Write)?;
    // Editing reads the file too (whether `old_string` occurs tells what is in it).
    policy.check(&input.file_path, Access::Read)?;
    let shown = &checked.shown;
    if input.old_string.is_empty() {
        return Err(ToolError::invalid("old_string is empty; to create or overwrite a file use write_file"));
    }
    if input.old_string == input.new_string {
        return Err(ToolError::invalid("old_string and new_string are the same; there is nothing to change"));
    }
    let bytes = read_text_file(policy, &checked, "edit_file")?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ToolError::invalid(format!("`{shown}` is not valid UTF-8; edit_file only edits UTF-8 text")))?;
    let count = text.matches(input.old_string.as_str()).count();
    if count == 0 {
        return Err(ToolError::new(
            "NoMatch",
            format!("old_string was not found in `{shown}`; it must match the file exactly, including whitespace"),
        ));
    }
    if count > 1 && !input.replace_all {
        return Err(ToolError::new(
            "AmbiguousMatch",
            format!(
                "old_string occurs {count} times in `{shown}`; include more surrounding text to make it unique, \
                 or set replace_all to replace every occurrence"
            ),
        ));
    }
    let edited = if input.replace_all {
        text.replace(&input.old_string, &input.new_string)
    } else {
        text.replacen(&input.old_string, &input.new_string, 1)
    };
    let size = edited.len() as u64;
    if size > policy.max_file_bytes {
        return Err(ToolError::new(
            "FileTooLarge",
            format!(
                "the edited `{shown}` would be {}, over the max_file_bytes cap of {}",
                human_size(size),
                human_size(policy.max_file_bytes)
            ),
        ));
    }
    atomic_write(&checked.path, edited.as_bytes()).map_err(|err| ToolError::io("write", shown, &err))?;
    let message = format!("Edited `{shown}`: {count} replacement{}", plural(count as u64));
    Ok((message, count))
}

/// `list_dir`: the directory's entries, sorted, directories with a trailing `/`.
pub fn list_dir(policy: &Policy, input: ListInput) -> Result<String, ToolError> {
    let raw = input.path.filter(|path| !path.is_empty()).unwrap_or_else(|| ".".to_owned());
    let checked = policy.check(&raw, Access::Read)?;
    let shown = &checked.shown;
    if !checked.exists {
        return Err(ToolError::new("NotFound", format!("`{shown}` does not exist")));
    }
    if !checked.path.is_dir() {
        return Err(ToolError::invalid(format!("`{shown}` is not a directory; use read_file for files")));
    }
    let (_open, entries) = beneath::read_dir(&checked.path).map_err(|err| ToolError::io("list", shown, &err))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        // The entry's path is under /proc/self/fd: its name is what counts.
        .filter(|entry| !policy.is_denied(&checked.path.join(entry.file_name())))
        .map(|entry| {
            let mut name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                name.push('/');
            }
            name
        })
        .collect();
    if names.is_empty() {
        return Ok(format!("[`{shown}` is empty]"));
    }
    names.sort();
    let total = names.len();
    names.truncate(MAX_DIR_ENTRIES);
    let mut out = names.join("\n");
    if total > MAX_DIR_ENTRIES {
        let _ = write!(out, "\n[output cut: {MAX_DIR_ENTRIES} of {total} entries shown; use glob to narrow]");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Config;
    use std::ffi::CString;
    use std::fs;
    use std::path::PathBuf;

    struct Fixture {
        _dir: tempfile::TempDir,
        root: PathBuf,
        policy: Policy,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let policy = Policy::rooted(&root);
        Fixture { _dir: dir, root, policy }
    }

    fn read(policy: &Policy, path: &str, offset: Option<u64>, limit: Option<u64>) -> Result<String, ToolError> {
        read_file(policy, ReadInput { file_path: path.into(), offset, limit })
    }

    fn edit(policy: &Policy, path: &str, old: &str, new: &str, all: bool) -> Result<(String, usize), ToolError> {
        let input =
            EditInput { file_path: path.into(), old_string: old.into(), new_string: new.into(), replace_all: all };
        edit_file(policy, input)
    }

    fn numbered(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn read_numbers_lines_like_cat_n() {
        let f = fixture();
        fs::write(f.root.join("a.txt"), "alpha\nbeta\r\n\tgamma").unwrap();
        let out = read(&f.policy, "a.txt", None, None).unwrap();
        assert_eq!(out, "     1\talpha\n     2\tbeta\n     3\t\tgamma\n[`a.txt`: lines 1-3 of 3]");
    }

    #[test]
    fn read_offset_and_limit() {
        let f = fixture();
        fs::write(f.root.join("n.txt"), numbered(10)).unwrap();
        let out = read(&f.policy, "n.txt", Some(4), Some(3)).unwrap();
        assert_eq!(
            out,
            "     4\tline 4\n     5\tline 5\n     6\tline 6\n\
             [`n.txt`: lines 4-6 of 10; output cut, 4 more lines: continue with offset=7]"
        );
        let tail = read(&f.policy, "n.txt", Some(9), Some(100)).unwrap();
        assert_eq!(tail, "     9\tline 9\n    10\tline 10\n[`n.txt`: lines 9-10 of 10]");
        let err = read(&f.policy, "n.txt", Some(11), None).unwrap_err();
        assert_eq!(err.message, "offset 11 is past the end of `n.txt`, which has 10 lines");
        // Odd values are clamped, not panics.
        assert!(read(&f.policy, "n.txt", Some(0), Some(0)).unwrap().starts_with("     1\tline 1\n[`n.txt`: lines 1-1"));
        assert!(read(&f.policy, "n.txt", Some(u64::MAX), Some(u64::MAX)).is_err());
        assert!(read(&f.policy, "n.txt", Some(2), Some(u64::MAX)).unwrap().ends_with("lines 2-10 of 10]"));
    }

    #[test]
    fn read_default_limit_is_2000_lines() {
        let f = fixture();
        fs::write(f.root.join("big.txt"), numbered(2500)).unwrap();
        let out = read(&f.policy, "big.txt", None, None).unwrap();
        assert_eq!(out.lines().count(), 2001);
        assert!(out.contains("  2000\tline 2000\n"));
        assert!(
            out.ends_with("[`big.txt`: lines 1-2000 of 2500; output cut, 500 more lines: continue with offset=2001]")
        );
    }

    #[test]
    fn read_empty_missing_directory_and_long_lines() {
        let f = fixture();
        fs::write(f.root.join("empty.txt"), "").unwrap();
        assert_eq!(read(&f.policy, "empty.txt", None, None).unwrap(), "[`empty.txt` is empty: 0 lines]");
        let err = read(&f.policy, "missing.txt", None, None).unwrap_err();
        assert_eq!((err.kind, err.message.as_str()), ("NotFound", "`missing.txt` does not exist"));
        assert!(read(&f.policy, ".", None, None).unwrap_err().message.contains("is a directory"));
        fs::write(f.root.join("long.txt"), "é".repeat(MAX_LINE_CHARS + 5)).unwrap();
        let out = read(&f.policy, "long.txt", None, None).unwrap();
        assert!(out.contains("… [line cut at 2000 characters]"), "{out}");
        assert!(out.ends_with("; 1 long line cut]"));
    }

    #[test]
    fn binary_files_are_refused_for_read_and_edit() {
        let f = fixture();
        fs::write(f.root.join("bin.dat"), b"abc\0def").unwrap();
        let err = read(&f.policy, "bin.dat", None, None).unwrap_err();
        assert_eq!(err.kind, "BinaryFile");
        assert_eq!(
            err.message,
            "`bin.dat` looks like a binary file (a NUL byte in its first 8 KiB); read_file works on text files only"
        );
        assert_eq!(edit(&f.policy, "bin.dat", "abc", "x", false).unwrap_err().kind, "BinaryFile");
        // A NUL past the first 8 KiB does not make a file binary.
        let mut late = vec![b'a'; BINARY_SNIFF_BYTES];
        late.push(0);
        assert!(!looks_binary(&late));
        assert!(looks_binary(&late[BINARY_SNIFF_BYTES - 10..]));
    }

    #[test]
    fn files_over_the_cap_are_refused_with_size_and_cap() {
        let f = fixture();
        let config = Config { working_dir: Some(f.root.clone()), max_file_bytes: 2048, ..Config::defaults() };
        let policy = Policy::from_config(config, Path::new("/")).unwrap();
        fs::write(f.root.join("big.txt"), "x".repeat(3000)).unwrap();
        let err = read(&policy, "big.txt", None, None).unwrap_err();
        assert_eq!(err.kind, "FileTooLarge");
        assert_eq!(
            err.message,
            "`big.txt` is 2.9 KiB (3000 bytes), over the max_file_bytes cap of 2.0 KiB (2048 bytes)"
        );
        assert_eq!(edit(&policy, "big.txt", "x", "y", true).unwrap_err().kind, "FileTooLarge");
        let err = write_file(&policy, WriteInput { file_path: "w.txt".into(), content: "y".repeat(2049) }).unwrap_err();
        assert!(err.message.contains("over the max_file_bytes cap of 2.0 KiB (2048 bytes)"), "{err}");
        fs::write(f.root.join("ok.txt"), "x".repeat(2000)).unwrap();
        assert_eq!(edit(&policy, "ok.txt", "x", "yy", true).unwrap_err().kind, "FileTooLarge");
        assert_eq!(human_size(1024 * 1024), "1.0 MiB (1048576 bytes)");
    }

    #[test]
    fn write_creates_parents_and_replaces_atomically() {
        let f = fixture();
        let out = write_file(&f.policy, WriteInput { file_path: "new/dir/a.txt".into(), content: "one\n".into() });
        assert_eq!(out.unwrap(), "Created `new/dir/a.txt` (4 bytes)");
        assert_eq!(fs::read_to_string(f.root.join("new/dir/a.txt")).unwrap(), "one\n");
        let out = write_file(&f.policy, WriteInput { file_path: "new/dir/a.txt".into(), content: "two\n".into() });
        assert_eq!(out.unwrap(), "Overwrote `new/dir/a.txt` (4 bytes)");
        assert_eq!(fs::read_to_string(f.root.join("new/dir/a.txt")).unwrap(), "two\n");
        // No temporary files are left behind.
        let names: Vec<_> = fs::read_dir(f.root.join("new/dir")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["a.txt"]);
        let err = write_file(&f.policy, WriteInput { file_path: "new".into(), content: String::new() }).unwrap_err();
        assert!(err.message.contains("is a directory"), "{err}");
        let err = write_file(&f.policy, WriteInput { file_path: "../escape.txt".into(), content: String::new() });
        assert!(err.unwrap_err().message.contains("outside the allowed write paths"));
    }

    #[cfg(unix)]
    #[test]
    fn write_keeps_permissions_and_writes_through_inside_symlinks() {
        use std::os::unix::fs::PermissionsExt;
        let f = fixture();
        let target = f.root.join("script.sh");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o751)).unwrap();
        std::os::unix::fs::symlink(&target, f.root.join("link.sh")).unwrap();
        write_file(&f.policy, WriteInput { file_path: "link.sh".into(), content: "new".into() }).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o751);
        assert!(fs::symlink_metadata(f.root.join("link.sh")).unwrap().file_type().is_symlink());
    }

    #[test]
    fn edit_requires_a_unique_match_unless_replace_all() {
        let f = fixture();
        fs::write(f.root.join("e.txt"), "foo bar foo baz foo\n").unwrap();
        let err = edit(&f.policy, "e.txt", "foo", "qux", false).unwrap_err();
        assert_eq!(err.kind, "AmbiguousMatch");
        assert_eq!(
            err.message,
            "old_string occurs 3 times in `e.txt`; include more surrounding text to make it unique, \
             or set replace_all to replace every occurrence"
        );
        assert_eq!(fs::read_to_string(f.root.join("e.txt")).unwrap(), "foo bar foo baz foo\n", "unchanged");
        let (message, count) = edit(&f.policy, "e.txt", "bar", "BAR", false).unwrap();
        assert_eq!((message.as_str(), count), ("Edited `e.txt`: 1 replacement", 1));
        let (message, count) = edit(&f.policy, "e.txt", "foo", "qux", true).unwrap();
        assert_eq!((message.as_str(), count), ("Edited `e.txt`: 3 replacements", 3));
        assert_eq!(fs::read_to_string(f.root.join("e.txt")).unwrap(), "qux BAR qux baz qux\n");
        let err = edit(&f.policy, "e.txt", "nope", "x", false).unwrap_err();
        assert_eq!(err.kind, "NoMatch");
        assert!(err.message.contains("not found in `e.txt`"));
        assert_eq!(edit(&f.policy, "e.txt", "", "x", false).unwrap_err().kind, "InvalidInput");
        assert_eq!(edit(&f.policy, "e.txt", "qux", "qux", true).unwrap_err().kind, "InvalidInput");
        assert_eq!(edit(&f.policy, "missing.txt", "a", "b", false).unwrap_err().kind, "NotFound");
        fs::write(f.root.join("latin1.txt"), b"caf\xe9").unwrap();
        assert!(edit(&f.policy, "latin1.txt", "caf", "x", false).unwrap_err().message.contains("not valid UTF-8"));
    }

    #[test]
    fn edit_needs_read_and_write_permission() {
        let f = fixture();
        fs::create_dir(f.root.join("out")).unwrap();
        fs::write(f.root.join("out/e.txt"), "abc").unwrap();
        let config = Config {
            working_dir: Some(f.root.clone()),
            allowed_read_paths: Some(vec!["in".into()]),
            allowed_write_paths: Some(vec!["out".into()]),
            ..Config::defaults()
        };
        let policy = Policy::from_config(config, Path::new("/")).unwrap();
        let err = edit(&policy, "out/e.txt", "a", "b", false).unwrap_err();
        assert!(err.message.contains("outside the allowed read paths"), "{err}");
    }

    #[test]
    fn list_dir_sorts_and_marks_directories() {
        let f = fixture();
        fs::create_dir_all(f.root.join("zdir/inner")).unwrap();
        fs::create_dir_all(f.root.join("adir")).unwrap();
        fs::write(f.root.join("b.txt"), "").unwrap();
        fs::write(f.root.join(".hidden"), "").unwrap();
        assert_eq!(list_dir(&f.policy, ListInput { path: None }).unwrap(), ".hidden\nadir/\nb.txt\nzdir/");
        assert_eq!(
            list_dir(&f.policy, ListInput { path: Some(String::new()) }).unwrap(),
            ".hidden\nadir/\nb.txt\nzdir/"
        );
        assert_eq!(list_dir(&f.policy, ListInput { path: Some("zdir".into()) }).unwrap(), "inner/");
        assert_eq!(list_dir(&f.policy, ListInput { path: Some("adir".into()) }).unwrap(), "[`adir` is empty]");
        assert!(list_dir(&f.policy, ListInput { path: Some("b.txt".into()) })
            .unwrap_err()
            .message
            .contains("not a directory"));
        assert!(list_dir(&f.policy, ListInput { path: Some("..".into()) }).is_err());
        let config =
            Config { working_dir: Some(f.root.clone()), denied_paths: vec!["zdir".into()], ..Config::defaults() };
        let policy = Policy::from_config(config, Path::new("/")).unwrap();
        assert_eq!(list_dir(&policy, ListInput { path: None }).unwrap(), ".hidden\nadir/\nb.txt");
    }

    #[test]
    fn list_dir_is_capped() {
        let f = fixture();
        for i in 0..(MAX_DIR_ENTRIES + 5) {
            fs::write(f.root.join(format!("f{i:05}")), "").unwrap();
        }
        let out = list_dir(&f.policy, ListInput { path: None }).unwrap();
        assert_eq!(out.lines().count(), MAX_DIR_ENTRIES + 1);
        assert!(out.ends_with("[output cut: 1000 of 1005 entries shown; use glob to narrow]"));
    }

    /// A command beside the model swaps a directory with a link to one
    /// outside (`renameat2(RENAME_EXCHANGE)`), as fast as it can, while the
    /// model reads and writes in it. Once, 1 read in 1,000 returned the
    /// outside file and 4 writes in 1,000 landed outside; now a call that
    /// meets the swap fails, and nothing is read or written outside.
    #[test]
    fn swapping_a_directory_for_a_link_never_leads_outside() {
        let f = fixture();
        let outside = tempfile::tempdir().unwrap();
        fs::create_dir(f.root.join("dir")).unwrap();
        fs::write(f.root.join("dir/f.txt"), "inside").unwrap();
        fs::write(outside.path().join("f.txt"), "outside").unwrap();
        std::os::unix::fs::symlink(outside.path(), f.root.join("swap")).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let swapper = {
            let (a, b) = (
                CString::new(f.root.join("dir").as_os_str().as_encoded_bytes()).unwrap(),
                CString::new(f.root.join("swap").as_os_str().as_encoded_bytes()).unwrap(),
            );
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut swaps = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    // SAFETY: NUL-terminated paths; renameat2 touches no other memory.
                    let done = unsafe {
                        libc::syscall(
                            libc::SYS_renameat2,
                            libc::AT_FDCWD,
                            a.as_ptr(),
                            libc::AT_FDCWD,
                            b.as_ptr(),
                            libc::RENAME_EXCHANGE,
                        )
                    };
                    swaps += u64::from(done == 0);
                }
                swaps
            })
        };
        let (mut read_inside, mut refused) = (0, 0);
        for i in 0..1000 {
            match read(&f.policy, "dir/f.txt", None, None) {
                Ok(text) => {
                    assert!(!text.contains("outside"), "read {i} returned the outside file: {text}");
                    read_inside += 1;
                }
                Err(_) => refused += 1,
            }
            let _ = write_file(&f.policy, WriteInput { file_path: format!("dir/new-{i}.txt"), content: "x".into() });
        }
        stop.store(true, Ordering::Relaxed);
        let swaps = swapper.join().unwrap();
        let planted: Vec<_> = fs::read_dir(outside.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(planted, ["f.txt"], "writes landed outside");
        assert_eq!(fs::read_to_string(outside.path().join("f.txt")).unwrap(), "outside");
        // The race was run: the directory moved under the calls, and some calls got through.
        assert!(swaps > 100 && read_inside > 0, "swaps {swaps}, reads inside {read_inside}, refused {refused}");
    }
}
