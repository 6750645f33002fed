//! `dancecard serve`: the real binary serves the page and answers the API with the same JSON
//! document as `dancecard solve --format json`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::util::{dancecard, stdout, testdata};

/// The server process, killed when dropped.
struct Serving(Child);

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
fn start(flags: &[&str]) -> (Serving, String) {
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
        ("mode=count&heuristic=leftmost", &["--count", "--heuristic", "leftmost"][..]),
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
        // Everything but the wall-clock time is the same.
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
