//! Helpers: a server on a free loopback port, and a minimal HTTP/1.1 client (one request per
//! connection), so that the tests see exactly the bytes on the wire.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use dancecard_web::{Server, ServerConfig};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// Knuth's 6x7 example from "Dancing Links"; its only exact cover is rows 1, 4 and 5.
pub(crate) const KNUTH: &str = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

/// A problem whose search never ends within a test: 2^40 solutions (every item has two
/// identical one-item options), so counting runs until a budget or a cancel stops it.
pub(crate) fn endless() -> String {
    let names: Vec<String> = (0..40).map(|k| format!("x{k}")).collect();
    let mut text = names.join(" ");
    text.push('\n');
    for name in &names {
        text.push_str(&format!("{name}\n{name}\n"));
    }
    text
}

/// A file under the repository's `testdata/`.
pub(crate) fn testdata(path: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A server running in this process; stopped when dropped.
pub(crate) struct TestServer {
    pub(crate) addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
}

impl TestServer {
    pub(crate) async fn start(config: ServerConfig) -> TestServer {
        let server = Server::bind(([127, 0, 0, 1], 0).into(), config).await.expect("bind");
        let addr = server.local_addr().expect("local address");
        let (stop, stopped) = oneshot::channel::<()>();
        let _task = tokio::spawn(server.run_until(async move {
            let _ = stopped.await;
        }));
        TestServer { addr, stop: Some(stop) }
    }

    pub(crate) async fn post(&self, path: &str, body: impl AsRef<[u8]>) -> Reply {
        request(self.addr, "POST", path, &[], body.as_ref()).await.expect("request")
    }

    pub(crate) async fn get(&self, path: &str) -> Reply {
        request(self.addr, "GET", path, &[], b"").await.expect("request")
    }

    /// Tells the server to shut down (as Ctrl-C tells `dancecard serve`).
    pub(crate) fn shut_down(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub(crate) fn json(&self) -> Value {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "not JSON: {} {}",
            self.status,
            self.text()
        );
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("bad JSON ({e}): {}", self.text()))
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The message of an error answer, checking its status.
    pub(crate) fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.text());
        let json = self.json();
        json["error"].as_str().unwrap_or_else(|| panic!("no error message: {json}")).to_owned()
    }
}

/// Sends one request on a new connection (`Connection: close`) and reads the whole answer.
/// `headers` are extra header lines; unless they frame the body (`Transfer-Encoding` or
/// `Content-Length`), it is sent with its `Content-Length`.
pub(crate) async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &[u8],
) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect(addr).await?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for line in headers {
        head.push_str(line);
        head.push_str("\r\n");
    }
    let framed = |name: &str| headers.iter().any(|h| h.to_ascii_lowercase().starts_with(name));
    if !framed("transfer-encoding") && !framed("content-length") {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    // The server may answer (413) before reading the whole body and close: a failed write
    // is not an error as long as the answer can be read.
    let written = stream.write_all(body).await;
    let mut raw = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        // Stop at the end of a body framed by Content-Length, even if the peer keeps the
        // connection open despite `Connection: close` (chromedriver does).
        if let Some(total) = framed_length(&raw) {
            if raw.len() >= total {
                break;
            }
        }
        match stream.read(&mut chunk).await {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            Err(e) if raw.is_empty() => return Err(e),
            Err(_) => break,
        }
    }
    if raw.is_empty() {
        written?;
    }
    parse_reply(&raw)
}

/// The length of the whole answer (head and body) once its head is in and names a
/// `Content-Length`.
fn framed_length(raw: &[u8]) -> Option<usize> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let len: usize = head.split("\r\n").find_map(|line| {
        let (name, value) = line.split_once(':')?;
        if name.trim().eq_ignore_ascii_case("content-length") {
            value.trim().parse().ok()
        } else {
            None
        }
    })?;
    Some(end + 4 + len)
}

fn parse_reply(raw: &[u8]) -> std::io::Result<Reply> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| bad("no header end"))?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| bad("header not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().ok_or_else(|| bad("no status line"))?;
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("bad status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    if let Some(len) = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
    {
        body.truncate(len);
    }
    Ok(Reply { status, headers, body })
}

/// Polls `check` every 50 ms until it returns true or `limit` passes.
pub(crate) async fn eventually<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        if check().await {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
