//! Answers written straight to bytes, never past a cap.
//!
//! An answer used to be built as a `serde_json::Value` tree and then serialized: for a problem
//! of 524,287 one-item options (a 1 MiB body) the tree took some 900 MB to write 21 MB of
//! text. A [`Reply`] instead serializes each piece as it comes into one buffer that never grows
//! past its cap (nor allocates past it): a list stops at the first entry that would not fit
//! ([`Full`]), and the endpoint says so (`"complete": false`, `"stop": "reply-limit"`) or
//! refuses the request (`413`) when a partial answer would make no sense.
//!
//! The object's small closing fields (counts, stop reasons, stats) go into [`TAIL_ROOM`] bytes
//! that lists may not use, so that an answer whose lists filled the cap still closes.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde::Serialize;

use super::limits::{Held, Reservation};

/// Bytes of the cap kept for the fields written after the lists.
pub(crate) const TAIL_ROOM: usize = 4096;

/// The cap would be passed: nothing of the piece was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Full;

/// A buffer that refuses to grow past `limit` bytes, and never reserves past `cap`.
struct Capped<'a> {
    buf: &'a mut Vec<u8>,
    limit: usize,
    cap: usize,
}

impl std::io::Write for Capped<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        put(self.buf, bytes, self.limit, self.cap)
            .map(|()| bytes.len())
            .map_err(|Full| std::io::Error::other("the reply is full"))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Appends `bytes` if the buffer stays within `limit`; grows the allocation by doubling,
/// but never past `cap`.
pub(crate) fn put(buf: &mut Vec<u8>, bytes: &[u8], limit: usize, cap: usize) -> Result<(), Full> {
    let needed = buf.len() + bytes.len();
    if needed > limit {
        return Err(Full);
    }
    if needed > buf.capacity() {
        let target = (buf.capacity() * 2).max(needed).max(1024).min(cap.max(needed));
        buf.reserve_exact(target - buf.len());
    }
    buf.extend_from_slice(bytes);
    Ok(())
}

/// An answer being written: a JSON object (or plain text) of at most `cap` bytes.
#[derive(Debug)]
pub(crate) struct Reply {
    buf: Vec<u8>,
    cap: usize,
    /// Whether the object has a field already (the next one needs a comma).
    fields: bool,
    mime: &'static str,
}

impl Reply {
    /// A JSON object of at most `cap` bytes.
    pub(crate) fn json(cap: usize) -> Reply {
        Reply {
            buf: vec![b'{'],
            cap: cap.max(TAIL_ROOM + 2),
            fields: false,
            mime: "application/json",
        }
    }

    /// `value` as the whole answer, if it fits in `cap` bytes.
    pub(crate) fn whole<T: Serialize + ?Sized>(cap: usize, value: &T) -> Result<Finished, Full> {
        let mut buf = Vec::new();
        serde_json::to_writer(Capped { buf: &mut buf, limit: cap, cap }, value)
            .map_err(|_| Full)?;
        Ok(Finished { buf, mime: "application/json" })
    }

    /// Plain text of at most `cap` bytes: the whole of `text`, or [`Full`].
    pub(crate) fn text(cap: usize, text: &str) -> Result<Reply, Full> {
        let mut reply =
            Reply { buf: Vec::new(), cap, fields: false, mime: "text/plain; charset=utf-8" };
        put(&mut reply.buf, text.as_bytes(), cap, cap)?;
        Ok(reply)
    }

    /// The room lists may fill: the cap less [`TAIL_ROOM`].
    fn list_limit(&self) -> usize {
        self.cap - TAIL_ROOM
    }

    /// Writes `value` with serde within `limit`, or nothing.
    fn serialize<T: Serialize + ?Sized>(&mut self, value: &T, limit: usize) -> Result<(), Full> {
        let mark = self.buf.len();
        let cap = self.cap;
        let written = serde_json::to_writer(Capped { buf: &mut self.buf, limit, cap }, value);
        if written.is_err() {
            self.buf.truncate(mark);
            return Err(Full);
        }
        Ok(())
    }

    /// Writes `"name":` (with the comma before it if needed) within `limit`.
    fn key(&mut self, name: &str, limit: usize) -> Result<(), Full> {
        let mark = self.buf.len();
        let comma: &[u8] = if self.fields { b"," } else { b"" };
        let written = put(&mut self.buf, comma, limit, self.cap)
            .and_then(|()| self.serialize(name, limit))
            .and_then(|()| put(&mut self.buf, b":", limit, self.cap));
        if written.is_err() {
            self.buf.truncate(mark);
        }
        written?;
        self.fields = true;
        Ok(())
    }

    /// A field with a small value (a count, a name, the stats), written in the room kept for
    /// the end of the object.
    pub(crate) fn field<T: Serialize + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
    ) -> Result<(), Full> {
        let mark = (self.buf.len(), self.fields);
        let written =
            self.key(name, self.cap - 1).and_then(|()| self.serialize(value, self.cap - 1));
        if written.is_err() {
            self.buf.truncate(mark.0);
            self.fields = mark.1;
        }
        written
    }

    /// A field holding JSON text written elsewhere (within the lists' room).
    pub(crate) fn raw_field(&mut self, name: &str, json: &[u8]) -> Result<(), Full> {
        let mark = (self.buf.len(), self.fields);
        let limit = self.list_limit();
        let written =
            self.key(name, limit).and_then(|()| put(&mut self.buf, json, limit, self.cap));
        if written.is_err() {
            self.buf.truncate(mark.0);
            self.fields = mark.1;
        }
        written
    }

    /// Opens a list field: push its entries with [`List::push`], then [`List::close`] it.
    /// `Full` if not even the empty list fits.
    pub(crate) fn list(&mut self, name: &str) -> Result<List<'_>, Full> {
        let limit = self.list_limit();
        let mark = (self.buf.len(), self.fields);
        let written =
            self.key(name, limit).and_then(|()| put(&mut self.buf, b"[", limit, self.cap));
        if written.is_err() {
            self.buf.truncate(mark.0);
            self.fields = mark.1;
        }
        written?;
        Ok(List { reply: self, len: 0 })
    }

    /// The answer's bytes, and how much memory they hold.
    pub(crate) fn finish(mut self) -> Finished {
        if self.mime == "application/json" {
            // The room kept for the end always has space for the closing brace.
            self.buf.push(b'}');
        }
        Finished { buf: self.buf, mime: self.mime }
    }
}

/// A list field being written; see [`Reply::list`].
#[derive(Debug)]
pub(crate) struct List<'a> {
    reply: &'a mut Reply,
    len: usize,
}

impl List<'_> {
    /// Appends `entry`, or nothing if it would pass the lists' room.
    pub(crate) fn push<T: Serialize + ?Sized>(&mut self, entry: &T) -> Result<(), Full> {
        let limit = self.reply.list_limit();
        let mark = self.reply.buf.len();
        if self.len > 0 {
            put(&mut self.reply.buf, b",", limit, self.reply.cap)?;
        }
        if let Err(full) = self.reply.serialize(entry, limit) {
            self.reply.buf.truncate(mark);
            return Err(full);
        }
        self.len += 1;
        Ok(())
    }

    /// Entries written so far.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Closes the list (in the room kept for the end).
    pub(crate) fn close(self) {
        // Cannot fail: the lists never use the room kept for the end.
        let cap = self.reply.cap;
        let _ = put(&mut self.reply.buf, b"]", cap, cap);
    }
}

/// A finished answer, ready to be sent.
#[derive(Debug)]
pub(crate) struct Finished {
    buf: Vec<u8>,
    mime: &'static str,
}

impl Finished {
    /// The answer's bytes.
    #[cfg(test)]
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// Bytes the answer holds (its allocation).
    pub(crate) fn held(&self) -> usize {
        self.buf.capacity()
    }

    /// A `200` whose body keeps `memory` reserved until it is sent or dropped, and that no
    /// cache keeps.
    pub(crate) fn into_response(self, memory: Option<Reservation>) -> Response {
        let mime = self.mime;
        let body = Bytes::from_owner(Held { bytes: self.buf, _memory: memory });
        let mut response = Response::new(Body::from(body));
        *response.status_mut() = StatusCode::OK;
        let headers = response.headers_mut();
        let _ = headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
        let _ = headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(reply: Reply) -> String {
        String::from_utf8(reply.finish().into_bytes()).unwrap()
    }

    #[test]
    fn a_list_stops_at_the_first_entry_that_does_not_fit_and_the_object_still_closes() {
        let cap = TAIL_ROOM + 100;
        let mut reply = Reply::json(cap);
        let mut list = reply.list("numbers").unwrap();
        let mut pushed = 0;
        while list.push(&123_456_789u64).is_ok() {
            pushed += 1;
        }
        assert_eq!(list.len(), pushed);
        list.close();
        reply.field("complete", &false).unwrap();
        reply.field("stop", "reply-limit").unwrap();
        let text = text(reply);
        assert!(text.len() <= cap, "{} > {cap}", text.len());
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["numbers"].as_array().unwrap().len(), pushed);
        // 100 bytes less `{"numbers":[`: eight numbers of nine digits and their commas.
        assert_eq!(pushed, 8);
        assert_eq!(value["stop"], "reply-limit");
    }

    #[test]
    fn a_piece_that_does_not_fit_leaves_nothing_behind() {
        let mut reply = Reply::json(TAIL_ROOM + 20);
        assert_eq!(reply.raw_field("long", "x".repeat(100).as_bytes()), Err(Full));
        reply.field("short", &1).unwrap();
        let mut list = reply.list("l").unwrap();
        assert_eq!(list.push(&"y".repeat(50)), Err(Full));
        list.push(&2).unwrap();
        list.close();
        assert_eq!(text(reply), r#"{"short":1,"l":[2]}"#);
    }

    #[test]
    fn the_allocation_never_passes_the_cap() {
        let cap = TAIL_ROOM + 10_000;
        let mut reply = Reply::json(cap);
        let mut list = reply.list("l").unwrap();
        while list.push("abcdefghij").is_ok() {}
        list.close();
        let finished = reply.finish();
        assert!(finished.held() <= cap, "{} > {cap}", finished.held());
    }

    #[test]
    fn text_is_whole_or_full() {
        assert!(Reply::text(10, "0123456789").is_ok());
        assert_eq!(Reply::text(9, "0123456789").unwrap_err(), Full);
    }
}
