//! The progress display on a terminal (#46), read from a pseudo-terminal: it appears after a
//! second, its clock ticks even when the search has nothing new to say, and it shows a
//! fraction and a time left only where they mean something (never `eta 0s` on a search of
//! hours, never a time left from Knuth's fraction alone).

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::util::dancecard_process;

/// What a run wrote on its terminal: each chunk with when it came.
struct Screen {
    chunks: Vec<(Duration, String)>,
}

impl Screen {
    /// The lines drawn (indicatif redraws a line after `\r` and escapes), escapes removed,
    /// each with when its end came (a line may come in several reads).
    fn frames(&self) -> Vec<(Duration, String)> {
        let mut out = Vec::new();
        let mut line = String::new();
        for (at, text) in &self.chunks {
            for c in strip_escapes(text).chars() {
                if c == '\r' || c == '\n' {
                    let frame = line.trim();
                    if !frame.is_empty() {
                        out.push((*at, frame.to_owned()));
                    }
                    line.clear();
                } else {
                    line.push(c);
                }
            }
        }
        let frame = line.trim();
        if let Some((at, _)) = self.chunks.last().filter(|_| !frame.is_empty()) {
            out.push((*at, frame.to_owned()));
        }
        out
    }

    fn all(&self) -> String {
        self.frames().into_iter().map(|(_, f)| f).collect::<Vec<_>>().join("\n")
    }
}

/// `text` without its terminal escapes (`ESC [ ... letter`, and lone `ESC x`).
fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        if chars.next_if_eq(&'[').is_some() {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            let _ = chars.next();
        }
    }
    out
}

/// A pseudo-terminal of 120 columns: (the master's end, the slave's end).
fn pty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize { ws_row: 30, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: the pointers are to live locals; `openpty` writes the two descriptors and reads
    // the window size.
    let made = unsafe {
        libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size)
    };
    assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: `openpty` succeeded: both descriptors are open and owned here alone.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// Runs `dancecard ARGS` with its stderr on a terminal for `seconds`, then stops it with
/// Ctrl-C (SIGINT) and returns what it drew.
fn run_on_terminal(args: &[&str], seconds: f64) -> Screen {
    let (master, slave) = pty();
    let mut cmd = dancecard_process();
    let _ = cmd
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env_remove("DANCECARD_PROGRESS")
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave));
    let started = Instant::now();
    let mut child = cmd.spawn().expect("dancecard starts");
    // The child holds the slave's end now: `cmd` (and its copy) go, so that the master reads
    // end of file when the child exits.
    drop(cmd);
    let (send, chunks) = mpsc::channel();
    let mut reader = std::fs::File::from(master);
    let _ = std::thread::spawn(move || {
        let mut buffer = [0u8; 65_536];
        // A read fails (EIO) once the child has exited and the slave is closed.
        while let Ok(n @ 1..) = reader.read(&mut buffer) {
            let text = String::from_utf8_lossy(&buffer[..n]).into_owned();
            if send.send((started.elapsed(), text)).is_err() {
                break;
            }
        }
    });
    std::thread::sleep(Duration::from_secs_f64(seconds));
    let pid = i32::try_from(child.id()).expect("a pid");
    // SAFETY: signals the child this test started (and has not reaped).
    let _ = unsafe { libc::kill(pid, libc::SIGINT) };
    let end = Instant::now();
    while child.try_wait().expect("the child can be waited for").is_none() {
        if end.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("dancecard {}: still running 10 s after Ctrl-C", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    Screen { chunks: chunks.try_iter().collect() }
}

/// The clock readings (`0:01`, `0:02`...) the frames show, in order.
fn clocks(screen: &Screen) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for (_, frame) in screen.frames() {
        if let Some(clock) =
            frame.split(" · ").find(|w| w.len() <= 5 && w.contains(':') && w.starts_with('0'))
        {
            if seen.last().map(String::as_str) != Some(clock) {
                seen.push(clock.to_owned());
            }
        }
    }
    seen
}

/// A search of hours: the display comes after a second, its clock ticks, its fraction is
/// Knuth's and says so, and its time left comes from the Monte Carlo estimate beside the
/// search, with an interval (never `eta 0s`, never a bare `0%`).
#[test]
fn a_long_search_shows_what_is_known() {
    let screen = run_on_terminal(
        &["solve", "--count", "--method", "search", "testdata/instances/domino10x10.dlx"],
        4.5,
    );
    let frames = screen.frames();
    let all = screen.all();
    let first = frames.first().unwrap_or_else(|| panic!("nothing drawn:\n{all}"));
    assert!(first.0 >= Duration::from_millis(900), "drawn before a second: {first:?}");
    assert!(first.0 <= Duration::from_millis(2500), "drawn late: {first:?}\n{all}");
    let ticks = clocks(&screen);
    assert!(ticks.len() >= 3, "the clock does not tick: {ticks:?}\n{all}");
    assert!(all.contains("% of the tree"), "{all}");
    assert!(all.contains(" nodes (") && all.contains("/s)"), "{all}");
    assert!(!all.contains("eta 0s") && !all.contains(" 0% "), "{all}");
    // By the end, the estimate beside the search gives a time left with its interval.
    let last_eta = frames
        .iter()
        .rev()
        .find_map(|(_, f)| f.split(" · ").find(|w| w.starts_with("eta ")))
        .unwrap_or_else(|| panic!("no eta:\n{all}"));
    assert!(
        last_eta.contains('(') && last_eta.contains('-') && last_eta.ends_with(')'),
        "{last_eta}\n{all}"
    );
    // Ctrl-C ended it, and said so.
    assert!(all.contains("incomplete: interrupted"), "{all}");
}

/// The bitwise queens counter reports only when it polls: the display still comes after a
/// second, ticks, shows the nodes and their rate, and has no time left before a task ends.
#[test]
fn a_count_without_news_still_ticks() {
    let screen = run_on_terminal(&["queens", "--count", "19"], 3.5);
    let frames = screen.frames();
    let all = screen.all();
    let first = frames.first().unwrap_or_else(|| panic!("nothing drawn:\n{all}"));
    assert!(first.0 <= Duration::from_millis(2500), "drawn late: {first:?}\n{all}");
    let ticks = clocks(&screen);
    assert!(ticks.len() >= 2, "the clock does not tick: {ticks:?}\n{all}");
    assert!(all.contains(" nodes ("), "{all}");
    assert!(!all.contains("eta 0s"), "{all}");
    assert!(all.contains("eta ?") || all.contains("eta ~"), "{all}");
}

/// A run of less than a second draws nothing.
#[test]
fn a_quick_run_draws_nothing() {
    let quick = run_on_terminal(&["solve", "--count", "testdata/instances/queens8.dlx"], 1.5);
    assert_eq!(quick.all(), "", "a quick run draws nothing");
}
