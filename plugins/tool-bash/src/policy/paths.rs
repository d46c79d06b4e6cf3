//! Paths as the rules see them: resolved lexically, never on the filesystem.

use super::Policy;

impl Policy {
    /// `/`, `/*`, a top-level system directory (or its `*`), `~`, `~/*`,
    /// `$HOME` (or its `*`), or the home directory's absolute path.
    pub(super) fn is_critical(&self, path: &str) -> bool {
        for prefix in ["~", "$HOME", "${HOME}"] {
            if let Some(rest) = path.strip_prefix(prefix) {
                // `~user` is another home directory; `$HOMEDIR` is another variable.
                let rest = if prefix == "~" {
                    rest.find('/').map_or("", |slash| &rest[slash..])
                } else if rest.is_empty() || rest.starts_with('/') {
                    rest
                } else {
                    continue;
                };
                return is_whole_dir(&normalize_relative(rest));
            }
        }
        let Some(components) = normalize_absolute(path) else {
            return false;
        };
        let normalized = format!("/{}", components.join("/"));
        if self.home.as_deref() == Some(normalized.as_str()) {
            return true;
        }
        if let Some(home) = &self.home {
            if normalized.strip_prefix(home.as_str()) == Some("/*") {
                return true;
            }
        }
        match components.as_slice() {
            [] => true,
            [only] => only == "*" || SYSTEM_DIRS.contains(&only.as_str()),
            [dir, star] => star == "*" && SYSTEM_DIRS.contains(&dir.as_str()),
            _ => false,
        }
    }
}

/// Top-level directories whose loss breaks the machine (`/tmp` is not one).
const SYSTEM_DIRS: [&str; 20] = [
    "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt", "proc", "root",
    "run", "sbin", "snap", "srv", "sys", "usr",
];

pub(super) fn basename(word: &str) -> &str {
    word.rsplit('/').next().filter(|b| !b.is_empty()).unwrap_or(word)
}

/// The components of an absolute path, `.` and `..` resolved lexically.
pub(super) fn normalize_absolute(path: &str) -> Option<Vec<String>> {
    path.strip_prefix('/').map(normalize_relative)
}

fn normalize_relative(path: &str) -> Vec<String> {
    let mut components: Vec<String> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                components.pop();
            }
            other => components.push(other.to_owned()),
        }
    }
    components
}

/// A directory itself or all of its entries.
fn is_whole_dir(components: &[String]) -> bool {
    components.is_empty() || components == ["*"]
}

/// `.`, `./`, `*`, `./*`, `.*`, `..`, `../*`, `$PWD`.
pub(super) fn is_working_dir(target: &str) -> bool {
    for prefix in ["$PWD", "${PWD}"] {
        if let Some(rest) = target.strip_prefix(prefix) {
            if rest.is_empty() || rest.starts_with('/') {
                return is_whole_dir(&normalize_relative(rest));
            }
        }
    }
    if target.starts_with('/') || target.starts_with('~') {
        return false;
    }
    let parts: Vec<&str> = target.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    match parts.as_slice() {
        [] => true,
        ["*"] | [".*"] | [".."] => true,
        ["..", rest @ ..] => rest.iter().all(|p| *p == ".." || *p == "*"),
        _ => false,
    }
}

/// A device file other than the harmless ones.
pub(super) fn is_device(path: &str) -> bool {
    let Some(components) = normalize_absolute(path) else {
        return false;
    };
    match components.as_slice() {
        [dev, name] if dev == "dev" => !matches!(
            name.as_str(),
            "null" | "zero" | "full" | "random" | "urandom" | "stdout" | "stderr" | "stdin" | "tty"
        ),
        [dev, sub, ..] if dev == "dev" => !matches!(sub.as_str(), "fd" | "shm" | "pts" | "mqueue"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::tests::policy;
    use crate::policy::Profile;

    #[test]
    fn critical_paths() {
        let p = policy(Profile::Standard);
        for path in
            ["/", "//", "/*", "/.", "/usr", "/usr/", "/usr/*", "~", "~/", "~/*", "~bob", "$HOME", "/home/agent/"]
        {
            assert!(p.is_critical(path), "{path}");
        }
        for path in ["/tmp", "/usr/local", "~/x", "$HOMEDIR", "x", "/home/agent/x", "/tmp/*"] {
            assert!(!p.is_critical(path), "{path}");
        }
        assert!(is_device("/dev/sda") && is_device("/dev/disk/by-id/x"));
        assert!(!is_device("/dev/null") && !is_device("/dev/fd/1") && !is_device("/tmp/dev/sda"));
    }
}
