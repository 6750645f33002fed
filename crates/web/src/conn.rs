//! Connections: at most [`ServerConfig::max_connections`](crate::ServerConfig) open at once,
//! and none held forever by a client that stalls.
//!
//! What a request holds is bounded by the API's admission (`api::limits`); what a connection
//! holds between requests is bounded here, below HTTP, by wrapping each accepted socket:
//!
//! - **Slots.** [`Listener`]'s `accept` takes a slot before it accepts; a connection gives its
//!   slot back when it closes. When every slot is taken, new clients wait in the kernel's
//!   backlog until one frees up.
//! - **Idle connections.** While no request is in progress on a connection (after it opens,
//!   and after each answer is sent), the next request's head must arrive within the client
//!   timeout, and be at most [`MAX_HEAD_BYTES`]; otherwise the connection is closed. (Hyper
//!   would otherwise keep a slow client's partial head, up to about 400 KB, for as long as the
//!   client likes.)
//! - **Stalled answers.** A write that makes no progress for the client timeout (a client that
//!   stopped reading its answer) closes the connection, which drops the answer and returns
//!   what it held.
//!
//! The API's admission marks a connection busy for the whole of a request, from its head to
//! the last byte of its answer ([`Handle::begin`]); the body's own deadline is the
//! admission's. Nothing here knows HTTP: it sees bytes and the busy mark.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::IncomingStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// The most bytes a client may send on a connection with no request in progress, before a
/// request's head is complete: request heads are a few hundred bytes; 64 KiB leaves room for
/// long query strings and cookies.
pub(crate) const MAX_HEAD_BYTES: usize = 64 * 1024;

/// A TCP listener that hands out at most `slots` connections at once, each wrapped in a
/// [`Connection`].
#[derive(Debug)]
pub(crate) struct Listener {
    inner: TcpListener,
    slots: Arc<Semaphore>,
    timeout: Duration,
}

impl Listener {
    /// Wraps `inner`: at most `max_connections` open at once, idle or stalled ones closed
    /// after `timeout`.
    pub(crate) fn new(inner: TcpListener, max_connections: usize, timeout: Duration) -> Self {
        Listener { inner, slots: Arc::new(Semaphore::new(max_connections.max(1))), timeout }
    }
}

impl axum::serve::Listener for Listener {
    type Io = Connection;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Connection, SocketAddr) {
        // The semaphore is never closed.
        let slot = match self.slots.clone().acquire_owned().await {
            Ok(slot) => slot,
            Err(_) => unreachable!("the connection slots are never closed"),
        };
        loop {
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    // Answers are written whole; do not wait to coalesce their last bytes.
                    let _ = stream.set_nodelay(true);
                    return (Connection::new(stream, slot, self.timeout), addr);
                }
                // Out of file descriptors, or a connection reset before it was accepted: wait
                // a moment rather than spin (as axum's own listener does).
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// What a connection and the requests on it share.
#[derive(Debug, Default)]
struct Shared {
    /// Requests in progress (0 or 1 for HTTP/1.1).
    busy: AtomicUsize,
    /// Bumped each time a request ends, so that the reader restarts its idle deadline.
    ended: AtomicU64,
    /// The reader's waker, woken when a request ends (the idle deadline must start then).
    reader: Mutex<Option<Waker>>,
}

/// The requests' view of their connection: lets the API mark it busy.
#[derive(Clone, Debug)]
pub(crate) struct Handle(Arc<Shared>);

impl Handle {
    /// Marks the connection busy until the guard is dropped (after the answer is sent).
    pub(crate) fn begin(&self) -> Busy {
        let _ = self.0.busy.fetch_add(1, Ordering::SeqCst);
        Busy(self.0.clone())
    }
}

impl Connected<IncomingStream<'_, Listener>> for Handle {
    fn connect_info(stream: IncomingStream<'_, Listener>) -> Self {
        Handle(stream.io().shared.clone())
    }
}

/// A request in progress on a connection; see [`Handle::begin`].
#[derive(Debug)]
pub(crate) struct Busy(Arc<Shared>);

impl Drop for Busy {
    fn drop(&mut self) {
        let _ = self.0.busy.fetch_sub(1, Ordering::SeqCst);
        let _ = self.0.ended.fetch_add(1, Ordering::SeqCst);
        let waker = self.0.reader.lock().map(|mut w| w.take()).unwrap_or_default();
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// An accepted socket with its slot, its idle deadline and its write-stall deadline.
#[derive(Debug)]
pub(crate) struct Connection {
    stream: TcpStream,
    shared: Arc<Shared>,
    /// Given back when the connection closes.
    _slot: OwnedSemaphorePermit,
    timeout: Duration,
    /// When an idle connection is closed; restarted when a request ends.
    idle_deadline: Pin<Box<Sleep>>,
    /// The value of `Shared::ended` when the idle deadline was last started.
    seen_ended: u64,
    /// Bytes read while idle since the last request ended.
    idle_bytes: usize,
    /// When a stalled write fails; `None` while writes make progress.
    write_deadline: Option<Pin<Box<Sleep>>>,
}

impl Connection {
    fn new(stream: TcpStream, slot: OwnedSemaphorePermit, timeout: Duration) -> Self {
        Connection {
            stream,
            shared: Arc::new(Shared::default()),
            _slot: slot,
            timeout,
            idle_deadline: Box::pin(tokio::time::sleep(timeout)),
            seen_ended: 0,
            idle_bytes: 0,
            write_deadline: None,
        }
    }

    fn timed_out(what: &str) -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, format!("the client took too long {what}"))
    }

    /// Polls a pending write against the stall deadline.
    fn stalled(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let timeout = self.timeout;
        let deadline =
            self.write_deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Self::timed_out("to read its answer")),
            Poll::Pending => Poll::Pending,
        }
    }

    /// What a write to the stream came to: while it is pending the stall deadline runs,
    /// progress (or an error) clears it.
    fn wrote(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match poll {
            Poll::Pending => self.stalled(cx).map(Err),
            ready => {
                self.write_deadline = None;
                ready
            }
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let busy = this.shared.busy.load(Ordering::SeqCst) > 0;
        let ended = this.shared.ended.load(Ordering::SeqCst);
        if busy || ended != this.seen_ended {
            // A request is in progress, or one just ended: the idle time starts afresh.
            this.seen_ended = ended;
            this.idle_bytes = 0;
            this.idle_deadline.as_mut().reset(Instant::now() + this.timeout);
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if !busy {
                    this.idle_bytes += buf.filled().len() - before;
                    if this.idle_bytes > MAX_HEAD_BYTES {
                        return Poll::Ready(Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "a request head over 64 KiB",
                        )));
                    }
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                // Register before looking at `busy` again: a request that ends in between
                // then wakes this reader, which starts the idle deadline.
                if let Ok(mut reader) = this.shared.reader.lock() {
                    *reader = Some(cx.waker().clone());
                }
                if this.shared.busy.load(Ordering::SeqCst) > 0 {
                    return Poll::Pending;
                }
                match this.idle_deadline.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(Self::timed_out("to send a request"))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.wrote(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.wrote(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
