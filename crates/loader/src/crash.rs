//! Names the plugin library behind a native crash before the process dies.
//!
//! A segfault, abort, bus error or illegal instruction in a cdylib plugin
//! ends the host (only `isolation: process` would survive it); without this
//! a segfault prints nothing at all. [`install`] puts a signal handler in
//! front of std's (which it chains to, so stack overflows are still
//! reported as such) that writes one line, `amplifier: SIGSEGV in plugin
//! library /path/libx.so`, then lets the signal kill the process as before.
//!
//! It also catches a plugin calling `exit()` (`std::process::exit`): that
//! is a crash, never a success, so the process ends with [`EXIT_CRASH`]
//! whatever status the plugin gave, after saying so. An `exit()` with no
//! plugin library on the calling thread's stack (the host returning from
//! `main`, clap after `--help`) goes on as usual.
//!
//! The handler may run on any thread at any moment, so it only reads what
//! [`install`] and [`register_library`] prepared (fixed arrays, no locks)
//! and writes with `write(2)`. It does call `backtrace` and `dladdr`, which
//! crash reporters commonly do although POSIX does not list them as safe.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The exit status of a process a plugin ended with `exit()`: EX_SOFTWARE.
pub const EXIT_CRASH: i32 = 70;

const SIGNALS: [c_int; 5] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE, libc::SIGABRT];
const MAX_LIBRARIES: usize = 512;
const MAX_FRAMES: usize = 64;

/// The paths of the plugin libraries opened, as given to `dlopen` (which
/// is what `dladdr` reports back), leaked so the handler can read them.
static LIBRARIES: [AtomicPtr<c_char>; MAX_LIBRARIES] = [const { AtomicPtr::new(std::ptr::null_mut()) }; MAX_LIBRARIES];
static LIBRARY_COUNT: AtomicUsize = AtomicUsize::new(0);
/// The actions that were in place before ours, to chain to.
static PREVIOUS: OnceLock<[libc::sigaction; SIGNALS.len()]> = OnceLock::new();

extern "C" {
    fn backtrace(buffer: *mut *mut c_void, size: c_int) -> c_int;
    fn on_exit(function: extern "C" fn(c_int, *mut c_void), arg: *mut c_void) -> c_int;
}

/// Installs the handlers once; later calls do nothing.
pub fn install() {
    let mut frames = [std::ptr::null_mut(); 1];
    // SAFETY: the buffer holds a pointer, and none is written. The first
    // call loads libgcc's unwinder (it allocates), which must not happen in
    // a signal handler; glibc loads it before it looks at the size, and a
    // size of 0 walks no frame, which would read the binary's unwind tables
    // (megabytes of them kept resident, for nothing).
    unsafe { backtrace(frames.as_mut_ptr(), 0) };
    PREVIOUS.get_or_init(|| {
        // SAFETY: all-zero is a valid sigaction; each call gets valid pointers.
        unsafe {
            let mut previous: [libc::sigaction; SIGNALS.len()] = std::mem::zeroed();
            for (signal, previous) in SIGNALS.iter().zip(previous.iter_mut()) {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(*signal, &action, previous);
            }
            on_exit(on_process_exit, std::ptr::null_mut());
            previous
        }
    });
}

/// Records a plugin library the loader opened, so a crash inside it can be
/// named; once per path, however often it is opened (a server opens its
/// plugins for every session).
pub fn register_library(path: &Path) {
    let Ok(path) = CString::new(path.as_os_str().as_bytes()) else { return };
    let registered = LIBRARY_COUNT.load(Ordering::Acquire).min(MAX_LIBRARIES);
    // SAFETY: registered paths are leaked CStrings, never freed.
    let known = |slot: &AtomicPtr<c_char>| {
        let known = slot.load(Ordering::Acquire);
        !known.is_null() && unsafe { CStr::from_ptr(known) } == path.as_c_str()
    };
    if LIBRARIES[..registered].iter().any(known) {
        return;
    }
    let slot = LIBRARY_COUNT.fetch_add(1, Ordering::AcqRel);
    if slot < MAX_LIBRARIES {
        LIBRARIES[slot].store(path.into_raw(), Ordering::Release);
    }
}

extern "C" fn on_signal(signal: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    report(crate::isolation::signal_name(signal).unwrap_or("a signal").as_bytes());
    let Some(previous) = PREVIOUS.get() else { return };
    let Some(index) = SIGNALS.iter().position(|s| *s == signal) else { return };
    let previous = previous[index];
    // SAFETY: we restore the action that was there before ours and, if it
    // was a handler (std's, for stack overflows), call it as the kernel
    // would have. Returning re-runs the faulting instruction (or, for
    // SIGABRT, lets abort() raise again) under that action: the process
    // dies of the same signal.
    unsafe {
        libc::sigaction(signal, &previous, std::ptr::null_mut());
        let handler = previous.sa_sigaction;
        if handler != libc::SIG_DFL && handler != libc::SIG_IGN {
            if previous.sa_flags & libc::SA_SIGINFO != 0 {
                let handler: extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) = std::mem::transmute(handler);
                handler(signal, info, context);
            } else {
                let handler: extern "C" fn(c_int) = std::mem::transmute(handler);
                handler(signal);
            }
        }
    }
}

extern "C" fn on_process_exit(status: c_int, _arg: *mut c_void) {
    let Some(library) = plugin_on_stack() else { return };
    let mut digits = [0u8; 12];
    let status = format_int(status, &mut digits);
    for part in [&b"amplifier: exit("[..], status, b") called in plugin library ", library.to_bytes()] {
        write_err(part);
    }
    write_err(b": a plugin ending the process is a crash (exit status 70)\n");
    // SAFETY: _exit ends the process at once, running nothing else.
    unsafe { libc::_exit(EXIT_CRASH) };
}

/// Writes `amplifier: NAME in plugin library PATH` for the innermost frame
/// in a registered library, or `… outside any plugin library`.
fn report(name: &[u8]) {
    write_err(b"amplifier: ");
    write_err(name);
    match plugin_on_stack() {
        Some(path) => {
            write_err(b" in plugin library ");
            write_err(path.to_bytes());
        }
        None => write_err(b" outside any plugin library"),
    }
    write_err(b"\n");
}

fn plugin_on_stack() -> Option<&'static CStr> {
    let registered = LIBRARY_COUNT.load(Ordering::Acquire).min(MAX_LIBRARIES);
    // With no plugin library opened (built-in modules only), every exit
    // would walk the stack for nothing.
    if registered == 0 {
        return None;
    }
    let mut frames = [std::ptr::null_mut(); MAX_FRAMES];
    // SAFETY: the buffer holds MAX_FRAMES pointers.
    let count = unsafe { backtrace(frames.as_mut_ptr(), MAX_FRAMES as c_int) };
    for frame in &frames[..usize::try_from(count).unwrap_or(0)] {
        // SAFETY: all-zero is a valid Dl_info; dladdr fills it for a valid address.
        let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
        if unsafe { libc::dladdr(*frame, &mut info) } == 0 || info.dli_fname.is_null() {
            continue;
        }
        // SAFETY: dladdr gives a NUL-terminated name that lives as long as the library.
        let object = unsafe { CStr::from_ptr(info.dli_fname) };
        for slot in &LIBRARIES[..registered] {
            let path = slot.load(Ordering::Acquire);
            // SAFETY: registered paths are leaked CStrings, never freed.
            if !path.is_null() && unsafe { CStr::from_ptr(path) } == object {
                return Some(unsafe { CStr::from_ptr(path) });
            }
        }
    }
    None
}

fn write_err(bytes: &[u8]) {
    // SAFETY: write(2) on valid memory; a short or failed write is ignored.
    unsafe { libc::write(libc::STDERR_FILENO, bytes.as_ptr().cast(), bytes.len()) };
}

/// `value` in decimal, in `buffer`, without allocating.
fn format_int(value: c_int, buffer: &mut [u8; 12]) -> &[u8] {
    let mut n = i64::from(value).unsigned_abs();
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if value < 0 {
        at -= 1;
        buffer[at] = b'-';
    }
    &buffer[at..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_opened_twice_is_registered_once() {
        let path = Path::new("/nonexistent/amplifier-crash-test/libtwice.so");
        register_library(path);
        register_library(path);
        let registered = LIBRARY_COUNT.load(Ordering::Acquire).min(MAX_LIBRARIES);
        let named = |slot: &AtomicPtr<c_char>| {
            let known = slot.load(Ordering::Acquire);
            // SAFETY: registered paths are leaked CStrings, never freed.
            !known.is_null() && unsafe { CStr::from_ptr(known) }.to_bytes() == path.as_os_str().as_bytes()
        };
        assert_eq!(LIBRARIES[..registered].iter().filter(|slot| named(slot)).count(), 1);
    }

    #[test]
    fn integers_are_written_without_allocating() {
        let mut buffer = [0u8; 12];
        assert_eq!(format_int(0, &mut buffer), b"0");
        assert_eq!(format_int(70, &mut buffer), b"70");
        assert_eq!(format_int(i32::MIN, &mut buffer), b"-2147483648");
    }
}
