//! Every parameter the OpenAPI description documents is honoured or refused with 400, never
//! silently dropped (issue #22): for each one, a request that sets it is compared with the
//! same request without it; the answers must differ (beyond timings) or the request must be
//! refused. A parameter the description adds without a case in `params.txt` fails the
//! coverage test.

use serde_json::Value;

use crate::util::{Reply, TestServer};

/// Two solutions, `a b | c` and `a | b | c`, found in another order by `leftmost`.
const TWO: &str = "a b c\na b\nc\nb\na\n";

/// A 6x6 puzzle on one line (six givens: many solutions, other ones with 2x3 and 3x2 boxes).
const SIX: &str = "1.......3......4......5..6.........2\n";

/// What a parameter must do.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The answer differs from the base request's (timings aside).
    Differs,
    /// The request is refused with 400.
    Refused,
}

/// A request with and without some parameters: the body of a POST (none for a GET), the
/// path, the base query, the parameters added to it (`extra`, replacing those of the same
/// names) and what they must do.
struct Case {
    post: Option<&'static str>,
    path: &'static str,
    base: &'static str,
    extra: &'static str,
    expect: Expect,
}

/// The cases, read from `params.txt` (one a line: method, path, body, base, extra, expect).
fn cases() -> Vec<Case> {
    let word = |w: &'static str| if w == "-" { "" } else { w };
    include_str!("params.txt")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let f: Vec<&'static str> = line.split_whitespace().collect();
            let [method, path, body, base, extra, expect] = f[..] else {
                panic!("params.txt: six fields a line: {line}");
            };
            let post = match (method, body) {
                ("GET", "-") => None,
                ("POST", "TWO") => Some(TWO),
                ("POST", "SIX") => Some(SIX),
                _ => panic!("params.txt: method and body: {line}"),
            };
            let expect = match expect {
                "differs" => Expect::Differs,
                "refused" => Expect::Refused,
                _ => panic!("params.txt: `differs` or `refused`: {line}"),
            };
            Case { post, path, base: word(base), extra: word(extra), expect }
        })
        .collect()
}

/// `base` with `extra`'s parameters replacing those of the same names.
fn query(base: &str, extra: &str) -> String {
    let names: Vec<&str> = extra.split('&').filter_map(|p| p.split('=').next()).collect();
    let kept = base
        .split('&')
        .filter(|p| !p.is_empty() && !names.iter().any(|n| p.starts_with(&format!("{n}="))));
    kept.chain(extra.split('&')).collect::<Vec<_>>().join("&")
}

/// The answer without its timings (`seconds`, anywhere), for comparing.
fn timeless(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("seconds");
            for v in map.values_mut() {
                *v = timeless(v.take());
            }
        }
        Value::Array(list) => {
            for v in list.iter_mut() {
                *v = timeless(v.take());
            }
        }
        _ => {}
    }
    value
}

/// The answer as compared: JSON without timings, or the text (the DLX endpoints).
fn comparable(reply: &Reply) -> Value {
    if reply.header("content-type") == Some("application/json") {
        timeless(reply.json())
    } else {
        Value::from(reply.text())
    }
}

async fn send(server: &TestServer, case: &Case, query: &str) -> Reply {
    let path =
        if query.is_empty() { case.path.to_string() } else { format!("{}?{query}", case.path) };
    match case.post {
        Some(body) => server.post(&path, body).await,
        None => server.get(&path).await,
    }
}

#[tokio::test]
async fn every_parameter_is_honoured_or_refused() {
    let server = TestServer::start(Default::default()).await;
    for case in &cases() {
        let base = send(&server, case, case.base).await;
        assert_eq!(base.status, 200, "{} ? {}: {}", case.path, case.base, base.text());
        let with = send(&server, case, &query(case.base, case.extra)).await;
        let what = format!("{} ? {} + {}", case.path, case.base, case.extra);
        match case.expect {
            Expect::Refused => {
                let message = with.error(400);
                assert!(!message.is_empty(), "{what}");
            }
            Expect::Differs => {
                assert_eq!(with.status, 200, "{what}: {}", with.text());
                assert_ne!(comparable(&base), comparable(&with), "{what}: dropped");
            }
        }
    }
}

/// A count with a limit stops at the limit, as `dancecard queens --count --limit` and
/// `dancecard tile --count --limit` do (the default method becomes the search).
#[tokio::test]
async fn counts_stop_at_their_limit() {
    let server = TestServer::start(Default::default()).await;
    let queens = server.get("/api/queens?n=10&mode=count&limit=3").await.json();
    assert_eq!(
        (&queens["count"], &queens["method"]),
        (&Value::from(3), &Value::from("dlx")),
        "{queens}"
    );
    assert_eq!(queens["stop"], "solution-limit", "{queens}");
    let all = server.get("/api/queens?n=10&mode=count").await.json();
    assert_eq!((&all["count"], &all["method"]), (&Value::from(724), &Value::from("bits")), "{all}");
    let tile = server.get("/api/tile?board=5x6&pieces=trominoes&mode=count&limit=2").await.json();
    assert_eq!(
        (&tile["count"], &tile["stop"]),
        (&Value::from(2), &Value::from("solution-limit")),
        "{tile}"
    );
    let all = server.get("/api/tile?board=5x6&pieces=trominoes&mode=count").await.json();
    assert_eq!((&all["count"], &all["method"]), (&Value::from(8342), &Value::from("dp")), "{all}");
}

/// Every parameter of every operation in the OpenAPI description has a case in `params.txt`.
#[test]
fn every_documented_parameter_has_a_case() {
    let doc: Value = serde_json::from_str(include_str!("../src/api/openapi.json")).expect("JSON");
    let cases = cases();
    let mut missing = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for operation in item.as_object().expect("operations").values() {
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = parameter["name"].as_str().expect("a name");
                let covered = cases.iter().any(|c| {
                    c.path == path
                        && c.extra.split('&').any(|p| p.split('=').next() == Some(name))
                        && matches!(c.expect, Expect::Differs)
                });
                if !covered {
                    missing.push(format!("{path} {name}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "parameters without a case: {missing:?}");
}
