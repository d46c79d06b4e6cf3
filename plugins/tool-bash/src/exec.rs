//! Running commands: foreground runs through `amplifier_sandbox::process`
//! (capped output, a timeout that kills the whole process group), and
//! background jobs killed with the module.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use amplifier_sandbox::process::{signal_group, Finished};
use tokio::process::{Child, Command};

/// How every command starts: where, with which environment, confined how.
#[derive(Debug)]
pub struct Launch {
    pub dir: PathBuf,
    /// `None` runs commands unconfined (`full-access`, or a kernel without
    /// Landlock and `allow_unsandboxed`).
    pub sandbox: Option<amplifier_sandbox::Sandbox>,
    /// Names passed on from amplifier's environment.
    pub inherit_env: Vec<String>,
    pub env: BTreeMap<String, String>,
}

impl Launch {
    /// `bash -c command` in `dir`, in a new process group that dies with
    /// amplifier, stdin from /dev/null, with only the allowed environment,
    /// confined.
    fn bash(&self, command: &str) -> Command {
        let mut bash = Command::new("bash");
        bash.arg("-c").arg(command).current_dir(&self.dir).stdin(Stdio::null()).process_group(0);
        let std = bash.as_std_mut();
        amplifier_sandbox::env::apply(std, self.inherit_env.iter().map(String::as_str), &self.env);
        // Before the sandbox: the guardian stays outside it.
        amplifier_sandbox::lifeline::guard(std);
        if let Some(sandbox) = &self.sandbox {
            sandbox.confine(std);
        }
        bash
    }
}

/// Runs `command` in the foreground (see `amplifier_sandbox::process::run`).
pub async fn run(launch: &Launch, command: &str, timeout: Duration, limit: usize) -> std::io::Result<Finished> {
    amplifier_sandbox::process::run(launch.bash(command), None, timeout, limit).await
}

/// Commands started with `run_in_background`, by process group; all of
/// them are killed when this is dropped (when the module is unloaded at
/// the end of the session).
#[derive(Debug, Default)]
pub struct BackgroundJobs {
    groups: Arc<Mutex<HashSet<i32>>>,
}

impl BackgroundJobs {
    /// Starts `command` detached (own process group, no stdin, output
    /// discarded) and returns its pid, which is also its process group id.
    pub fn start(&self, launch: &Launch, command: &str) -> std::io::Result<u32> {
        let child = launch.bash(command).stdout(Stdio::null()).stderr(Stdio::null()).kill_on_drop(false).spawn()?;
        let pid = child.id().ok_or_else(|| std::io::Error::other("bash exited before its pid was read"))?;
        self.lock().insert(pid as i32);
        tokio::spawn(reap(child, pid as i32, self.groups.clone()));
        Ok(pid)
    }

    /// The process groups still tracked.
    #[cfg(test)]
    pub fn groups(&self) -> Vec<i32> {
        self.lock().iter().copied().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<i32>> {
        self.groups.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Kills every background process group (SIGKILL).
    pub fn kill_all(&self) {
        for pgid in self.lock().drain() {
            signal_group(pgid, libc::SIGKILL);
        }
    }
}

/// Waits for a background shell (so it never lingers as a zombie) and
/// forgets its group once the group is empty; a group whose shell exited
/// but whose children still run stays tracked, to be killed at the end.
async fn reap(mut child: Child, pgid: i32, groups: Arc<Mutex<HashSet<i32>>>) {
    let _ = child.wait().await;
    let empty = !signal_group(pgid, 0);
    if empty {
        groups.lock().unwrap_or_else(|e| e.into_inner()).remove(&pgid);
    }
}

impl Drop for BackgroundJobs {
    fn drop(&mut self) {
        self.kill_all();
    }
}
