//! The page in English and Chinese (issue #20): the two dictionaries of `assets/js/i18n/`
//! have the same keys and placeholders; no view writes English text outside them; and in a
//! browser, the language follows the browser's, the switch stores the reader's choice, and no
//! view shows English sentences in Chinese.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::browser::BROWSERS;
use crate::util::{desktop_and_phone, Session, TestServer, Text};
use dancecard_web::ServerConfig;

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// A dictionary: one `'key': 'text',` a line between `export default {` and `};`.
fn dictionary(name: &str) -> BTreeMap<String, String> {
    let path = assets().join("js/i18n").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let body = text
        .split_once("export default {\n")
        .and_then(|(_, rest)| rest.rsplit_once("};"))
        .unwrap_or_else(|| panic!("{name}: no `export default {{ ... }};`"))
        .0;
    let mut entries = BTreeMap::new();
    for line in body.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let entry = line
            .strip_prefix('\'')
            .and_then(|l| l.strip_suffix("',"))
            .and_then(|l| l.split_once("': '"))
            .unwrap_or_else(|| panic!("{name}: not a `'key': 'text',` line: {line}"));
        let (key, value) = entry;
        assert!(!value.contains('\''), "{name}: {key}: write ’ rather than a straight quote");
        assert!(!value.contains('\\'), "{name}: {key}: write the character, not an escape");
        let previous = entries.insert(key.to_owned(), value.to_owned());
        assert!(previous.is_none(), "{name}: {key} twice");
    }
    entries
}

/// The {names} of a text.
fn placeholders(text: &str) -> BTreeSet<&str> {
    text.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(name, _)| name).collect()
}

#[test]
fn both_dictionaries_have_the_same_keys_and_placeholders() {
    let en = dictionary("en.js");
    let zh = dictionary("zh.js");
    let only_en: Vec<_> = en.keys().filter(|k| !zh.contains_key(*k)).collect();
    let only_zh: Vec<_> = zh.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(only_en.is_empty(), "missing in zh.js: {only_en:?}");
    assert!(only_zh.is_empty(), "missing in en.js: {only_zh:?}");
    assert!(en.len() > 100, "only {} strings", en.len());
    for (key, english) in &en {
        let chinese = &zh[key];
        assert!(!english.trim().is_empty() && !chinese.trim().is_empty(), "{key} is empty");
        assert_eq!(placeholders(english), placeholders(chinese), "{key}: not the same {{names}}");
        // A Chinese text is written in Chinese (a few are names, units or symbols).
        let han = chinese.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let words = english.split(' ').filter(|w| w.len() > 2).count();
        assert!(han || words < 3, "{key}: zh.js holds no Chinese: {chinese}");
    }
}

/// The string literals of a JavaScript file (the text outside `${...}` for templates),
/// skipping comments. Regular expressions are rare in the views and hold no quotes.
fn literals(source: &str) -> Vec<String> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            quote @ ('\'' | '"' | '`') => {
                let mut text = String::new();
                let mut depth = 0;
                i += 1;
                while i < chars.len() && !(chars[i] == quote && depth == 0) {
                    if chars[i] == '\\' {
                        i += 1;
                    } else if quote == '`' && chars[i] == '$' && chars.get(i + 1) == Some(&'{') {
                        depth += 1;
                        text.push(' ');
                        i += 1;
                    } else if depth > 0 && chars[i] == '}' {
                        depth -= 1;
                    } else if depth == 0 {
                        text.push(chars[i]);
                    }
                    i += 1;
                }
                out.push(text);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A run of three or more English words (of two letters or more) in a text.
fn english_run(text: &str) -> Option<String> {
    let mut run: Vec<&str> = Vec::new();
    for word in text.split(|c: char| c.is_whitespace()) {
        let bare = word.trim_matches(|c: char| ",.;:!?()\u{201c}\u{201d}\u{2019}".contains(c));
        if bare.len() >= 2 && bare.chars().all(|c| c.is_ascii_alphabetic() || c == '\u{2019}') {
            run.push(bare);
            if run.len() >= 3 {
                return Some(run.join(" "));
            }
        } else {
            run.clear();
        }
    }
    None
}

fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().unwrap() != "i18n" {
                scripts(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "js") {
            out.push(path);
        }
    }
}

#[test]
fn no_script_writes_english_outside_the_dictionaries() {
    let mut files = Vec::new();
    scripts(&assets().join("js"), &mut files);
    assert!(files.len() > 10);
    let mut found = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&path).unwrap();
        for literal in literals(&source) {
            // Class lists of controls and CSS selectors are code, not text.
            if literal.starts_with("ctl ") || literal.contains("[contenteditable") {
                continue;
            }
            if let Some(run) = english_run(&literal) {
                found.push(format!("{name}: \"{literal}\" ({run})"));
            }
        }
    }
    assert!(found.is_empty(), "English outside i18n/*.js:\n{}", found.join("\n"));
}

#[test]
fn the_literal_scanner_sees_strings_and_skips_comments() {
    let source =
        "// one two three\nh('p', null, 'Click a row'); /* four five six */ `${x} and so on`";
    let all = literals(source);
    assert_eq!(all, ["p", "Click a row", "  and so on"]);
    assert_eq!(english_run("Click a row").as_deref(), None);
    assert_eq!(english_run("Click the row now").as_deref(), Some("Click the row"));
    assert_eq!(english_run("选 A B C 列").as_deref(), None);
}

/// The views to read in Chinese, each with a sign that it has drawn itself.
const VIEWS: [(&str, &str); 7] = [
    ("matrix", "document.querySelectorAll('#view-matrix table.pick tbody tr').length === 6"),
    ("stepper", "document.querySelectorAll('#view-stepper .count-box .big').length === 2"),
    ("links", "document.querySelectorAll('#view-links button.node').length === 6"),
    ("build", "(document.querySelector('#view-build .where')?.textContent ?? '') !== ''"),
    ("sudoku", "document.querySelectorAll('#view-sudoku table.sudoku td').length === 81"),
    (
        "queens",
        "document.querySelectorAll('#view-queens dd.total').length === 1 \
         && document.querySelectorAll('#view-queens table.queens-matrix tbody tr').length === 16 \
         && document.querySelectorAll('#view-queens table.queens-watch td').length === 36",
    ),
    (
        "tiling",
        "document.querySelectorAll('#view-tiling svg.tiling rect.cell').length > 0 \
         && document.querySelectorAll('#view-tiling table.tiling-watch-table td').length > 0",
    ),
];

/// The English runs of the page's visible text and labels, outside code, keys and the
/// matrix text; [`english_run`] written in JavaScript.
const ENGLISH_RUNS: &str = r#"(() => {
  const run = /(?:^|[\s(“])([A-Za-z’]{2,}[,.;:]?\s+[A-Za-z’]{2,}[,.;:]?\s+[A-Za-z’]{2,})(?=$|[\s,.;:!?)”])/;
  const skip = 'code, pre, kbd, textarea, svg, script, style, noscript, #lang';
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest(skip)) continue;
    const m = run.exec(n.textContent);
    if (m) found.push(m[1]);
  }
  for (const el of document.body.querySelectorAll('[title], [aria-label]')) {
    if (el.closest(skip)) continue;
    for (const attr of ['title', 'aria-label']) {
      const m = run.exec(el.getAttribute(attr) ?? '');
      if (m) found.push(`${attr}: ${m[1]}`);
    }
  }
  return found;
})()"#;

async fn read_every_view_in_chinese(width: u32, height: u32) {
    let args = ["--lang=zh-CN", "--accept-lang=zh-CN,zh"];
    let Some(s) = Session::open(&BROWSERS, width, height, &args).await else { return };
    let server = TestServer::start(ServerConfig::default()).await;
    s.goto(&server.url("/#matrix")).await;
    // A fresh profile: nothing stored, so the language is the browser's.
    assert_eq!(s.js("localStorage.getItem('dancecard.lang')").await, Value::Null);
    s.until("document.documentElement.lang === 'zh-Hans'", "Chinese from the browser").await;
    assert_eq!(
        s.js(
            "document.querySelector('#lang button[data-lang=\"zh\"]').getAttribute('aria-pressed')"
        )
        .await,
        json!("true")
    );
    // The switch is in the header, on the screen.
    let rect = "(() => { const r = document.querySelector('#lang').getBoundingClientRect(); \
                return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth && r.top >= 0; })()";
    assert_eq!(s.js(rect).await, json!(true), "the switch is visible at {width}x{height}");
    for (view, ready) in VIEWS {
        s.goto(&server.url(&format!("/#{view}"))).await;
        s.until(&format!("location.hash === '#{view}'"), view).await;
        s.until(ready, view).await;
        // Let the answers of the engine arrive (counts, summaries).
        tokio::time::sleep(std::time::Duration::from_millis(700)).await;
        let runs = s.js(ENGLISH_RUNS).await;
        assert_eq!(runs, json!([]), "English in the {view} section at {width}x{height}");
        s.page_is_sound().await;
        s.shot(&format!("zh-{width}-{view}")).await;
    }
    s.close().await;
}

desktop_and_phone!(
    every_view_reads_in_chinese_on_a_desktop,
    every_view_reads_in_chinese_on_a_phone,
    read_every_view_in_chinese
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_switch_remembers_the_choice() {
    let args = ["--lang=en-US", "--accept-lang=en-US,en"];
    let Some(s) = Session::open(&BROWSERS, 390, 844, &args).await else { return };
    let server = TestServer::start(ServerConfig::default()).await;
    s.goto(&server.url("/#stepper")).await;
    s.until("document.documentElement.lang === 'en'", "English from the browser").await;
    s.until_text("#nav a[data-view=\"matrix\"]", Text::Has("Exact cover"), "English nav").await;
    // The detector of the Chinese tests sees English where there is some.
    s.until_count("#view-stepper .count-box .big", 2, "stepper").await;
    assert_ne!(s.js(ENGLISH_RUNS).await, json!([]), "the English page has English runs");
    s.click("#lang button[data-lang=\"zh\"]").await;
    s.until("document.documentElement.lang === 'zh-Hans'", "Chinese after the switch").await;
    s.until_text("#nav a[data-view=\"matrix\"]", Text::Has("精确覆盖"), "Chinese nav").await;
    assert_eq!(s.js("location.hash").await, json!("#stepper"), "the same section");
    // Stored: a new visit is in Chinese too.
    s.goto(&server.url("/#links")).await;
    s.until_text("#view-links h2", Text::Has("链表之舞"), "kept across a reload").await;
    assert_eq!(s.js("localStorage.getItem('dancecard.lang')").await, json!("zh"));
    s.click("#lang button[data-lang=\"en\"]").await;
    s.until_text("#view-links h2", Text::Has("Link dance"), "back to English").await;
    s.page_is_sound().await;
    s.close().await;
}
