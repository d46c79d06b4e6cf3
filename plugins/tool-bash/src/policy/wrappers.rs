//! What a simple command runs: the program itself, what each wrapper runs
//! (`sudo X`, `env A=1 X`, `find … -exec X`, …) and the lines it hands to a shell.

use super::paths::basename;

/// The programs one simple command runs, and the lines it hands to a shell.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Expanded {
    /// The command itself, then what each wrapper runs; none for a command
    /// of assignments only, or a loop or case header.
    pub views: Vec<Vec<String>>,
    /// Lines run by `bash -c`, `eval`, `su -c`, `watch`.
    pub lines: Vec<String>,
}

const RESERVED_PREFIXES: [&str; 13] =
    ["!", "{", "}", "if", "then", "elif", "else", "fi", "do", "done", "while", "until", "esac"];

/// Expands one simple command's words into the programs it runs.
pub fn expand(words: &[String]) -> Expanded {
    let mut expanded = Expanded::default();
    let mut rest = words;
    loop {
        // Reserved words and assignments in front of the program.
        while let Some(first) = rest.first() {
            if RESERVED_PREFIXES.contains(&first.as_str()) || is_assignment(first) {
                rest = &rest[1..];
            } else if first == "time" {
                rest = &rest[1..];
                if rest.first().is_some_and(|w| w == "-p") {
                    rest = &rest[1..];
                }
            } else {
                break;
            }
        }
        let Some(first) = rest.first() else {
            return expanded;
        };
        if matches!(first.as_str(), "for" | "select" | "case" | "function" | "[[" | "]]") {
            return expanded;
        }
        expanded.views.push(rest.to_vec());
        let name = basename(first);
        let args = &rest[1..];
        match name {
            "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "fish" => {
                if let Some(line) = shell_command_string(args) {
                    expanded.lines.push(line);
                }
                return expanded;
            }
            "eval" => {
                if !args.is_empty() {
                    expanded.lines.push(args.join(" "));
                }
                return expanded;
            }
            "su" => {
                let mut it = args.iter();
                while let Some(arg) = it.next() {
                    if arg == "-c" || arg == "--command" {
                        expanded.lines.extend(it.next().cloned());
                    } else if let Some(line) = arg.strip_prefix("--command=") {
                        expanded.lines.push(line.to_owned());
                    }
                }
                return expanded;
            }
            "watch" => {
                let start = skip_options(args, &["-n", "--interval", "-q", "--equexit"], 0);
                if start < args.len() {
                    expanded.lines.push(args[start..].join(" "));
                }
                return expanded;
            }
            "find" => {
                let mut i = 0;
                while i < args.len() {
                    if matches!(args[i].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                        let end =
                            args[i + 1..].iter().position(|a| a == ";" || a == "+").map_or(args.len(), |p| i + 1 + p);
                        if end > i + 1 {
                            let inner = expand(&args[i + 1..end]);
                            expanded.views.extend(inner.views);
                            expanded.lines.extend(inner.lines);
                        }
                        i = end;
                    }
                    i += 1;
                }
                return expanded;
            }
            "command" if args.iter().any(|a| a == "-v" || a == "-V") => return expanded,
            _ => {}
        }
        let Some((with_argument, positionals)) = wrapper(name) else {
            return expanded;
        };
        let start = skip_options(args, with_argument, positionals);
        rest = &args[start.min(args.len())..];
    }
}

/// A program that runs another: its options taking a separate argument,
/// and how many positional arguments come before the command.
fn wrapper(name: &str) -> Option<(&'static [&'static str], usize)> {
    Some(match name {
        "sudo" => (&["-u", "-g", "-h", "-p", "-r", "-t", "-C", "-D", "-U", "-T", "-R", "--user", "--group"], 0),
        "doas" => (&["-u", "-C"], 0),
        "pkexec" => (&["--user"], 0),
        "run0" => (&["-u", "--user", "-g", "--group", "-D", "--chdir", "--unit", "--property", "--slice"], 0),
        "env" => (&["-u", "--unset", "-C", "--chdir", "-S", "--split-string"], 0),
        "nice" => (&["-n", "--adjustment"], 0),
        "ionice" => (&["-c", "--class", "-n", "--classdata", "-p", "--pid"], 0),
        "timeout" => (&["-s", "--signal", "-k", "--kill-after"], 1),
        "stdbuf" => (&["-i", "-o", "-e", "--input", "--output", "--error"], 0),
        "xargs" => (&["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--arg-file", "--delimiter", "--max-args"], 0),
        "exec" => (&["-a"], 0),
        "chroot" => (&[], 1),
        "flock" => (&["-w", "--timeout", "-E", "--conflict-exit-code"], 1),
        "strace" | "ltrace" => (&["-o", "-p", "-e", "-s", "-u", "-E", "-a"], 0),
        "nohup" | "setsid" | "command" | "builtin" | "unbuffer" | "busybox" | "caffeinate" | "time" => (&[], 0),
        _ => return None,
    })
}

/// The index of the wrapped command in `args`.
fn skip_options(args: &[String], with_argument: &[&str], positionals: usize) -> usize {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            i += 1;
            break;
        }
        if is_assignment(arg) {
            i += 1;
        } else if arg.starts_with('-') && arg.len() > 1 {
            i += if with_argument.contains(&arg.as_str()) { 2 } else { 1 };
        } else {
            break;
        }
    }
    i + positionals
}

/// The string after `-c` (also in a cluster like `-lc`), skipping `-o opt`.
fn shell_command_string(args: &[String]) -> Option<String> {
    let mut has_c = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if matches!(arg.as_str(), "-o" | "+o" | "-O" | "+O") {
            i += 2;
            continue;
        }
        if arg == "--" {
            i += 1;
            break;
        }
        if arg.starts_with("--") {
            i += 1;
            continue;
        }
        if (arg.starts_with('-') || arg.starts_with('+')) && arg.len() > 1 {
            has_c |= arg.starts_with('-') && arg.contains('c');
            i += 1;
            continue;
        }
        break;
    }
    if has_c {
        args.get(i).cloned()
    } else {
        None
    }
}

/// `NAME=value` or `NAME+=value`.
fn is_assignment(word: &str) -> bool {
    let Some(eq) = word.find('=') else {
        return false;
    };
    let name = word[..eq].strip_suffix('+').unwrap_or(&word[..eq]);
    let name = name.split('[').next().unwrap_or(name);
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_of_wrappers_and_shells() {
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let views = |s: &str| expand(&words(s)).views.into_iter().map(|v| v.join(" ")).collect::<Vec<_>>();
        assert_eq!(
            views("sudo -u root env A=1 nice -n 5 rm x"),
            ["sudo -u root env A=1 nice -n 5 rm x", "env A=1 nice -n 5 rm x", "nice -n 5 rm x", "rm x"]
        );
        assert_eq!(views("A=1 B=2"), Vec::<String>::new());
        assert_eq!(views("! time -p ls"), ["ls"]);
        assert_eq!(views("for x in a b"), Vec::<String>::new());
        assert_eq!(expand(&words("bash -o pipefail -ec x")).lines, ["x"]);
        assert_eq!(expand(&words("bash script.sh")).lines, Vec::<String>::new());
        assert_eq!(expand(&words("watch -n 1 ls -l")).lines, ["ls -l"]);
    }
}
