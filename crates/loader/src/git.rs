//! Git module sources: `git+URL[@REF][#subdirectory=PATH]`.
//!
//! ```text
//! git+https://host/org/repo@v1.2#subdirectory=plugins/tool-x
//! git+ssh://git@host/org/repo@main
//! git+file:///srv/repos/tools@0123…(a full commit id)
//! git+../tools@main                  # a local repository, relative to the plan
//! git+git://127.0.0.1:9418/repo      # no ref: the remote's default branch
//! ```
//!
//! The cache follows cargo's layout under `$AMPLIFIER_HOME/cache/git`:
//!
//! ```text
//! db/<ident>/                        # a bare repository per remote
//! db/<ident>.lock                    # held while fetching or checking out
//! checkouts/<ident>/<short-commit>/  # one source tree per commit, with `.ok`
//! ```
//!
//! `ident` is the last path segment of the canonical URL and a short hash of
//! it. A checkout is made in a temporary directory, marked with `.ok`
//! (holding the full commit id) and renamed into place, so an interrupted
//! checkout never counts as cached; a checkout directory without a valid
//! `.ok` is deleted and made again.
//!
//! A full commit id that is already in the cache needs no network. Branch and
//! tag refs are looked up on the remote on every resolution (one round trip)
//! and fetched only when the commit is not in the db yet, shallowly
//! (`depth 1`) where the transport allows, else in full. With `offline`, refs
//! are resolved from the db and nothing touches the network.
//!
//! Transports: libgit2's for `file://`, local paths, `git://` and `http://`;
//! the `git` command for `https://` and `ssh://` (your ssh config, keys,
//! credential helpers and proxies apply, as with cargo's
//! `net.git-fetch-with-cli`). This build of libgit2 has no TLS and no ssh of
//! its own: those would link OpenSSL and libssh2 into the binary, which
//! every process then loads at start (about 0.95 ms of each `amplifier
//! run`) and every build needs the headers of. With
//! `AMPLIFIER_GIT_FETCH_WITH_CLI=true` the `git` command fetches every URL.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use amplifier_kernel::traits::{BoxFuture, ModuleSourceResolver, ResolveError, ResolveRequest, ResolvedModule};
use git2::{Oid, Repository};
use sha2::{Digest, Sha256};

use crate::builder::hex;

/// The marker a completed checkout holds (its content: the full commit id).
pub const OK_MARKER: &str = ".ok";

/// Set to `true` (or `1`) to fetch with the `git` command instead of libgit2.
pub const FETCH_WITH_CLI_VAR: &str = "AMPLIFIER_GIT_FETCH_WITH_CLI";

/// What a git source asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitRef {
    /// No `@REF`: the remote's default branch (its `HEAD`).
    DefaultBranch,
    /// A full 40-hex commit id.
    Commit(String),
    /// A branch or tag name (or an abbreviated commit id, found after a full fetch).
    Named(String),
}

impl std::fmt::Display for GitRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitRef::DefaultBranch => f.write_str("HEAD (the default branch)"),
            GitRef::Commit(id) | GitRef::Named(id) => f.write_str(id),
        }
    }
}

/// Why a git source could not be parsed, resolved or checked out.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The `git+…` source is malformed; `spec` is the source as written.
    #[error("source '{spec}': {problem}")]
    BadSource { spec: String, problem: SourceProblem },
    #[error("cannot create {}: {source}", path.display())]
    CreateDir { path: PathBuf, source: std::io::Error },
    #[error("cannot open the lock {}: {source}", path.display())]
    OpenLock { path: PathBuf, source: std::io::Error },
    #[error("cannot lock {}: {source}", path.display())]
    Lock { path: PathBuf, source: std::io::Error },
    #[error("cannot create the git cache {}: {}", path.display(), source.message())]
    InitDb { path: PathBuf, source: git2::Error },
    /// The remote could not be listed or fetched from.
    #[error("cannot fetch from the git remote {url}: {source}")]
    Unreachable { url: String, source: TransportError },
    /// A `GitRef::Commit` that is no commit id (a hand-made [`GitSpec`]).
    #[error("{spec}: {}", source.message())]
    BadCommitId { spec: String, source: git2::Error },
    #[error("{spec}: commit {commit} is not in {url} (not on any branch or tag)")]
    CommitNotFound { spec: String, commit: String, url: String },
    /// The remote has no branch or tag of that name; `branches` and `tags`
    /// are some of those it has, for the message.
    #[error(
        "{spec}: unknown ref '{reference}': {url} has no branch or tag of that name (branches: {}; tags: {})",
        listed(branches),
        listed(tags)
    )]
    UnknownRef { spec: String, reference: GitRef, url: String, branches: Box<[String]>, tags: Box<[String]> },
    #[error("{spec}: {remote_ref} does not name a commit: {}", source.message())]
    NotACommit { spec: String, remote_ref: String, source: git2::Error },
    /// `--offline`, and the db has never seen the ref.
    #[error(
        "git source {url} at ref {reference} is not in the cache and --offline is set\n\
         hint: run once without --offline to fetch it"
    )]
    NotCached { url: String, reference: GitRef },
    /// A step of materializing a checkout failed; `action` says which, on what.
    #[error("{spec}: {action}: {source}")]
    CheckoutIo { spec: String, action: String, source: std::io::Error },
    #[error("{spec}: {action}: {}", source.message())]
    CheckoutGit { spec: String, action: String, source: git2::Error },
    /// Another process pruned the checkout between its creation and its use.
    #[error("{spec}: the checkout of {commit} vanished from the cache while in use")]
    Vanished { spec: String, commit: String },
    #[error(
        "{spec}: subdirectory '{subdirectory}' does not exist in the repository at commit {} (ref {reference})",
        short(commit)
    )]
    NoSubdirectory { spec: String, subdirectory: String, commit: String, reference: GitRef },
}

/// What is wrong with a `git+…` source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceProblem {
    #[error("a git source starts with `git+`")]
    NoPrefix,
    #[error("`subdirectory` must be a relative path inside the repository")]
    SubdirectoryEscapes,
    #[error("unknown fragment `{0}`; expected `#subdirectory=PATH`")]
    UnknownFragment(String),
    #[error("empty ref after `@`")]
    EmptyRef,
    #[error("no repository URL after `git+`")]
    NoUrl,
    #[error("unsupported scheme `{0}`; use https, ssh, git, file or a local path")]
    UnsupportedScheme(String),
}

/// Why listing or fetching a remote failed, as the transport said it.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    #[error("{}", .0.message())]
    Libgit2(#[from] git2::Error),
    #[error("cannot run `{command}`: {source}{}", install_git_hint(source))]
    Spawn { command: &'static str, source: std::io::Error },
    /// The `git` command failed; its stderr, trimmed.
    #[error("{stderr}")]
    Cli { stderr: String },
}

fn install_git_hint(spawn: &std::io::Error) -> &'static str {
    match spawn.kind() {
        std::io::ErrorKind::NotFound => {
            "\nhint: install git: https:// and ssh:// sources are fetched with the `git` command"
        }
        _ => "",
    }
}

/// A remote's branch or tag names as [`GitError::UnknownRef`] lists them.
fn listed(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// A parsed `git+…` source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSpec {
    /// The URL given to the transport (`file://` for local paths).
    pub fetch_url: String,
    /// The URL with case, trailing `/` and `.git` normalized: names the cache entry.
    pub canonical_url: String,
    pub reference: GitRef,
    pub subdirectory: Option<String>,
}

impl GitSpec {
    /// Parses `git+URL[@REF][#subdirectory=PATH]`; relative local paths are
    /// taken relative to `base_dir`.
    pub fn parse(source: &str, base_dir: Option<&Path>) -> Result<GitSpec, GitError> {
        let bad = |problem: SourceProblem| GitError::BadSource { spec: source.to_owned(), problem };
        let rest = source.strip_prefix("git+").ok_or_else(|| bad(SourceProblem::NoPrefix))?;
        let (rest, fragment) = match rest.split_once('#') {
            Some((rest, fragment)) => (rest, Some(fragment)),
            None => (rest, None),
        };
        let mut subdirectory = None;
        for pair in fragment.into_iter().flat_map(|f| f.split('&')).filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("subdirectory", path)) if !path.is_empty() => {
                    let relative = Path::new(path);
                    if relative.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
                        return Err(bad(SourceProblem::SubdirectoryEscapes));
                    }
                    subdirectory = Some(path.trim_end_matches('/').to_owned());
                }
                _ => return Err(bad(SourceProblem::UnknownFragment(pair.to_owned()))),
            }
        }
        // The ref is after the last `@` of the path (an `@` before the path is user info).
        let path_start = match rest.find("://") {
            Some(i) => rest[i + 3..].find('/').map_or(rest.len(), |j| i + 3 + j),
            None => 0,
        };
        let (location, reference) = match rest[path_start..].rfind('@') {
            Some(at) => (&rest[..path_start + at], Some(&rest[path_start + at + 1..])),
            None => (rest, None),
        };
        let reference = match reference {
            None => GitRef::DefaultBranch,
            Some("") => return Err(bad(SourceProblem::EmptyRef)),
            Some(r) if r.len() == 40 && r.chars().all(|c| c.is_ascii_hexdigit()) => {
                GitRef::Commit(r.to_ascii_lowercase())
            }
            Some(r) => GitRef::Named(r.to_owned()),
        };
        if location.is_empty() {
            return Err(bad(SourceProblem::NoUrl));
        }
        let fetch_url = match location.split_once("://") {
            Some((scheme, _))
                if !["file", "http", "https", "ssh", "git"].contains(&scheme.to_ascii_lowercase().as_str()) =>
            {
                return Err(bad(SourceProblem::UnsupportedScheme(scheme.to_owned())))
            }
            Some(_) => location.to_owned(),
            None => {
                let path = Path::new(location);
                let path = match (base_dir, path.is_relative()) {
                    (Some(base), true) => base.join(path),
                    _ => path.to_owned(),
                };
                let path = path.canonicalize().unwrap_or(path);
                format!("file://{}", path.display())
            }
        };
        Ok(GitSpec { canonical_url: canonical_url(&fetch_url), fetch_url, reference, subdirectory })
    }

    /// `git+<canonical url>[@ref][#subdirectory=…]`: how the lockfile names this source.
    pub fn canonical_source(&self) -> String {
        let mut source = format!("git+{}", self.canonical_url);
        if let GitRef::Commit(r) | GitRef::Named(r) = &self.reference {
            source.push('@');
            source.push_str(r);
        }
        if let Some(sub) = &self.subdirectory {
            source.push_str("#subdirectory=");
            source.push_str(sub);
        }
        source
    }

    /// The source as written for messages (the canonical form).
    fn display(&self) -> String {
        self.canonical_source()
    }
}

/// Lower-cases scheme and host, drops a trailing `/` and `.git` (and for
/// github.com, lower-cases the path: GitHub is case-insensitive), so that
/// spellings of one remote share one cache entry.
pub fn canonical_url(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (scheme.to_ascii_lowercase(), rest),
        None => return url.trim_end_matches('/').to_owned(),
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    // Keep user info as written; lower-case the host.
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => format!("{user}@{}", host.to_ascii_lowercase()),
        None => authority.to_ascii_lowercase(),
    };
    let mut path = path.trim_end_matches('/');
    path = path.strip_suffix(".git").unwrap_or(path);
    let path = path.trim_end_matches('/');
    let path = if authority.ends_with("github.com") { path.to_ascii_lowercase() } else { path.to_owned() };
    format!("{scheme}://{authority}{path}")
}

/// `<last path segment>-<16 hex of sha256(canonical url)>`: the cache
/// directory name of a remote (cargo's scheme).
pub fn ident(canonical_url: &str) -> String {
    let last = canonical_url.rsplit('/').find(|s| !s.is_empty()).unwrap_or("");
    let last = last.rsplit(':').next().unwrap_or(last);
    let mut name: String =
        last.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    if name.is_empty() || name.chars().all(|c| c == '.') {
        name = "_empty".to_owned();
    }
    let hash = hex(&Sha256::digest(canonical_url.as_bytes()));
    format!("{name}-{}", &hash[..16])
}

/// A completed checkout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitCheckout {
    /// `git+<canonical url>[@ref][#subdirectory=…]`.
    pub source: String,
    /// The full commit id.
    pub commit: String,
    /// `checkouts/<ident>/<short-commit>`.
    pub checkout_dir: PathBuf,
    /// The module's directory (the checkout, or its subdirectory).
    pub module_dir: PathBuf,
}

/// The git cache under `$AMPLIFIER_HOME/cache/git`.
pub struct GitCache {
    root: PathBuf,
    offline: AtomicBool,
    /// Show fetch progress (stderr is a terminal).
    progress: bool,
    /// One resolution per source per process: `prepare` and `load` (and child
    /// sessions) resolve the same module without fetching twice.
    memo: Mutex<HashMap<String, Arc<Resolved>>>,
}

/// A source's resolution, made once; its error is shared by every caller
/// that asks for the source (hence the `Arc`: io and git2 errors are not `Clone`).
type Resolved = OnceLock<Result<GitCheckout, Arc<GitError>>>;

impl GitCache {
    pub fn new(amplifier_home: &Path) -> Self {
        GitCache {
            root: amplifier_home.join("cache").join("git"),
            offline: AtomicBool::new(false),
            progress: std::io::stderr().is_terminal(),
            memo: Mutex::default(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Never touch the network: refs are resolved from the cached db.
    pub fn set_offline(&self, offline: bool) {
        self.offline.store(offline, Ordering::SeqCst);
    }

    pub fn offline(&self) -> bool {
        self.offline.load(Ordering::SeqCst)
    }

    /// The full commit id of the checkout that holds `module_dir`, if it is one.
    pub fn commit_of(&self, module_dir: &Path) -> Option<String> {
        let checkouts = self.root.join("checkouts");
        module_dir
            .ancestors()
            .take_while(|dir| dir.starts_with(&checkouts) && *dir != checkouts)
            .find_map(|dir| std::fs::read_to_string(dir.join(OK_MARKER)).ok())
            .map(|commit| commit.trim().to_owned())
    }

    /// Resolves a source to a checkout (once per process per source).
    pub fn checkout(&self, spec: &GitSpec) -> Result<GitCheckout, Arc<GitError>> {
        let cell = {
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            memo.entry(spec.canonical_source()).or_default().clone()
        };
        cell.get_or_init(|| self.checkout_uncached(spec).map_err(Arc::new)).clone()
    }

    fn checkout_uncached(&self, spec: &GitSpec) -> Result<GitCheckout, GitError> {
        let ident = ident(&spec.canonical_url);
        // A full commit id already checked out: no db, no network.
        let commit = match &spec.reference {
            GitRef::Commit(id) if self.completed(&ident, id).is_some() => id.clone(),
            _ => {
                let _lock = CacheLock::acquire(&self.root.join("db").join(format!("{ident}.lock")))?;
                let db = self.open_db(&ident)?;
                let commit = if self.offline() { resolve_offline(&db, spec)? } else { self.fetch(&db, spec)? };
                self.check_out(&db, &ident, commit, spec)?;
                commit.to_string()
            }
        };
        let checkout_dir = self
            .completed(&ident, &commit)
            .ok_or_else(|| GitError::Vanished { spec: spec.display(), commit: commit.clone() })?;
        let module_dir = match &spec.subdirectory {
            Some(sub) => checkout_dir.join(sub),
            None => checkout_dir.clone(),
        };
        if !module_dir.is_dir() {
            return Err(GitError::NoSubdirectory {
                spec: spec.display(),
                subdirectory: spec.subdirectory.clone().unwrap_or_default(),
                commit,
                reference: spec.reference.clone(),
            });
        }
        Ok(GitCheckout { source: spec.canonical_source(), commit, checkout_dir, module_dir })
    }

    fn checkout_dir(&self, ident: &str, commit: &str) -> PathBuf {
        self.root.join("checkouts").join(ident).join(short(commit))
    }

    /// The checkout directory of `commit` if it is complete.
    fn completed(&self, ident: &str, commit: &str) -> Option<PathBuf> {
        let dir = self.checkout_dir(ident, commit);
        let marker = std::fs::read_to_string(dir.join(OK_MARKER)).ok()?;
        (marker.trim() == commit).then_some(dir)
    }

    fn open_db(&self, ident: &str) -> Result<Repository, GitError> {
        let path = self.root.join("db").join(ident);
        if let Ok(db) = Repository::open_bare(&path) {
            return Ok(db);
        }
        // Missing or damaged: start over (it is only a cache).
        let _ = std::fs::remove_dir_all(&path);
        if let Err(source) = std::fs::create_dir_all(&path) {
            return Err(GitError::CreateDir { path, source });
        }
        Repository::init_bare(&path).map_err(|source| GitError::InitDb { path, source })
    }

    /// Looks the ref up on the remote and fetches its commit unless the db has it.
    fn fetch(&self, db: &Repository, spec: &GitSpec) -> Result<Oid, GitError> {
        let url = &spec.fetch_url;
        let transport = Transport::for_url(url);
        if let GitRef::Commit(id) = &spec.reference {
            let oid = Oid::from_str(id).map_err(|source| GitError::BadCommitId { spec: spec.display(), source })?;
            if db.find_commit(oid).is_ok() {
                return Ok(oid);
            }
            let local = format!("refs/amplifier/commits/{id}");
            // Servers that allow fetching any reachable commit answer this; others need a full fetch.
            if self.fetch_refspecs(db, &transport, url, &[format!("+{id}:{local}")], true).is_err() {
                self.fetch_refspecs(db, &transport, url, &full_refspecs(), false)?;
            }
            return match db.find_commit(oid) {
                Ok(_) => {
                    let _ = db.reference(&local, oid, true, "amplifier: pinned commit");
                    Ok(oid)
                }
                Err(_) => Err(GitError::CommitNotFound { spec: spec.display(), commit: id.clone(), url: url.clone() }),
            };
        }
        let heads = transport.list(db, url).map_err(|source| GitError::Unreachable { url: url.clone(), source })?;
        let found = match &spec.reference {
            GitRef::DefaultBranch => {
                find_head(&heads, "HEAD").map(|oid| ("HEAD".to_owned(), oid, "refs/remotes/origin/HEAD".to_owned()))
            }
            GitRef::Named(name) => [format!("refs/heads/{name}"), format!("refs/tags/{name}")]
                .into_iter()
                .find_map(|remote| find_head(&heads, &remote).map(|oid| (remote, oid)))
                .map(|(remote, oid)| {
                    let local = local_ref(&remote);
                    (remote, oid, local)
                }),
            GitRef::Commit(_) => unreachable!("handled above"),
        };
        let Some((remote_ref, oid, local_ref)) = found else {
            if let GitRef::Named(name) = &spec.reference {
                // An abbreviated commit id: only a full fetch can find it.
                if name.len() >= 7 && name.chars().all(|c| c.is_ascii_hexdigit()) {
                    self.fetch_refspecs(db, &transport, url, &full_refspecs(), false)?;
                    if let Ok(commit) = db.revparse_single(name).and_then(|o| o.peel_to_commit()) {
                        return Ok(commit.id());
                    }
                }
            }
            return Err(unknown_ref(spec, &heads));
        };
        if db.find_commit(oid).is_err() {
            self.fetch_refspecs(db, &transport, url, &[format!("+{remote_ref}:{local_ref}")], true)?;
        }
        let commit = db
            .find_object(oid, None)
            .and_then(|o| o.peel_to_commit())
            .map_err(|source| GitError::NotACommit { spec: spec.display(), remote_ref: remote_ref.clone(), source })?;
        // Remember where the ref pointed, for --offline.
        let _ = db.reference(&local_ref, oid, true, "amplifier: fetched");
        Ok(commit.id())
    }

    /// Fetches `refspecs`, shallowly first when asked; a failed shallow fetch
    /// (a transport or server without shallow support) is retried in full.
    fn fetch_refspecs(
        &self,
        db: &Repository,
        transport: &Transport,
        url: &str,
        refspecs: &[String],
        shallow: bool,
    ) -> Result<(), GitError> {
        if shallow {
            match transport.fetch(db, url, refspecs, true, self.progress) {
                Ok(()) => return Ok(()),
                Err(reason) => tracing::debug!("shallow fetch of {url} failed ({reason}); fetching in full"),
            }
        }
        transport
            .fetch(db, url, refspecs, false, self.progress)
            .map_err(|source| GitError::Unreachable { url: url.to_owned(), source })
    }

    /// Materializes `commit` as `checkouts/<ident>/<short>/` (temporary
    /// directory, `.ok`, rename).
    fn check_out(&self, db: &Repository, ident: &str, commit: Oid, spec: &GitSpec) -> Result<(), GitError> {
        let id = commit.to_string();
        if self.completed(ident, &id).is_some() {
            return Ok(());
        }
        let dir = self.checkout_dir(ident, &id);
        let io = |action: String| move |source| GitError::CheckoutIo { spec: spec.display(), action, source };
        let git = |action: String| move |source| GitError::CheckoutGit { spec: spec.display(), action, source };
        if dir.exists() {
            // Interrupted or damaged: never trust it.
            tracing::info!("removing the incomplete checkout {}", dir.display());
            std::fs::remove_dir_all(&dir).map_err(io(format!("cannot remove {}", dir.display())))?;
        }
        let parent = dir.parent().expect("checkout parent");
        let partial = parent.join(format!(".{}.partial-{}", short(&id), std::process::id()));
        let _ = std::fs::remove_dir_all(&partial);
        std::fs::create_dir_all(&partial).map_err(io(format!("cannot create {}", partial.display())))?;
        let object = db.find_object(commit, None).map_err(git("cannot read the commit".to_owned()))?;
        let mut options = git2::build::CheckoutBuilder::new();
        options.target_dir(&partial).force().update_index(false).recreate_missing(true);
        db.checkout_tree(&object, Some(&mut options)).map_err(git(format!(
            "cannot check out {} into {}",
            short(&id),
            partial.display()
        )))?;
        std::fs::write(partial.join(OK_MARKER), &id).map_err(io("cannot write the .ok marker".to_owned()))?;
        if let Err(err) = std::fs::rename(&partial, &dir) {
            let _ = std::fs::remove_dir_all(&partial);
            if self.completed(ident, &id).is_none() {
                return Err(io(format!("cannot move the checkout to {}", dir.display()))(err));
            }
        }
        Ok(())
    }
}

/// With `--offline`: the ref as the db last saw it.
fn resolve_offline(db: &Repository, spec: &GitSpec) -> Result<Oid, GitError> {
    let missing = || GitError::NotCached { url: spec.fetch_url.clone(), reference: spec.reference.clone() };
    let candidates: Vec<String> = match &spec.reference {
        GitRef::DefaultBranch => vec!["refs/remotes/origin/HEAD".to_owned()],
        GitRef::Commit(id) => vec![id.clone()],
        GitRef::Named(name) => {
            vec![format!("refs/remotes/origin/{name}"), format!("refs/tags/{name}"), name.clone()]
        }
    };
    candidates
        .iter()
        .find_map(|c| db.revparse_single(c).and_then(|o| o.peel_to_commit()).ok())
        .map(|c| c.id())
        .ok_or_else(missing)
}

fn full_refspecs() -> Vec<String> {
    vec!["+refs/heads/*:refs/remotes/origin/*".to_owned(), "+refs/tags/*:refs/tags/*".to_owned()]
}

/// `refs/heads/x` → `refs/remotes/origin/x`; tags keep their name.
fn local_ref(remote: &str) -> String {
    match remote.strip_prefix("refs/heads/") {
        Some(branch) => format!("refs/remotes/origin/{branch}"),
        None => remote.to_owned(),
    }
}

/// The commit a remote ref names (an annotated tag's peeled `^{}` entry first).
fn find_head(heads: &[(String, Oid)], name: &str) -> Option<Oid> {
    let peeled = format!("{name}^{{}}");
    heads.iter().find(|(n, _)| *n == peeled).or_else(|| heads.iter().find(|(n, _)| n == name)).map(|(_, oid)| *oid)
}

fn unknown_ref(spec: &GitSpec, heads: &[(String, Oid)]) -> GitError {
    let list = |prefix: &str| -> Box<[String]> {
        heads
            .iter()
            .filter_map(|(n, _)| n.strip_prefix(prefix))
            .filter(|n| !n.ends_with("^{}"))
            .take(12)
            .map(str::to_owned)
            .collect()
    };
    GitError::UnknownRef {
        spec: spec.display(),
        reference: spec.reference.clone(),
        url: spec.fetch_url.clone(),
        branches: list("refs/heads/"),
        tags: list("refs/tags/"),
    }
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(7)]
}

/// How the network is reached: libgit2, or the `git` command.
enum Transport {
    Libgit2,
    Cli,
}

impl Transport {
    /// The `git` command for the schemes libgit2 is built without (see the
    /// module docs), and for every URL when the environment asks for it.
    fn for_url(url: &str) -> Transport {
        let scheme = url.split_once("://").map(|(scheme, _)| scheme.to_ascii_lowercase());
        let cli = std::env::var(FETCH_WITH_CLI_VAR).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
        if cli || matches!(scheme.as_deref(), Some("https" | "ssh")) {
            Transport::Cli
        } else {
            Transport::Libgit2
        }
    }

    /// The remote's refs (`git ls-remote`).
    fn list(&self, db: &Repository, url: &str) -> Result<Vec<(String, Oid)>, TransportError> {
        match self {
            Transport::Libgit2 => {
                let mut remote = db.remote_anonymous(url)?;
                let connection = remote.connect_auth(git2::Direction::Fetch, Some(callbacks()), None)?;
                let heads = connection.list()?;
                Ok(heads.iter().map(|h| (h.name().to_owned(), h.oid())).collect())
            }
            Transport::Cli => {
                let output = git_command()
                    .args(["ls-remote", "--", url])
                    .output()
                    .map_err(|source| TransportError::Spawn { command: "git ls-remote", source })?;
                if !output.status.success() {
                    return Err(TransportError::Cli {
                        stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
                    });
                }
                Ok(String::from_utf8_lossy(&output.stdout)
                    .lines()
                    .filter_map(|line| {
                        let (oid, name) = line.split_once('\t')?;
                        Some((name.trim().to_owned(), Oid::from_str(oid.trim()).ok()?))
                    })
                    .collect())
            }
        }
    }

    fn fetch(
        &self,
        db: &Repository,
        url: &str,
        refspecs: &[String],
        shallow: bool,
        progress: bool,
    ) -> Result<(), TransportError> {
        match self {
            Transport::Libgit2 => {
                let mut remote = db.remote_anonymous(url)?;
                let mut options = git2::FetchOptions::new();
                let printed = Arc::new(AtomicBool::new(false));
                let mut callbacks = callbacks();
                if progress {
                    show_progress(&mut callbacks, url, printed.clone());
                }
                options.remote_callbacks(callbacks).download_tags(git2::AutotagOption::None);
                if shallow {
                    options.depth(1);
                }
                let result = remote.fetch(refspecs, Some(&mut options), None).map_err(TransportError::from);
                if printed.load(Ordering::Relaxed) {
                    eprintln!();
                }
                result
            }
            Transport::Cli => {
                let mut command = git_command();
                command.arg("--git-dir").arg(db.path()).args(["fetch", "--no-tags", "--force"]);
                if shallow {
                    command.arg("--depth=1");
                }
                if !progress {
                    command.arg("--quiet");
                }
                command.arg("--").arg(url).args(refspecs);
                if progress {
                    eprintln!("    Fetching {url}");
                }
                let output =
                    command.output().map_err(|source| TransportError::Spawn { command: "git fetch", source })?;
                if output.status.success() {
                    Ok(())
                } else {
                    Err(TransportError::Cli { stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned() })
                }
            }
        }
    }
}

fn git_command() -> Command {
    let mut command = Command::new("git");
    // Never stop to ask for a password where nobody can answer.
    if !std::io::stdin().is_terminal() {
        command.env("GIT_TERMINAL_PROMPT", "0");
    }
    command
}

/// Credentials for libgit2's `http://`: git's credential helpers. (The
/// `git` command fetches `https://` and `ssh://` with its own.)
fn callbacks() -> git2::RemoteCallbacks<'static> {
    let mut callbacks = git2::RemoteCallbacks::new();
    let mut attempts = 0usize;
    let config = git2::Config::open_default().ok();
    callbacks.credentials(move |url, username, allowed| {
        attempts += 1;
        if allowed.contains(git2::CredentialType::USERNAME) {
            return git2::Cred::username(username.unwrap_or("git"));
        }
        if allowed.contains(git2::CredentialType::USER_PASS_PLAINTEXT) && attempts < 3 {
            if let Some(config) = &config {
                return git2::Cred::credential_helper(config, url, username);
            }
        }
        if allowed.contains(git2::CredentialType::DEFAULT) && attempts < 3 {
            return git2::Cred::default();
        }
        Err(git2::Error::from_str(
            "no usable credentials (tried git's credential helpers); \
             set AMPLIFIER_GIT_FETCH_WITH_CLI=true to fetch with the `git` command",
        ))
    });
    callbacks
}

/// On a terminal: "Fetching URL (received N/M objects)", updated in place.
fn show_progress(callbacks: &mut git2::RemoteCallbacks<'static>, url: &str, printed: Arc<AtomicBool>) {
    let url = url.to_owned();
    let mut last = Instant::now() - Duration::from_secs(1);
    callbacks.transfer_progress(move |p| {
        let done = p.received_objects() == p.total_objects();
        if done || last.elapsed() >= Duration::from_millis(100) {
            last = Instant::now();
            let mut stderr = std::io::stderr().lock();
            let _ = write!(
                stderr,
                "\r    Fetching {url} (received {}/{} objects)",
                p.received_objects(),
                p.total_objects()
            );
            let _ = stderr.flush();
            printed.store(true, Ordering::Relaxed);
        }
        true
    });
}

/// An exclusive lock on a file, held until dropped (flock on Unix), so two
/// processes never fetch into one db or check out one commit at once.
struct CacheLock {
    _file: std::fs::File,
}

impl CacheLock {
    fn acquire(path: &Path) -> Result<CacheLock, GitError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|source| GitError::CreateDir { path: parent.to_owned(), source })?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|source| GitError::OpenLock { path: path.to_owned(), source })?;
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            // SAFETY: flock on a file descriptor we own; released when the file is closed.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                if std::io::stderr().is_terminal() {
                    eprintln!("    Blocking waiting for the lock on {}", path.display());
                }
                // SAFETY: as above.
                if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
                    return Err(GitError::Lock { path: path.to_owned(), source: std::io::Error::last_os_error() });
                }
            }
        }
        Ok(CacheLock { _file: file })
    }
}

/// The `git+…` sources of the plan, resolved through the [`GitCache`].
pub struct GitSource {
    cache: Arc<GitCache>,
}

impl GitSource {
    pub fn new(cache: Arc<GitCache>) -> Self {
        GitSource { cache }
    }
}

impl ModuleSourceResolver for GitSource {
    fn name(&self) -> &str {
        "git"
    }

    fn resolve<'a>(&'a self, request: &'a ResolveRequest) -> BoxFuture<'a, Result<ResolvedModule, ResolveError>> {
        Box::pin(async move {
            let Some(source) = request.source_hint.as_deref().filter(|s| s.starts_with("git+")) else {
                return Err(ResolveError::NotFound);
            };
            // A resolver's error crosses the resolver chain (and the ABI, for a
            // plugin resolver) as text.
            let failed = |err: &dyn std::fmt::Display| ResolveError::Failed(err.to_string());
            let spec = GitSpec::parse(source, request.base_dir.as_deref()).map_err(|err| failed(&err))?;
            let cache = self.cache.clone();
            let checkout = tokio::task::spawn_blocking(move || cache.checkout(&spec))
                .await
                .map_err(|err| ResolveError::Failed(format!("the git task failed: {err}")))?
                .map_err(|err| failed(&err))?;
            let origin = checkout.source.clone();
            let module_dir = &checkout.module_dir;
            let source = crate::resolver::classify(module_dir).ok_or_else(|| {
                ResolveError::Failed(format!(
                    "{origin}: {} (commit {}) is not a module: no Cargo.toml, and no amplifier.toml naming a prebuilt artifact",
                    module_dir.display(),
                    short(&checkout.commit)
                ))
            })?;
            Ok(ResolvedModule { source, resolver: "git".to_owned(), origin })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_url_ref_and_subdirectory() {
        let spec = GitSpec::parse("git+https://GitHub.com/Org/Repo.git@v1.2#subdirectory=plugins/x", None).unwrap();
        assert_eq!(spec.fetch_url, "https://GitHub.com/Org/Repo.git");
        assert_eq!(spec.canonical_url, "https://github.com/org/repo");
        assert_eq!(spec.reference, GitRef::Named("v1.2".into()));
        assert_eq!(spec.subdirectory.as_deref(), Some("plugins/x"));
        assert_eq!(spec.canonical_source(), "git+https://github.com/org/repo@v1.2#subdirectory=plugins/x");

        let ssh = GitSpec::parse("git+ssh://git@Example.org/team/tools.git", None).unwrap();
        assert_eq!(ssh.reference, GitRef::DefaultBranch, "the user's `@` is not a ref");
        assert_eq!(ssh.canonical_url, "ssh://git@example.org/team/tools");

        let id = "0123456789abcdef0123456789ABCDEF01234567";
        let pinned = GitSpec::parse(&format!("git+git://127.0.0.1:9418/repo@{id}"), None).unwrap();
        assert_eq!(pinned.reference, GitRef::Commit(id.to_ascii_lowercase()));
    }

    #[test]
    fn local_paths_become_file_urls_relative_to_the_plan() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("repo")).unwrap();
        let spec = GitSpec::parse("git+repo@main", Some(dir.path())).unwrap();
        let expected = format!("file://{}", dir.path().canonicalize().unwrap().join("repo").display());
        assert_eq!(spec.fetch_url, expected);
        assert_eq!(spec.canonical_url, expected);
    }

    #[test]
    fn rejects_bad_fragments_and_escaping_subdirectories() {
        let err = GitSpec::parse("git+https://h/r#egg=x", None).unwrap_err();
        assert!(matches!(&err, GitError::BadSource { problem: SourceProblem::UnknownFragment(f), .. } if f == "egg=x"));
        assert_eq!(
            err.to_string(),
            "source 'git+https://h/r#egg=x': unknown fragment `egg=x`; expected `#subdirectory=PATH`"
        );
        let err = GitSpec::parse("git+https://h/r#subdirectory=../x", None).unwrap_err().to_string();
        assert!(err.contains("relative path inside the repository"), "{err}");
        let err = GitSpec::parse("git+ftp://h/r", None).unwrap_err().to_string();
        assert!(err.contains("unsupported scheme `ftp`"), "{err}");
    }

    #[test]
    fn spellings_of_one_remote_share_an_ident() {
        let a = ident(&canonical_url("https://github.com/Org/Tools.git/"));
        let b = ident(&canonical_url("HTTPS://GITHUB.COM/org/tools"));
        assert_eq!(a, b);
        assert!(a.starts_with("tools-") && a.len() == "tools-".len() + 16, "{a}");
        assert_ne!(a, ident(&canonical_url("https://gitlab.com/org/tools")), "another host, another entry");
        assert_eq!(&ident("file:///")[..7], "_empty-");
    }

    fn commit_file(repo: &Repository, path: &str, text: &str, message: &str) -> Oid {
        let workdir = repo.workdir().unwrap();
        let file = workdir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, text).unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new(path)).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let signature = git2::Signature::now("test", "test@example.invalid").unwrap();
        let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        repo.commit(Some("HEAD"), &signature, &signature, message, &tree, &parents).unwrap()
    }

    #[test]
    fn checks_out_refs_and_redoes_incomplete_checkouts() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path().join("repo")).unwrap();
        let first = commit_file(&repo, "mod/Cargo.toml", "[package]\nname = \"m\"\n", "one");
        repo.tag_lightweight("v1", &repo.find_object(first, None).unwrap(), false).unwrap();
        let cache = GitCache::new(&dir.path().join("home"));
        let spec = GitSpec::parse("git+repo@v1#subdirectory=mod", Some(dir.path())).unwrap();

        let checkout = cache.checkout_uncached(&spec).unwrap();
        assert_eq!(checkout.commit, first.to_string());
        assert!(checkout.module_dir.join("Cargo.toml").is_file());
        assert_eq!(std::fs::read_to_string(checkout.checkout_dir.join(OK_MARKER)).unwrap(), first.to_string());
        assert_eq!(cache.commit_of(&checkout.module_dir), Some(first.to_string()));
        let ident = ident(&spec.canonical_url);
        assert!(cache.root().join("db").join(&ident).join("HEAD").is_file(), "a bare db per remote");
        assert_eq!(checkout.checkout_dir, cache.root().join("checkouts").join(&ident).join(&first.to_string()[..7]));

        // An interrupted checkout (no `.ok`, a stray file) is thrown away and redone.
        std::fs::remove_file(checkout.checkout_dir.join(OK_MARKER)).unwrap();
        std::fs::write(checkout.module_dir.join("stray"), "half written").unwrap();
        let again = cache.checkout_uncached(&spec).unwrap();
        assert_eq!(again, checkout);
        assert!(!again.module_dir.join("stray").exists(), "the partial checkout was deleted");
        assert!(again.checkout_dir.join(OK_MARKER).is_file());

        // A full commit id that is checked out needs neither the db nor the remote.
        std::fs::rename(dir.path().join("repo"), dir.path().join("gone")).unwrap();
        let pinned = GitSpec::parse(&format!("git+repo@{first}#subdirectory=mod"), Some(dir.path())).unwrap();
        std::fs::remove_dir_all(cache.root().join("db")).unwrap();
        assert_eq!(cache.checkout_uncached(&pinned).unwrap().commit, first.to_string());

        // Offline, a missing ref says so.
        cache.set_offline(true);
        let missing = GitSpec::parse("git+repo@v2", Some(dir.path())).unwrap();
        let err = cache.checkout_uncached(&missing).unwrap_err().to_string();
        assert!(err.contains("at ref v2 is not in the cache and --offline is set"), "{err}");
    }
}
