//! The thread every file operation runs on, confined by Landlock to the
//! tool's roots where the kernel has it: a second line behind the policy's
//! checks, so a mistake in them still cannot read or write outside. The
//! secret paths (`~/.ssh`, `~/.aws`, amplifier's home…) stay closed as they
//! are to tool-bash's commands, even under a root that holds them (the
//! home directory as `working_dir`): its files and subdirectories stay
//! open and it lists, but no file can be created directly in it. Landlock
//! confines a thread, not the process: the host's other threads are
//! untouched.

use std::sync::mpsc;

use amplifier_sandbox::{Policy as SandboxPolicy, Sandbox};

use crate::policy::Policy;

type Job = Box<dyn FnOnce() + Send>;

pub struct Worker {
    jobs: mpsc::Sender<Job>,
}

impl Worker {
    /// The worker for `policy`'s roots; `Err` says why it runs unconfined
    /// (a kernel without Landlock), and the worker still works.
    pub fn start(policy: &Policy) -> (Worker, Result<(), String>) {
        let sandbox = Sandbox::new(SandboxPolicy {
            readable: policy.read_roots.clone(),
            writable: policy.write_roots.clone(),
            // Denied paths stay the policy's alone: hidden from Landlock they
            // would split their root, whose top level could then take no new file.
            hidden: Vec::new(),
            // What the tools never ask for: no command runs on this thread.
            network: true,
            unix_sockets: Vec::new(),
            ..SandboxPolicy::default()
        });
        let (jobs, queue) = mpsc::channel::<Job>();
        let (confined_tx, confined_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("tool-filesystem".into())
            .spawn(move || {
                let confined = match &sandbox {
                    Ok(sandbox) => sandbox.confine_this_thread().map_err(|err| err.to_string()),
                    Err(err) => Err(err.to_string()),
                };
                let _ = confined_tx.send(confined);
                for job in queue {
                    job();
                }
            })
            .expect("a thread for the file operations");
        let confined = confined_rx.recv().unwrap_or_else(|_| Err("the worker thread ended".into()));
        (Worker { jobs }, confined)
    }

    /// Runs `job` on the worker and waits for its result without blocking
    /// the caller's thread.
    pub async fn run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> T {
        let (done, result) = futures::channel::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(job());
        });
        self.jobs.send(job).expect("the worker thread lives as long as the tool");
        result.await.expect("the worker thread runs every job it takes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_reaches_nothing_outside_the_roots_even_past_the_policy() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "s").unwrap();
        let policy = Policy::rooted(&root.path().canonicalize().unwrap());
        let (worker, confined) = Worker::start(&policy);
        if amplifier_sandbox::support().is_enforceable() {
            confined.expect("confined where Landlock is");
        }
        let (inside, out) = (root.path().join("a.txt"), outside.path().to_owned());
        let (wrote_inside, read_outside, wrote_outside) = amplifier_sdk::runtime().block_on(worker.run(move || {
            // Plain std::fs: no policy check in the way, only the kernel.
            (
                std::fs::write(&inside, "ok").is_ok(),
                std::fs::read(out.join("secret.txt")).is_ok(),
                std::fs::write(out.join("planted.txt"), "x").is_ok(),
            )
        }));
        assert!(wrote_inside);
        if amplifier_sandbox::support().is_enforceable() {
            assert!(!read_outside && !wrote_outside, "read {read_outside}, wrote {wrote_outside}");
            assert!(!outside.path().join("planted.txt").exists());
        }
        // The test's own thread is not confined.
        assert!(std::fs::read(outside.path().join("secret.txt")).is_ok());
    }
}
