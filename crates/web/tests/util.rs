//! Helpers: a server on a free loopback port, a minimal HTTP/1.1 client (one request per
//! connection), so that the tests see exactly the bytes on the wire, and a headless Chromium
//! driven through chromedriver for the browser tests.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use dancecard_web::{Server, ServerConfig};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{oneshot, Semaphore, SemaphorePermit};

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

/// `len` bytes of noise from a linear congruential generator started at `seed` (the same
/// bytes every run).
pub(crate) fn noise(seed: u32, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect()
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

    /// A server for the page tests (browser and visual): the default configuration with its
    /// time budgets raised to [`PATIENCE`], so that a search the page starts ends by its own
    /// work, not by the budget, even in a debug build on a machine whose two cores another
    /// build keeps busy (pent6x10's count takes 3 s alone there). The page tests check what
    /// the page shows; the API tests check the budgets.
    pub(crate) async fn for_pages() -> TestServer {
        TestServer::with(|config| {
            config.time_limit = PATIENCE;
            config.count_time_limit = PATIENCE;
        })
        .await
    }

    /// A server whose configuration is the default one changed by `edit`.
    pub(crate) async fn with(edit: impl FnOnce(&mut ServerConfig)) -> TestServer {
        let mut config = ServerConfig::default();
        edit(&mut config);
        TestServer::start(config).await
    }

    pub(crate) async fn post(&self, path: &str, body: impl AsRef<[u8]>) -> Reply {
        request(self.addr, "POST", path, &[], body.as_ref()).await.expect("request")
    }

    pub(crate) async fn get(&self, path: &str) -> Reply {
        request(self.addr, "GET", path, &[], b"").await.expect("request")
    }

    /// Checks that each of `queries` (after `path?`) is refused with `400` and a JSON error:
    /// a GET, or a POST of `body`.
    pub(crate) async fn refuses(&self, path: &str, queries: &[&str], body: Option<&str>) {
        for query in queries {
            let url = format!("{path}?{query}");
            let reply = match body {
                Some(body) => self.post(&url, body).await,
                None => self.get(&url).await,
            };
            assert_eq!(reply.status, 400, "{query}: {}", reply.text());
            let _ = reply.json();
        }
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

    /// The JSON of a `200` answer (failing with the answer otherwise).
    pub(crate) fn ok(&self) -> Value {
        assert_eq!(self.status, 200, "{}", self.text());
        self.json()
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

// ---- the browser: a chromedriver and a Chromium in a fresh profile ----

/// How long the page may take to show something (a loaded machine is slow: a debug build
/// counting on two cores that another build keeps busy).
pub(crate) const PATIENCE: Duration = Duration::from_secs(60);

/// The viewports of the browser tests: a desktop's and a phone's.
pub(crate) const DESKTOP: (u32, u32) = (1280, 800);
/// See [`DESKTOP`].
pub(crate) const PHONE: (u32, u32) = (390, 844);

/// Two browser tests of one check, named `$desktop` and `$phone`: `$check(width, height)` at
/// [`DESKTOP`] and at [`PHONE`], or with a screenshot tag, `$check(width, height, tag)` with
/// `narrow-` before the tag on the phone.
macro_rules! desktop_and_phone {
    ($desktop:ident, $phone:ident, $check:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $desktop() {
            $check($crate::util::DESKTOP.0, $crate::util::DESKTOP.1).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $phone() {
            $check($crate::util::PHONE.0, $crate::util::PHONE.1).await;
        }
    };
    ($desktop:ident, $phone:ident, $check:ident, $tag:literal) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $desktop() {
            $check($crate::util::DESKTOP.0, $crate::util::DESKTOP.1, $tag).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $phone() {
            $check($crate::util::PHONE.0, $crate::util::PHONE.1, concat!("narrow-", $tag)).await;
        }
    };
}
pub(crate) use desktop_and_phone;

/// The build's target directory (where screenshots go).
pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// The program named by the environment variable `var`, else the first of `candidates` that
/// exists, as a path or by its file name on the `PATH`.
fn program(var: &str, candidates: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var) {
        return Some(PathBuf::from(path));
    }
    candidates.iter().map(PathBuf::from).find(|p| p.is_file()).or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| {
                candidates
                    .iter()
                    .map(move |c| dir.join(Path::new(c).file_name().unwrap_or_default()))
            })
            .find(|p| p.is_file())
    })
}

/// A running chromedriver, in its own process group with the browser it starts; killed,
/// group and all, when dropped (even when a test fails half-way).
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
    }
}

/// A JavaScript string literal holding `text`.
pub(crate) fn js_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// A WebDriver session in a fresh profile.
pub(crate) struct Session {
    pub(crate) client: Client,
    _driver: Driver,
    _profile: tempfile::TempDir,
    _turn: SemaphorePermit<'static>,
}

impl Session {
    /// A browser with a viewport of `width` x `height` and `extra` command line arguments for
    /// Chromium (`--lang=zh-CN`), once `turns` gives it a turn; or `None` (skip) if Chromium
    /// or chromedriver is missing and `DANCECARD_SKIP_BROWSER` asks to skip. Missing without
    /// it, the test fails: a browser test never passes by not running unless asked to.
    pub(crate) async fn open(
        turns: &'static Semaphore,
        width: u32,
        height: u32,
        extra: &[&str],
    ) -> Option<Session> {
        let driver = program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]);
        let chromium = program("CHROMIUM", &["/usr/bin/chromium", "chromium", "chromium-browser"]);
        let (Some(driver), Some(chromium)) = (driver, chromium) else {
            let why =
                "chromium and chromedriver are needed (apt-get install chromium chromium-driver)";
            if std::env::var_os("DANCECARD_SKIP_BROWSER").is_none() {
                panic!("the browser tests cannot run: {why}, or set DANCECARD_SKIP_BROWSER=1 to skip them");
            }
            eprintln!("skipping the browser test (DANCECARD_SKIP_BROWSER is set): {why}");
            return None;
        };
        let turn = turns.acquire().await.expect("the semaphore is never closed");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut command = Command::new(&driver);
        let _ = command
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let _ = command.process_group(0);
        }
        let driver = Driver(
            command.spawn().unwrap_or_else(|e| panic!("cannot start {}: {e}", driver.display())),
        );
        let profile = tempfile::tempdir().unwrap();
        let addr = ([127, 0, 0, 1], port).into();
        let ready = eventually(PATIENCE, || async move {
            let status = request(addr, "GET", "/status", &[], b"");
            matches!(tokio::time::timeout(Duration::from_secs(2), status).await, Ok(Ok(r)) if r.status == 200)
        })
        .await;
        assert!(ready, "chromedriver did not answer on port {port}");
        let mut args: Vec<String> = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        args.extend(extra.iter().map(|a| a.to_string()));
        args.push(format!("--window-size={width},{height}"));
        args.push(format!("--user-data-dir={}", profile.path().display()));
        let mut caps = serde_json::Map::new();
        let _ = caps.insert("browserName".into(), json!("chrome"));
        let _ =
            caps.insert("goog:chromeOptions".into(), json!({ "binary": chromium, "args": args }));
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap_or_else(|e| panic!("cannot open a Chromium session: {e}"));
        client.set_window_size(width, height).await.unwrap();
        // The window includes the browser's own frame: grow it until the viewport (what the
        // page sees) has the asked size.
        let inner = client
            .execute("return [window.innerWidth, window.innerHeight];", vec![])
            .await
            .unwrap();
        let (w, h) = (inner[0].as_u64().unwrap() as u32, inner[1].as_u64().unwrap() as u32);
        client.set_window_size(2 * width - w.min(width), 2 * height - h.min(height)).await.unwrap();
        Some(Session { client, _driver: driver, _profile: profile, _turn: turn })
    }

    pub(crate) async fn goto(&self, url: &str) {
        self.client.goto(url).await.unwrap();
    }

    /// Evaluates a JavaScript expression in the page.
    pub(crate) async fn js(&self, expr: &str) -> Value {
        self.client.execute(&format!("return ({expr});"), vec![]).await.unwrap()
    }

    /// Runs JavaScript statements in the page (for their effect).
    pub(crate) async fn run(&self, statements: &str) {
        let _ = self.js(&format!("(() => {{ {statements} return true; }})()")).await;
    }

    /// Sets the value of the first element matching `css` (a text area).
    pub(crate) async fn fill(&self, css: &str, value: &str) {
        self.run(&format!(
            "document.querySelector({}).value = {};",
            js_string(css),
            js_string(value)
        ))
        .await;
    }

    /// Scrolls the first element matching `css` into view.
    pub(crate) async fn scroll_to(&self, css: &str) {
        self.run(&format!("document.querySelector({}).scrollIntoView();", js_string(css))).await;
    }

    /// Waits until a JavaScript expression is true; fails with `what` if it never is.
    pub(crate) async fn until(&self, expr: &str, what: &str) {
        let ok = eventually(PATIENCE, || async { self.js(expr).await == json!(true) }).await;
        if !ok {
            let banner = self.js("document.getElementById('error')?.textContent").await;
            // Where the players and the status lines were: what the page was doing.
            let context = self
                .js("Array.from(document.querySelectorAll('.where, [role=status]')).map((e) => e.textContent).filter((t) => t).join(' | ')")
                .await;
            panic!(
                "{what}: `{expr}` never became true (error banner: {banner}; players and \
                 status lines: {context})"
            );
        }
    }

    /// Waits until the text of the first element matching `css` passes `test`.
    pub(crate) async fn until_text(&self, css: &str, test: Text<'_>, what: &str) {
        let text = format!("document.querySelector({})?.textContent", js_string(css));
        let expr = match test {
            Text::Is(value) => format!("{text} === {}", js_string(value)),
            Text::StartsWith(prefix) => format!("{text}?.startsWith({})", js_string(prefix)),
            Text::Has(part) => format!("{text}?.includes({})", js_string(part)),
        };
        self.until(&expr, what).await;
    }

    /// Waits until the text of the first element matching `css`, as the browser renders it
    /// (what [`Session::text`] reads), passes `test`, and returns that text; fails with `what`
    /// and the last text seen if it never does. For a check [`Text`] cannot say (several at
    /// once, an ending), or a text read to be used afterwards.
    pub(crate) async fn until_shown(
        &self,
        css: &str,
        what: &str,
        test: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let shown = match self.client.find(Locator::Css(css)).await {
                Ok(element) => element.text().await.ok(),
                Err(_) => None,
            };
            match shown {
                Some(text) if test(&text) => return text,
                _ if tokio::time::Instant::now() >= deadline => {
                    let banner = self.js("document.getElementById('error')?.textContent").await;
                    panic!(
                        "{what}: the text of `{css}` never passed the check (last seen: {shown:?}; \
                         error banner: {banner})"
                    );
                }
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// Waits until the JavaScript expression `expr` has the value `expected`; fails with
    /// `what` and the last value seen if it never has.
    pub(crate) async fn until_value(&self, expr: &str, expected: Value, what: &str) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let value = self.js(expr).await;
            if value == expected {
                return;
            }
            if tokio::time::Instant::now() >= deadline {
                let banner = self.js("document.getElementById('error')?.textContent").await;
                panic!("{what}: `{expr}` is {value}, never {expected} (error banner: {banner})");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the first element matching `css` has the class `class`.
    pub(crate) async fn until_class(&self, css: &str, class: &str, what: &str) {
        let expr = format!(
            "document.querySelector({})?.classList.contains({})",
            js_string(css),
            js_string(class)
        );
        self.until(&expr, what).await;
    }

    /// Waits until `n` elements match `css`.
    pub(crate) async fn until_count(&self, css: &str, n: u64, what: &str) {
        self.until(&format!("{} === {n}", count_expr(css)), what).await;
    }

    /// How many elements match `css`.
    pub(crate) async fn count(&self, css: &str) -> u64 {
        self.js(&count_expr(css)).await.as_u64().unwrap()
    }

    pub(crate) async fn click(&self, css: &str) {
        let element =
            self.client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
        element.click().await.unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// The text of the first element matching `css`, as the browser renders it.
    pub(crate) async fn text(&self, css: &str) -> String {
        self.client.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
    }

    /// Sends `keys` to the page's body.
    pub(crate) async fn type_keys(&self, keys: &str) {
        self.client.find(Locator::Css("body")).await.unwrap().send_keys(keys).await.unwrap();
    }

    pub(crate) async fn key(&self, key: Key) {
        self.type_keys(&key.to_string()).await;
    }

    /// Writes the viewport's picture to `target/screenshots/NAME.png`.
    pub(crate) async fn shot(&self, name: &str) {
        // Let transitions (a node falling out of the list) finish.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let png = self.client.screenshot().await.unwrap();
        let dir = target_dir().join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        eprintln!("screenshot: {}", path.display());
    }

    /// No error banner, and nothing wider than the viewport (narrow screens scroll inside the
    /// matrices, never the page sideways).
    pub(crate) async fn page_is_sound(&self) {
        assert_eq!(
            self.js("document.getElementById('error').hidden").await,
            json!(true),
            "{}",
            self.js("document.getElementById('error').textContent").await
        );
        let overflow = self.js("document.documentElement.scrollWidth - window.innerWidth").await;
        assert!(overflow.as_i64().unwrap() <= 0, "the page scrolls sideways by {overflow} px");
    }

    pub(crate) async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

/// A test of an element's text, for [`Session::until_text`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Text<'a> {
    /// Exactly this text.
    Is(&'a str),
    /// Text that starts so.
    StartsWith(&'a str),
    /// Text that holds this.
    Has(&'a str),
}

fn count_expr(css: &str) -> String {
    format!("document.querySelectorAll({}).length", js_string(css))
}
