//! Requests that fuzzing the API with schemathesis (`scripts/test-api`) found answered wrong,
//! each with the answer it gets now.

use dancecard_web::ServerConfig;
use serde_json::Value;

use crate::util::TestServer;

// Found by schemathesis: a count of the queens by DLX on a board over 32 files panicked in
// the count up to symmetry (`queens::is_canonical` took at most 32 files), answering 500.
// Since #29 the API counts through the library's one count, as `dancecard queens 41 --count
// --method dlx --limit 12392 --format json` does: up to symmetry too, on every board (the
// answer was `distinct: null` before, where the command line counted).
#[tokio::test]
async fn queens_counts_by_dlx_past_32_files_count_up_to_symmetry_as_the_cli() {
    let server = TestServer::start(ServerConfig::default()).await;
    let reply = server.get("/api/queens?n=41&mode=count&limit=12392&method=dlx").await;
    let json = reply.ok();
    assert_eq!(json["distinct"], 1729);
    assert_eq!(json["count"], 12392);
    // Up to 32 files, the count up to symmetry is still there.
    let small = server.get("/api/queens?n=8&mode=count&method=dlx").await.json();
    assert_eq!(
        (small["count"].clone(), small["distinct"].clone()),
        (Value::from(92), Value::from(12))
    );
}
