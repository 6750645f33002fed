//! The requests that `docs/web-api.md` shows answer what the page says. The page writes each
//! example in a ```console block: a line `$ curl -s [--data 'BODY' | --data-binary @FILE] 'URL'`
//! (continued on lines starting with `> `), then the answer. A JSON answer may be wrapped over
//! several lines (the lines are joined, their indentation dropped), and `...` stands for any
//! text (times, and long lists cut short); a text answer is compared line by line. Each request
//! is sent to a server started in this process with the defaults of `dancecard serve`.

use std::path::PathBuf;

use dancecard_web::ServerConfig;

use crate::util::TestServer;

/// The repository's root, where the page's file names (`examples/...`, `testdata/...`) start.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One documented request and its answer.
#[derive(Debug)]
struct Example {
    /// The line of the `$ curl` command in the page.
    line: usize,
    /// `GET` or `POST` and the path with its query.
    method: &'static str,
    path: String,
    body: Vec<u8>,
    expected: String,
}

/// The words of a command line as a POSIX shell splits them (single and double quotes, no
/// variables): enough for the page's `curl` lines.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                let w = word.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    w.push(q);
                }
            }
            c if c.is_whitespace() => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Reads a `curl` command: its method, path and body.
fn request(line: usize, command: &str) -> (&'static str, String, Vec<u8>) {
    let words = words(command);
    assert_eq!(words.first().map(String::as_str), Some("curl"), "line {line}: not curl");
    let mut body = None;
    let mut url = None;
    let mut rest = words[1..].iter();
    while let Some(word) = rest.next() {
        match word.as_str() {
            "-s" => {}
            "--data" => body = rest.next().map(|text| text.clone().into_bytes()),
            "--data-binary" => {
                let file = rest.next().and_then(|w| w.strip_prefix('@'));
                let file = file.unwrap_or_else(|| panic!("line {line}: --data-binary @FILE"));
                let path = root().join(file);
                let bytes = std::fs::read(&path)
                    .unwrap_or_else(|e| panic!("line {line}: {}: {e}", path.display()));
                body = Some(bytes);
            }
            other if other.starts_with("http://") => url = Some(other.to_owned()),
            other => panic!("line {line}: unexpected curl argument {other:?}"),
        }
    }
    let url = url.unwrap_or_else(|| panic!("line {line}: no URL"));
    let after_scheme = &url["http://".len()..];
    let path = &after_scheme[after_scheme.find('/').unwrap_or(after_scheme.len())..];
    let method = if body.is_some() { "POST" } else { "GET" };
    (method, path.to_owned(), body.unwrap_or_default())
}

/// The examples of the page, in order.
fn examples(page: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut lines = page.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
    let mut in_console = false;
    while let Some((number, line)) = lines.next() {
        if line.starts_with("```") {
            in_console = !in_console && line.trim() == "```console";
            continue;
        }
        let Some(command) = line.strip_prefix("$ ").filter(|_| in_console) else {
            continue;
        };
        // A line ending in `\` goes on, as in a shell, on the next line's `> `.
        let mut command = command.trim_end().trim_end_matches('\\').to_owned();
        while let Some((_, more)) = lines.next_if(|(_, l)| l.starts_with("> ")) {
            command.push(' ');
            command.push_str(more[2..].trim_end().trim_end_matches('\\'));
        }
        let mut answer = Vec::new();
        while let Some((_, more)) =
            lines.next_if(|(_, l)| !l.starts_with("$ ") && !l.starts_with("```"))
        {
            answer.push(more);
        }
        let (method, path, body) = request(number, &command);
        let expected = if answer.first().is_some_and(|l| l.starts_with(['{', '['])) {
            answer.iter().map(|l| l.trim()).collect::<String>()
        } else {
            answer.join("\n")
        };
        examples.push(Example { line: number, method, path, body, expected });
    }
    examples
}

/// Whether `actual` is `expected` where each `...` of `expected` stands for any text.
fn matches(expected: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = expected.split("...").collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return expected == actual;
    }
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[tokio::test]
async fn documented_requests_answer_what_the_page_says() {
    let page = std::fs::read_to_string(root().join("docs/web-api.md")).expect("docs/web-api.md");
    let examples = examples(&page);
    assert!(examples.len() >= 10, "too few examples found: {examples:?}");
    let server = TestServer::start(ServerConfig::default()).await;
    let mut wrong = Vec::new();
    for example in &examples {
        let reply = match example.method {
            "GET" => server.get(&example.path).await,
            _ => server.post(&example.path, &example.body).await,
        };
        let actual = reply.text();
        let actual = actual.strip_suffix('\n').unwrap_or(&actual);
        if !matches(&example.expected, actual) {
            wrong.push(format!(
                "docs/web-api.md line {}: {} {}\n  documented: {}\n  answered:   {actual}",
                example.line, example.method, example.path, example.expected
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn wildcards_match_any_text_and_nothing_else() {
    assert!(matches(r#"{"a":1,"s":...,"b":2}"#, r#"{"a":1,"s":0.25,"b":2}"#));
    assert!(matches("{...}", "{}"));
    assert!(!matches(r#"{"a":1,...}"#, r#"{"a":2,"b":3}"#));
    assert!(!matches("abc", "abcd"));
    assert!(!matches("a...bc...c", "abc"));
    assert_eq!(words("curl -s --data 'a b' \"x\"y"), ["curl", "-s", "--data", "a b", "xy"]);
}
