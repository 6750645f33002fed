//! The bounds of one request, and of all of them together.
//!
//! Every API request passes [`admit`] before its handler runs:
//!
//! 1. it takes one of [`ServerConfig::max_requests`](crate::ServerConfig) places (`503` when
//!    none is free: nothing waits here);
//! 2. it reserves [`REQUEST_BYTES`] and twice its body (the declared `Content-Length`, or
//!    the body limit when the length is not declared) from the memory budget,
//!    [`ServerConfig::max_memory_bytes`](crate::ServerConfig) (`503` when the budget is in
//!    use);
//! 3. its body is read whole within [`ServerConfig::client_timeout`](crate::ServerConfig)
//!    (`408` past it; `413` past [`ServerConfig::max_body_bytes`](crate::ServerConfig)), and
//!    the reservation shrinks to the body's size;
//! 4. the handler runs; its search reserves, before it starts, what its work and its answer
//!    may take (`search::run`), and keeps the answer's part of that until the answer is sent;
//! 5. the place, the reservations and the connection's busy mark are held by the answer's
//!    bytes ([`Held`]) and given back when the last byte is written or the client goes away.
//!
//! So at any time the memory reserved by the requests in progress is at most the budget, and
//! what a request may take is known before it takes it. Reservations are counted in KiB (one
//! semaphore permit each).

use axum::body::{Body, Bytes};
use axum::extract::connect_info::ConnectInfo;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use super::ApiError;
use crate::conn;
use crate::AppState;

/// Memory reserved for every request besides its body: the connection's buffers, the request
/// head, the task, and an error answer.
pub(crate) const REQUEST_BYTES: usize = 64 * 1024;

/// Memory reserved from the budget ([`ServerConfig::max_memory_bytes`](crate::ServerConfig)),
/// given back when dropped.
#[derive(Debug)]
pub(crate) struct Reservation(OwnedSemaphorePermit);

impl Reservation {
    /// Keeps `bytes` of the reservation (rounded up to KiB), and gives the rest back.
    pub(crate) fn keep(mut self, bytes: usize) -> Reservation {
        let kib = permits(bytes);
        if kib < self.0.num_permits() {
            if let Some(kept) = self.0.split(kib) {
                return Reservation(kept);
            }
        }
        self
    }
}

/// Permits (KiB) for `bytes`.
fn permits(bytes: usize) -> usize {
    bytes.div_ceil(1024)
}

/// The semaphore size for a budget of `bytes`.
pub(crate) fn budget_permits(bytes: usize) -> usize {
    permits(bytes).clamp(1, tokio::sync::Semaphore::MAX_PERMITS)
}

/// `bytes` for people: `512 KiB`, `4 MiB`, `1.5 GiB`.
pub(crate) fn human(bytes: usize) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    let (value, unit) = if b >= KIB * KIB * KIB {
        (b / (KIB * KIB * KIB), "GiB")
    } else if b >= KIB * KIB {
        (b / (KIB * KIB), "MiB")
    } else if b >= KIB {
        (b / KIB, "KiB")
    } else {
        return format!("{bytes} bytes");
    };
    let text = format!("{value:.1}");
    format!("{} {unit}", text.trim_end_matches(".0"))
}

fn memory_busy(state: &AppState) -> ApiError {
    ApiError::busy(
        format!(
            "the server is busy: the requests in progress hold its memory budget of {} \
             (max_memory_bytes); try again shortly",
            human(state.config.max_memory_bytes)
        ),
        "max_memory_bytes",
    )
}

/// Reserves `bytes` now, or `503`.
fn reserve_now(state: &AppState, bytes: usize) -> Result<Reservation, ApiError> {
    let kib = u32::try_from(permits(bytes)).map_err(|_| memory_busy(state))?;
    state
        .memory
        .clone()
        .try_acquire_many_owned(kib)
        .map(Reservation)
        .map_err(|_| memory_busy(state))
}

/// Reserves `bytes`, waiting until `deadline` at most: `413` if that is more than the whole
/// budget (it never could be reserved), `503` if it is not free in time.
pub(crate) async fn reserve(
    state: &AppState,
    bytes: usize,
    deadline: Instant,
) -> Result<Reservation, ApiError> {
    let budget = state.config.max_memory_bytes;
    let kib = permits(bytes);
    if kib > budget_permits(budget) {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "this request may need {} of memory, more than the server's whole budget of {} \
                 (max_memory_bytes; `dancecard serve --max-memory`)",
                human(bytes),
                human(budget)
            ),
        )
        .bound("max_memory_bytes"));
    }
    let kib = u32::try_from(kib).map_err(|_| memory_busy(state))?;
    match tokio::time::timeout_at(deadline, state.memory.clone().acquire_many_owned(kib)).await {
        Ok(Ok(permit)) => Ok(Reservation(permit)),
        // The semaphore is never closed; treat it like a full one all the same.
        Ok(Err(_)) | Err(_) => Err(memory_busy(state)),
    }
}

/// The bytes to reserve for the body before it is read: twice its declared length (the
/// chunks as they come in, then the whole), or twice the limit when it is not declared.
fn body_reservation(request: &Request, max_body: usize) -> usize {
    let headers = request.headers();
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    let length = match declared {
        Some(n) => n.min(max_body),
        None if headers.contains_key(header::TRANSFER_ENCODING) => max_body,
        None => 0,
    };
    2 * length
}

/// Admits a request (see the module's documentation), runs its handler, and makes its answer
/// hold what the request was given.
pub(crate) async fn admit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Ok(place) = state.requests.clone().try_acquire_owned() else {
        return ApiError::busy(
            format!(
                "the server is busy: {} requests are in progress (max_requests); try again \
                 shortly",
                state.config.max_requests
            ),
            "max_requests",
        )
        .into_response();
    };
    let busy = request.extensions().get::<ConnectInfo<conn::Handle>>().map(|info| info.0.begin());
    let body_bytes = body_reservation(&request, state.config.max_body_bytes);
    let memory = match reserve_now(&state, REQUEST_BYTES + body_bytes) {
        Ok(memory) => memory,
        Err(e) => return e.into_response(),
    };
    // Read the body whole, within the client timeout. (The body limit layers stand outside:
    // past the limit, the extractor's rejection is a 413.)
    let (mut parts, body) = request.into_parts();
    let mut reading = Request::new(body);
    *reading.extensions_mut() = parts.extensions.clone();
    let timeout = state.config.client_timeout;
    let bytes = match tokio::time::timeout(timeout, Bytes::from_request(reading, &())).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(rejection)) => return ApiError::from(rejection).into_response(),
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s (client_timeout)",
                    timeout.as_secs_f64()
                ),
            )
            .bound("client_timeout")
            .into_response()
        }
    };
    let memory = memory.keep(REQUEST_BYTES + bytes.len());
    parts.headers.remove(header::TRANSFER_ENCODING);
    let _ = parts.headers.insert(header::CONTENT_LENGTH, bytes.len().into());
    let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    hold(response, (place, memory, busy)).await
}

/// Marks the connection busy while a request of the page (not the API) is answered, so that
/// its idle time starts after the answer is sent.
pub(crate) async fn mark_busy(request: Request, next: Next) -> Response {
    let busy = request.extensions().get::<ConnectInfo<conn::Handle>>().map(|info| info.0.begin());
    let response = next.run(request).await;
    hold(response, busy).await
}

/// Makes the answer's bytes hold `guard` until they are sent or dropped. Every answer here is
/// in memory already (a finished reply, an error, an embedded file), so taking its bytes copies
/// nothing.
async fn hold<G: Send + 'static>(response: Response, guard: G) -> Response {
    let (parts, body) = response.into_parts();
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => {
            let held = Held { bytes, _memory: guard };
            Response::from_parts(parts, Body::from(Bytes::from_owner(held)))
        }
        Err(_) => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the answer failed").into_response()
        }
    }
}

/// Searches that reserved at least this much give the allocator's free memory back when they
/// end ([`release_free_memory`]).
pub(crate) const TRIM_AFTER_BYTES: usize = 4 << 20;

/// Gives the memory that the allocator keeps free back to the operating system.
///
/// glibc's malloc gives each thread that allocates under contention an arena of its own, and
/// keeps what is freed there for reuse. A large search on one blocking thread, then another on
/// a second thread, and so on, leaves every arena as large as the largest search it ran: the
/// resident memory grows to the sum of those peaks, not the peak of their sum that the memory
/// budget bounds. (The soak test measured 628 MiB against 218 MiB with `MALLOC_ARENA_MAX=2`.)
/// `malloc_trim(0)` returns the free pages of every arena; it takes a few milliseconds, so it
/// runs only after searches that reserved [`TRIM_AFTER_BYTES`] or more.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn release_free_memory() {
    extern "C" {
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    // SAFETY: `malloc_trim` takes no pointer and releases only pages that malloc holds free;
    // glibc takes each arena's lock, so any thread may call it at any time.
    let _ = unsafe { malloc_trim(0) };
}

/// Other allocators return their free memory by themselves, or offer no such call.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn release_free_memory() {}

/// Bytes that keep something alive (a memory reservation, a busy mark) until they are dropped:
/// after the last byte is written to the client, or when the connection closes.
pub(crate) struct Held<T, G> {
    /// The bytes.
    pub(crate) bytes: T,
    /// What they keep alive.
    pub(crate) _memory: G,
}

impl<T: AsRef<[u8]>, G> AsRef<[u8]> for Held<T, G> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(512), "512 bytes");
        assert_eq!(human(64 * 1024), "64 KiB");
        assert_eq!(human(4 << 20), "4 MiB");
        assert_eq!(human(3 << 29), "1.5 GiB");
    }

    #[test]
    fn bodies_reserve_twice_their_declared_length_up_to_the_limit() {
        let with = |name: &str, value: &str| {
            Request::builder().header(name, value).body(Body::empty()).unwrap()
        };
        assert_eq!(body_reservation(&with("content-length", "1000"), 4096), 2000);
        assert_eq!(body_reservation(&with("content-length", "99999999"), 4096), 8192);
        assert_eq!(body_reservation(&with("transfer-encoding", "chunked"), 4096), 8192);
        assert_eq!(body_reservation(&with("accept", "*/*"), 4096), 0);
    }
}
