//! `dancecard serve`: the real binary serves the page and answers the API with the same JSON
//! document as `dancecard solve --format json`, and stays within its memory bound under the
//! worst requests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::util::{dancecard, stdout, testdata};

/// The server process, killed when dropped.
pub(crate) struct Serving(pub(crate) Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 request on a new connection; the status code and the body.
fn http(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = String::new();
    let _ = stream.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a complete answer");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    (status, body.to_owned())
}

/// Starts `dancecard serve --port 0` with `flags`; the process and its address.
pub(crate) fn start(flags: &[&str]) -> (Serving, String) {
    let bin = assert_cmd::cargo::cargo_bin("dancecard");
    let child = Command::new(bin)
        .args(["serve", "--port", "0"])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("dancecard serve starts");
    let mut serving = Serving(child);
    let mut line = String::new();
    let _ = BufReader::new(serving.0.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    (serving, addr)
}

#[test]
fn serve_answers_as_solve_prints() {
    let (_serving, addr) = start(&[]);
    let (status, page) = http(&addr, "GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.contains("Dancing Links explorer"), "{page}");

    let file = testdata("instances/queens8.dlx");
    let problem = std::fs::read(&file).unwrap();
    for (query, flags) in [
        ("mode=first", &[][..]),
        ("mode=all&limit=3", &["--all", "--limit", "3"][..]),
        (
            "mode=count&heuristic=leftmost&method=search",
            &["--count", "--method", "search", "--heuristic", "leftmost"][..],
        ),
    ] {
        let (status, body) = http(&addr, "POST", &format!("/api/solve?{query}"), &problem);
        assert_eq!(status, 200, "{body}");
        let mut served: serde_json::Value = serde_json::from_str(&body).unwrap();
        let out = dancecard()
            .args(["solve", "--format", "json"])
            .args(flags)
            .arg(&file)
            .output()
            .unwrap();
        let mut printed: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        // A count on the command line also says why it counted so (#17: `reason`, `memo`,
        // `zdd_nodes`, and `frontier` as null when the stages did not count); both say by which
        // `method`.
        if let Some(fields) = printed.as_object_mut() {
            for key in ["reason", "memo", "zdd_nodes", "frontier"] {
                let _ = fields.remove(key);
            }
        }
        // Everything else but the wall-clock time is the same.
        for doc in [&mut served, &mut printed] {
            doc["stats"]["seconds"] = serde_json::Value::Null;
        }
        assert_eq!(served, printed, "{query}");
    }

    let (status, body) = http(&addr, "POST", "/api/solve", b"a b\na z\n");
    assert_eq!(status, 400);
    assert!(body.contains("line 2, column 3: unknown item `z`"), "{body}");
}

#[test]
fn serve_takes_its_budgets_from_the_flags() {
    let (_serving, addr) = start(&["--node-limit", "1000", "--time-limit", "30"]);
    let problem = std::fs::read(testdata("instances/pent6x10.dlx")).unwrap();
    let (status, body) = http(&addr, "POST", "/api/solve?mode=count", &problem);
    assert_eq!(status, 200, "{body}");
    let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["complete"], false, "{body}");
    assert_eq!(doc["stats"]["nodes"], 1000, "{body}");
    for bad in [["--time-limit", "NaN"], ["--count-time-limit", "1e20"]] {
        let out = dancecard().args(["serve", "--port", "0"]).args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(crate::util::stderr(&out).contains("must be a number of seconds"), "{bad:?}");
    }
}

#[test]
fn serve_refuses_a_port_in_use() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = dancecard().args(["serve", "--port", &port]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = crate::util::stderr(&out);
    assert!(err.contains("cannot serve on 127.0.0.1:"), "{err}");
}

/// An answer read in full: the status, the `Content-Type` and the body.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) body: Vec<u8>,
}

/// One HTTP/1.1 request on a new connection, as raw bytes, waiting at most two minutes for
/// the answer (the server closes the connection after it).
pub(crate) fn http_raw(
    addr: &str,
    method: &str,
    path: &str,
    body: &[u8],
) -> std::io::Result<Answer> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    // The server may answer before it has read the whole body (413): read the answer anyway.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw)?;
    let bad = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not an HTTP answer");
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(bad)?;
    let declared = String::from_utf8_lossy(&raw[..end])
        .split("\r\n")
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<usize>().ok());
    if declared.is_some_and(|n| raw.len() - end - 4 < n) {
        // The connection closed before the whole body came: the answer is lost.
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "a truncated answer"));
    }
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let content_type = head
        .split("\r\n")
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        .map_or(String::new(), |(_, value)| value.trim().to_owned());
    Ok(Answer { status, content_type, body: raw[end + 4..].to_vec() })
}

/// The peak resident memory of a process so far (`VmHWM`), in KiB.
pub(crate) fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmHWM line")
}

/// The resident memory bound that `dancecard serve` keeps with its default settings
/// (docs/web-api.md, bounds).
pub(crate) const MEMORY_BOUND_KIB: u64 = 512 * 1024;

/// The reply bound of the default settings (`--max-reply`), in bytes.
const MAX_REPLY_BYTES: usize = 4 << 20;

/// The worst requests that the issue and the first measurements found, as (method, path,
/// body): 1 MiB problems of one-item options (524,287 options: the page's description of
/// them, with the problem parsed and searched), a trace whose events name an item of 400 KB,
/// a listing whose every solution has 40,000 options, tilings listed on a 2x512 board, and a
/// tiling count by the profile DP at its bound.
pub(crate) fn worst_requests() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let mut tiny_options = b"a\n".to_vec();
    tiny_options.resize(1 << 20, 0);
    for (k, byte) in tiny_options.iter_mut().enumerate().skip(2) {
        *byte = if k % 2 == 0 { b'a' } else { b'\n' };
    }
    // Items a0..a19 and a long one; each short item has two options, so that the leftmost
    // heuristic reaches the long item at every leaf.
    let long_name = "X".repeat(400 * 1024);
    let short: Vec<String> = (0..20).map(|k| format!("a{k}")).collect();
    let mut long_trace = format!("{} {long_name}\n", short.join(" "));
    for item in &short {
        long_trace.push_str(&format!("{item}\n{item}\n"));
    }
    long_trace.push_str(&long_name);
    long_trace.push('\n');
    // 40,000 items with two options each: 2^40000 solutions of 40,000 options.
    let wide_items: Vec<String> = (0..40_000).map(|k| format!("i{k}")).collect();
    let mut wide = wide_items.join(" ");
    wide.push('\n');
    for item in &wide_items {
        wide.push_str(&format!("{item}\n{item}\n"));
    }
    vec![
        ("POST", "/api/parse", tiny_options.clone()),
        ("POST", "/api/parse", tiny_options.clone()),
        ("POST", "/api/trace", tiny_options.clone()),
        ("POST", "/api/trace", tiny_options),
        ("POST", "/api/trace?heuristic=leftmost", long_trace.into_bytes()),
        ("POST", "/api/solve?mode=all", wide.into_bytes()),
        ("GET", "/api/tile?board=2x512&pieces=dominoes&mode=all", Vec::new()),
        ("GET", "/api/tile?board=16x64&pieces=tetrominoes&mode=count", Vec::new()),
    ]
}

// See: #16. A 1 MB body to /api/trace or /api/parse answered a 21-22 MB document, and the
// server's resident memory peaked near 920 MB for one request and 1.8 GB for two at once.
#[cfg(target_os = "linux")]
#[test]
fn issue_16_the_worst_requests_stay_within_the_memory_bound() {
    let (serving, addr) = start(&[]);
    let pid = serving.0.id();
    let clients: Vec<_> = worst_requests()
        .into_iter()
        .map(|(method, path, body)| {
            let addr = addr.clone();
            std::thread::spawn(move || (method, path, http_raw(&addr, method, path, &body)))
        })
        .collect();
    let answers: Vec<_> = clients.into_iter().map(|c| c.join().expect("client thread")).collect();
    let peak = peak_rss_kib(pid);
    println!("peak resident memory: {} MiB", peak / 1024);
    assert!(
        peak < MEMORY_BOUND_KIB,
        "peak resident memory {} MiB, over the bound of {} MiB",
        peak / 1024,
        MEMORY_BOUND_KIB / 1024
    );
    for (method, path, answer) in answers {
        let answer = answer.unwrap_or_else(|e| panic!("{method} {path}: no answer: {e}"));
        println!("{method} {path}: {} ({} bytes)", answer.status, answer.body.len());
        assert!(
            answer.body.len() <= MAX_REPLY_BYTES,
            "{method} {path}: a reply of {} bytes",
            answer.body.len()
        );
        assert_eq!(answer.content_type, "application/json", "{method} {path}");
        let doc: serde_json::Value = serde_json::from_slice(&answer.body)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e})"));
        match answer.status {
            // Partial answers say so, and why.
            200 => {
                let stop = doc["stop"].as_str().unwrap_or_default();
                assert!(doc["complete"] == false || stop == "exhausted", "{method} {path}");
            }
            // Too large an answer, or the server's memory budget in use: the error names
            // the bound.
            413 | 503 => assert!(doc["bound"].is_string(), "{method} {path}: {doc}"),
            status => panic!("{method} {path}: status {status}: {doc}"),
        }
    }
    assert_eq!(http(&addr, "POST", "/api/solve", b"a\na\n").0, 200, "still serving");
}
