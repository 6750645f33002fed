//! The dancecard web explorer: a local JSON API over the engine, and a teaching page on
//! Dancing Links that the engine itself drives.
//!
//! # Brief overview
//!
//! - [`ServerConfig`] bounds every request and all of them together: the body, the answer,
//!   the time and node budget of a search, the memory a request may reserve and the budget
//!   they share, how many requests, searches and connections at once, how long a request
//!   waits for its turn and how long a client may stall; how many solutions and trace events
//!   an answer may hold.
//! - [`router`] is the whole application as an [`axum::Router`]: the JSON API under `/api/`
//!   and the page's assets (one HTML file, one CSS file, JavaScript modules), which are
//!   embedded in the binary: the page needs no build step and loads nothing from elsewhere.
//! - [`Server`] binds a listener and serves the router until a shutdown signal;
//!   [`serve`] does the same from synchronous code (it builds the runtime and stops on
//!   Ctrl-C), which is what `dancecard serve` calls.
//!
//! # The API
//!
//! The problem endpoints take a problem as the request body, in Knuth's DLX format, as a 0/1
//! matrix or in `.ec` format (detected as `dancecard solve` detects it); the puzzle endpoints
//! take a puzzle or query parameters and go through `dancecard-models`. All answer JSON:
//!
//! | endpoint | answer |
//! | --- | --- |
//! | `POST /api/parse` | the problem: items and options, as the page draws them |
//! | `POST /api/solve?mode=first\|all\|count&limit=N&heuristic=mrv\|leftmost` | the same document as `dancecard solve --format json` |
//! | `POST /api/trace?heuristic=mrv\|leftmost&limit=N` | the problem, and the search's events (choose, cover, try, solution, backtrack...) with the node count at each |
//! | `POST /api/sudoku?method=dlx\|fast&mode=solve\|unique\|count` | one puzzle's entry of `dancecard sudoku --format json` |
//! | `GET /api/queens?n=N&mode=first\|all\|count` | `dancecard queens N --format json` |
//! | `GET /api/queens/dlx?n=N` | the exact cover model of the board, in DLX format (`text/plain`) |
//! | `GET /api/tile?board=RxC&pieces=NAME&once=true\|false&mode=first\|all\|count` | `dancecard tile --format json`, with each tiling's placements |
//! | `GET /api/tile/dlx?board=RxC&pieces=NAME&once=true\|false` | the exact cover model of the tiling, in DLX format (`text/plain`) |
//! | `POST /api/target-sudoku` | `dancecard target-sudoku --format json`: the best score and a grid |
//! | `GET /api/openapi.json` | the OpenAPI 3 description of all of these: parameters, bodies, statuses and JSON shapes, errors included |
//!
//! Searches run on blocking threads, at most [`ServerConfig::max_searches`] at once; a request
//! that cannot start within [`ServerConfig::queue_wait`] gets `503`. A search that reaches
//! the time or node budget answers with what it found and `"complete": false`. A body over
//! [`ServerConfig::max_body_bytes`] gets `413`; a problem that does not parse gets `400` with
//! the parser's message (line and column). Errors are JSON too: `{"error": "..."}`, with
//! `"bound": "..."` naming the [`ServerConfig`] field when a bound refused the request.
//! `docs/web-api.md` documents each endpoint with examples.
//!
//! # Bounds
//!
//! Answers are written straight to bytes, never as a `serde_json::Value` tree (which took some
//! 40 bytes of memory per byte of text), into a buffer capped at
//! [`ServerConfig::max_reply_bytes`]: a list (solutions, trace events, tilings) stops at the
//! first entry that would not fit, and says so (`"complete": false`, `"stop": "reply-limit"`);
//! an answer that cannot be cut (the description of a problem) gets `413`. Before it does any
//! work, a request reserves from the memory budget ([`ServerConfig::max_memory_bytes`]) what
//! its body, its work (estimated from above by its endpoint: 64 bytes per byte of a problem's
//! text, the model of a puzzle by its size) and its answer may take; the answer keeps its part
//! until its last byte is sent. At most [`ServerConfig::max_requests`] requests are in
//! progress and [`ServerConfig::max_connections`] connections open; a client that stalls
//! longer than [`ServerConfig::client_timeout`] is cut off. With the defaults the server's
//! resident memory stays under about 300 MB whatever the clients send (the soak test checks
//! 512 MB; a 1 MB body used to take 920 MB).
//!
//! # Adding a view
//!
//! A view of the page is one ES module under `assets/js/views/`, listed in
//! `assets/js/views/registry.js` (the navigation is built from that list) and in the asset
//! table of `src/assets.rs`; an endpoint is one module under `src/api/`, one entry of
//! `api::ENDPOINTS` and one path of `src/api/openapi.json` (a test checks that the two
//! agree). Every endpoint runs its search through `api::search::run` (the engine's budget) or
//! `api::search::run_timed` (for solvers that stop only on a cancel flag), saying what memory
//! its work may take (`api::search::Need`), and writes its answer into the `api::reply::Reply`
//! it is given.
//!
//! # Example
//!
//! Serve on a free loopback port, ask for the number of solutions of a small problem over
//! plain HTTP, and stop.
//!
//! ```
//! use tokio::io::{AsyncReadExt, AsyncWriteExt};
//! use dancecard_web::{Server, ServerConfig};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! let server = Server::bind(([127, 0, 0, 1], 0).into(), ServerConfig::default()).await?;
//! let addr = server.local_addr()?;
//! let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
//! let running = tokio::spawn(server.run_until(async move {
//!     let _ = stopped.await;
//! }));
//!
//! // Items a, b; options "a b", "a", "b": two exact covers.
//! let body = "a b\na b\na\nb\n";
//! let request = format!(
//!     "POST /api/solve?mode=count HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
//!      Content-Length: {}\r\n\r\n{body}",
//!     body.len()
//! );
//! let mut stream = tokio::net::TcpStream::connect(addr).await?;
//! stream.write_all(request.as_bytes()).await?;
//! let mut response = String::new();
//! stream.read_to_string(&mut response).await?;
//! assert!(response.starts_with("HTTP/1.1 200 OK"));
//! assert!(response.contains(r#""count":2"#));
//! assert!(response.contains(r#""complete":true"#));
//!
//! let _ = stop.send(());
//! running.await.expect("the server task ends")?;
//! # Ok(())
//! # }
//! ```

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

mod api;
mod assets;
mod conn;

/// Bounds and settings of the server. Every request is bounded by them.
///
/// The defaults suit one person on their own machine: see each field.
///
/// # What one request may take
///
/// Its body ([`max_body_bytes`](Self::max_body_bytes)), its answer
/// ([`max_reply_bytes`](Self::max_reply_bytes): lists stop there with `"stop": "reply-limit"`,
/// or the request gets `413`), its search's time and nodes, and the memory its endpoint
/// estimates from above before it starts (a parsed problem: 64 bytes per byte of its text; a
/// puzzle's model: by its size), reserved from [`max_memory_bytes`](Self::max_memory_bytes).
///
/// # What all requests may take together
///
/// At most [`max_requests`](Self::max_requests) in progress, whose reservations sum to at
/// most [`max_memory_bytes`](Self::max_memory_bytes) (a request that does not fit gets
/// `503`), at most [`max_searches`](Self::max_searches) of them searching, on at most
/// [`max_connections`](Self::max_connections) connections (a client that takes longer than
/// [`client_timeout`](Self::client_timeout) to send a request or to read an answer is cut
/// off). So the server's resident memory stays under about the memory budget, plus 10 MB for
/// the program and 128 KiB per connection: 300 MB with the defaults. The soak test
/// (`crates/cli/tests/soak.rs`) checks 512 MB under hostile load.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerConfig {
    /// Largest request body, in bytes; a larger one gets `413 Payload Too Large`.
    /// [default: 1 MiB]
    pub max_body_bytes: usize,
    /// Largest answer, in bytes. A list (solutions, trace events, tilings) stops at the first
    /// entry that would not fit, with `"complete": false` and `"stop": "reply-limit"`; an
    /// answer that cannot be cut (a problem's description for `/api/parse` and `/api/trace`,
    /// a DLX file) gets `413` with `"bound": "max_reply_bytes"`. [default: 4 MiB]
    pub max_reply_bytes: usize,
    /// Time budget of one search; past it the answer holds what was found, with
    /// `"complete": false`. [default: 2 s]
    pub time_limit: Duration,
    /// Time budget of a count of a puzzle's solutions (`mode=count` of `/api/sudoku`,
    /// `/api/queens` and `/api/tile`), which may be worth a longer wait than a search for one
    /// solution. [default: 10 s]
    pub count_time_limit: Duration,
    /// Node budget of one search (see [`dancecard_engine::Stats::nodes`]); past it the answer
    /// holds what was found, with `"complete": false`. [default: 50,000,000, about a second
    /// or two of search]
    pub max_nodes: u64,
    /// Searches running at once, at most. More than the cores: searches that run to their
    /// budget (counts, runaway problems) would otherwise hold every slot for seconds and keep
    /// the quick ones (a sudoku, a small problem) waiting; the operating system shares the
    /// cores among them, and the memory budget, not this, bounds their memory.
    /// [default: 4 per core, at least 8]
    pub max_searches: usize,
    /// How long a request waits for its memory and a search slot before it gets
    /// `503 Service Unavailable`. [default: 2 s]
    pub queue_wait: Duration,
    /// API requests in progress at once (from their head to the last byte of their answer),
    /// at most; one more gets `503` at once. [default: 64]
    pub max_requests: usize,
    /// The memory budget, in bytes: what the requests in progress may reserve together (their
    /// bodies, their searches' estimated work, their answers until sent). A request that
    /// cannot reserve its part within [`queue_wait`](Self::queue_wait) gets `503`; one that
    /// needs more than the whole budget gets `413`. [default: 256 MiB]
    pub max_memory_bytes: usize,
    /// Connections open at once, at most; more clients wait to be accepted. [default: 256]
    pub max_connections: usize,
    /// How long a client may take to send a request (its head, or its body: `408`), or leave
    /// its answer unread, before its connection is closed; also how long an idle connection
    /// stays open. [default: 30 s]
    pub client_timeout: Duration,
    /// Most solutions listed by `/api/solve?mode=all` (and `/api/queens`, `/api/tile`); the
    /// search stops there, with `"complete": false` unless the request's own `limit` was
    /// reached. [default: 1,000]
    pub max_listed_solutions: u64,
    /// Most events in a `/api/trace` answer (the request's `limit` is capped to it).
    /// [default: 20,000]
    pub max_trace_events: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_body_bytes: 1024 * 1024,
            max_reply_bytes: 4 * 1024 * 1024,
            time_limit: Duration::from_secs(2),
            count_time_limit: Duration::from_secs(10),
            max_nodes: 50_000_000,
            max_searches: std::thread::available_parallelism().map_or(8, |n| (4 * n.get()).max(8)),
            queue_wait: Duration::from_secs(2),
            max_requests: 64,
            max_memory_bytes: 256 * 1024 * 1024,
            max_connections: 256,
            client_timeout: Duration::from_secs(30),
            max_listed_solutions: 1_000,
            max_trace_events: 20_000,
        }
    }
}

/// What every handler shares: the configuration, the places and the budgets.
#[derive(Clone, Debug)]
struct AppState {
    config: Arc<ServerConfig>,
    /// One permit per search allowed to run (see [`ServerConfig::max_searches`]).
    searches: Arc<Semaphore>,
    /// One permit per request allowed in progress (see [`ServerConfig::max_requests`]).
    requests: Arc<Semaphore>,
    /// One permit per KiB of the memory budget (see [`ServerConfig::max_memory_bytes`]).
    memory: Arc<Semaphore>,
    /// Becomes true when the [`Server`] is told to shut down: the searches in flight are
    /// cancelled then, and answer with what they found.
    shutdown: tokio::sync::watch::Receiver<bool>,
}

/// The whole application: the JSON API under `/api/` and the page.
///
/// Serve it with [`Server`], [`serve`], or `axum::serve` on a listener of your own (then
/// only the connection bounds, [`ServerConfig::max_connections`] and the idle part of
/// [`ServerConfig::client_timeout`], are yours to keep: [`Server`] keeps them).
pub fn router(config: ServerConfig) -> Router {
    app(config).0
}

/// The application, and the sender that cancels its searches in flight (see [`Server`]).
fn app(config: ServerConfig) -> (Router, tokio::sync::watch::Sender<bool>) {
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let state = AppState {
        searches: Arc::new(Semaphore::new(config.max_searches.max(1))),
        requests: Arc::new(Semaphore::new(config.max_requests.max(1))),
        memory: Arc::new(Semaphore::new(api::limits::budget_permits(config.max_memory_bytes))),
        config: Arc::new(config),
        shutdown,
    };
    let page = assets::routes().layer(axum::middleware::from_fn(api::limits::mark_busy));
    (api::routes(&state).merge(page).with_state(state), stop)
}

/// A bound listener and the application, ready to serve.
#[derive(Debug)]
pub struct Server {
    listener: conn::Listener,
    app: Router,
    stop: tokio::sync::watch::Sender<bool>,
}

impl Server {
    /// Binds `addr` (port 0 picks a free port: see [`Server::local_addr`]).
    pub async fn bind(addr: SocketAddr, config: ServerConfig) -> io::Result<Server> {
        let listener = TcpListener::bind(addr).await?;
        let listener = conn::Listener::new(listener, config.max_connections, config.client_timeout);
        let (app, stop) = app(config);
        Ok(Server { listener, app, stop })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        axum::serve::Listener::local_addr(&self.listener)
    }

    /// Serves until `shutdown` completes, then cancels the searches in flight (each answers
    /// with what it found, `"stop": "cancelled"`), finishes their requests and returns.
    pub async fn run_until<F>(self, shutdown: F) -> io::Result<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let stop = self.stop;
        let shutdown = async move {
            shutdown.await;
            let _ = stop.send(true);
        };
        let app = self.app.into_make_service_with_connect_info::<conn::Handle>();
        axum::serve(self.listener, app).with_graceful_shutdown(shutdown).await
    }
}

/// Serves on `addr` from synchronous code until Ctrl-C: builds a runtime, binds, calls
/// `ready` with the bound address (port 0 picks a free one), and serves.
pub fn serve<F>(addr: SocketAddr, config: ServerConfig, ready: F) -> io::Result<()>
where
    F: FnOnce(SocketAddr),
{
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let server = Server::bind(addr, config).await?;
        ready(server.local_addr()?);
        server
            .run_until(async {
                // If the handler cannot be installed, serve until the process is killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await
    })
}
