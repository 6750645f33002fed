//! The visual regression test: every view, at 1280x800 and at 390x844, photographed in a
//! headless Chromium and compared with the picture stored under `tests/screenshots/`, so that
//! a broken layout fails CI.
//!
//! # What is compared
//!
//! The viewport only, as Chromium draws it right after the view has loaded (nothing clicked).
//! Both pictures are halved (each 2x2 block of pixels averaged) before anything else: that
//! keeps the stored files small and smooths the sub-pixel noise of font anti-aliasing. Then:
//!
//! - the sizes must agree;
//! - a pixel *differs* when one of its channels is more than [`CHANNEL_TOLERANCE`] (of 255)
//!   away from the stored one: anti-aliased glyph edges move by less, a text or a box that
//!   moved changes whole runs of pixels by far more;
//! - the test fails when more than [`MAX_DIFF_RATIO`] of the pixels differ. A line of text
//!   that moved or a panel that overflowed changes several per cent; a changed digit in a
//!   counter stays well under. [`a_shifted_layout_is_caught`] checks that a 12-pixel shift
//!   of the page fails the comparison while a second photograph of the same page passes.
//!
//! On a failure the actual picture and a difference map (changed pixels in red) are written
//! under `target/screenshots/visual/`.
//!
//! # Re-blessing
//!
//! After an intended change of a view (or after merging branches that change views), rewrite
//! the stored pictures and commit them:
//!
//! ```text
//! DANCECARD_BLESS=1 cargo test -p dancecard-web --test integration visual::
//! ```
//!
//! Without Chromium and chromedriver the test fails, unless `DANCECARD_SKIP_BROWSER` is set
//! (as the other browser tests).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{desktop_and_phone, js_string, target_dir, Session, TestServer, Text};

/// A channel may move this much (of 255) before its pixel counts as changed.
const CHANNEL_TOLERANCE: u8 = 64;

/// The share of changed pixels (after halving) above which a view fails.
const MAX_DIFF_RATIO: f64 = 0.01;

/// The environment variable that rewrites the stored pictures instead of comparing.
const BLESS: &str = "DANCECARD_BLESS";

/// Each view and what it shows once loaded. The sudoku and queens conditions are loose on
/// purpose: those views change in other branches (re-bless after merging them).
const VIEWS: [(&str, &str); 7] = [
    ("matrix", "document.querySelectorAll('#view-matrix table.pick tbody tr').length > 0"),
    ("stepper", "document.querySelectorAll('#view-stepper .count-box .big').length === 2"),
    ("links", "document.querySelectorAll('#view-links button.node').length > 0"),
    ("build", "/^step 0 of/.test(document.querySelector('#view-build .where')?.textContent ?? '')"),
    ("sudoku", "document.querySelectorAll('#view-sudoku table td').length > 0"),
    ("queens", "document.querySelectorAll('#view-queens td.queen').length > 0"),
    ("tiling", "document.querySelectorAll('#view-tiling svg.tiling rect.cell').length > 0"),
];

fn stored_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/screenshots")
}

fn failure_dir() -> PathBuf {
    target_dir().join("screenshots/visual")
}

fn blessing() -> bool {
    std::env::var_os(BLESS).is_some_and(|v| !v.is_empty() && v != "0")
}

// ---- the browser (a [`Session`], with the same pictures whatever the machine) ----

/// One visual test's browser at a time (the browser tests run one more alongside).
static TURN: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// The browser of the visual tests.
struct Browser(Session);

impl std::ops::Deref for Browser {
    type Target = Session;

    fn deref(&self) -> &Session {
        &self.0
    }
}

impl Browser {
    /// A browser whose viewport is `width` x `height`, or `None` (skip) without Chromium.
    async fn open(width: u32, height: u32) -> Option<Browser> {
        // The same pictures whatever the machine's language and scale.
        let args = ["--lang=en-US", "--force-device-scale-factor=1", "--font-render-hinting=none"];
        Session::open(&TURN, width, height, &args).await.map(Browser)
    }

    /// Opens a view (one of [`VIEWS`]) on a fresh page load and waits until it has loaded.
    async fn load(&self, url: &str, (view, ready): (&str, &str)) {
        self.goto("about:blank").await;
        self.goto(&format!("{url}#{view}")).await;
        self.until(ready, view).await;
    }

    /// Opens a view on a fresh page load, waits until it has loaded and settled, and returns
    /// the viewport's picture, halved.
    async fn photograph(&self, url: &str, view: (&str, &str)) -> Image {
        self.load(url, view).await;
        self.until("document.fonts.status === 'loaded'", "fonts").await;
        // No caret, no focus ring, no transition half-way; the top of the page.
        self.run("document.activeElement?.blur(); window.scrollTo(0, 0);").await;
        tokio::time::sleep(Duration::from_millis(700)).await;
        self.picture().await
    }

    /// The viewport's picture now, halved.
    async fn picture(&self) -> Image {
        let png = self.client.screenshot().await.unwrap();
        Image::decode(&png).halved()
    }

    async fn close(self) {
        self.0.close().await;
    }
}

// ---- pictures ----

/// An RGB picture.
#[derive(Clone, Debug, PartialEq)]
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn decode(bytes: &[u8]) -> Image {
        let mut decoder = png::Decoder::new(bytes);
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("a PNG frame");
        let channels = info.color_type.samples();
        let rgb = buf[..info.buffer_size()]
            .chunks_exact(channels)
            .flat_map(|px| match channels {
                1 | 2 => [px[0], px[0], px[0]],
                _ => [px[0], px[1], px[2]],
            })
            .collect();
        Image { width: info.width, height: info.height, rgb }
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut out, self.width, self.height);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.set_compression(png::Compression::Best);
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(&self.rgb).unwrap();
        }
        out
    }

    /// Each 2x2 block averaged into one pixel.
    fn halved(&self) -> Image {
        let (w, h) = (self.width / 2, self.height / 2);
        let mut rgb = Vec::with_capacity((w * h * 3) as usize);
        let at =
            |x: u32, y: u32, c: u32| u32::from(self.rgb[((y * self.width + x) * 3 + c) as usize]);
        for y in 0..h {
            for x in 0..w {
                for c in 0..3 {
                    let sum = at(2 * x, 2 * y, c)
                        + at(2 * x + 1, 2 * y, c)
                        + at(2 * x, 2 * y + 1, c)
                        + at(2 * x + 1, 2 * y + 1, c);
                    rgb.push(((sum + 2) / 4) as u8);
                }
            }
        }
        Image { width: w, height: h, rgb }
    }
}

/// How `actual` differs from `stored`: the share of changed pixels and a map of them.
fn compare(stored: &Image, actual: &Image) -> Result<(f64, Image), String> {
    if (stored.width, stored.height) != (actual.width, actual.height) {
        return Err(format!(
            "the picture is {}x{}, the stored one {}x{}",
            actual.width, actual.height, stored.width, stored.height
        ));
    }
    let mut changed = 0usize;
    let mut map = actual.clone();
    for (k, (a, b)) in stored.rgb.chunks_exact(3).zip(actual.rgb.chunks_exact(3)).enumerate() {
        let far = a.iter().zip(b).any(|(x, y)| x.abs_diff(*y) > CHANNEL_TOLERANCE);
        let px = &mut map.rgb[3 * k..3 * k + 3];
        if far {
            changed += 1;
            px.copy_from_slice(&[255, 0, 0]);
        } else {
            // The unchanged page, faded, under the red.
            for v in px.iter_mut() {
                *v = 192 + *v / 4;
            }
        }
    }
    Ok((changed as f64 / (stored.width * stored.height) as f64, map))
}

/// Compares one view's picture with the stored one (or stores it when blessing); the
/// failure message, if any.
fn check(name: &str, actual: &Image) -> Option<String> {
    let stored_path = stored_dir().join(format!("{name}.png"));
    if blessing() {
        std::fs::create_dir_all(stored_dir()).unwrap();
        std::fs::write(&stored_path, actual.encode()).unwrap();
        eprintln!("blessed {}", stored_path.display());
        return None;
    }
    let keep = |suffix: &str, image: &Image| {
        let dir = failure_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}{suffix}.png"));
        std::fs::write(&path, image.encode()).unwrap();
        path
    };
    let Ok(bytes) = std::fs::read(&stored_path) else {
        let path = keep("", actual);
        return Some(format!(
            "{name}: no stored picture {} (this one is in {}; {BLESS}=1 stores it)",
            stored_path.display(),
            path.display()
        ));
    };
    let stored = Image::decode(&bytes);
    match compare(&stored, actual) {
        Err(why) => {
            let path = keep("", actual);
            Some(format!("{name}: {why} (see {})", path.display()))
        }
        Ok((ratio, map)) => {
            eprintln!("{name}: {:.3}% of the pixels changed", 100.0 * ratio);
            (ratio > MAX_DIFF_RATIO).then(|| {
                let path = keep("", actual);
                let diff = keep("-diff", &map);
                format!(
                    "{name}: {:.2}% of the pixels changed (at most {:.2}% may): see {} and {}",
                    100.0 * ratio,
                    100.0 * MAX_DIFF_RATIO,
                    path.display(),
                    diff.display()
                )
            })
        }
    }
}

/// Every view at one size: all are compared before the test fails, so one run lists every
/// broken view.
async fn every_view_at(width: u32, height: u32) {
    let Some(browser) = Browser::open(width, height).await else { return };
    let server = TestServer::for_pages().await;
    let url = server.url("/");
    assert_eq!(browser.js("[window.innerWidth, window.innerHeight]").await, json!([width, height]));
    let mut failures = Vec::new();
    for (view, ready) in VIEWS {
        let actual = browser.photograph(&url, (view, ready)).await;
        if let Some(failure) = check(&format!("{view}-{width}x{height}"), &actual) {
            failures.push(failure);
        }
    }
    browser.close().await;
    assert!(
        failures.is_empty(),
        "{} of {} views differ from tests/screenshots/ (after an intended change: \
         {BLESS}=1 cargo test -p dancecard-web --test integration visual::):\n{}",
        failures.len(),
        VIEWS.len(),
        failures.join("\n")
    );
}

desktop_and_phone!(
    every_view_looks_as_stored_on_a_desktop,
    every_view_looks_as_stored_on_a_phone,
    every_view_at
);

/// The tolerance at work: a second picture of the same view passes, and the same view with
/// its page shifted 12 pixels right fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shifted_layout_is_caught() {
    let Some(browser) = Browser::open(1280, 800).await else { return };
    let server = TestServer::for_pages().await;
    let url = server.url("/");
    let first = browser.photograph(&url, VIEWS[0]).await;
    let second = browser.photograph(&url, VIEWS[0]).await;
    let (noise, _) = compare(&first, &second).unwrap();
    assert!(noise <= MAX_DIFF_RATIO, "two pictures of one page differ in {:.3}%", 100.0 * noise);
    browser.run("document.querySelector('main').style.marginLeft = '12px';").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let shifted = browser.picture().await;
    let (ratio, _) = compare(&first, &shifted).unwrap();
    eprintln!("noise {:.3}%, shifted {:.3}%", 100.0 * noise, 100.0 * ratio);
    assert!(ratio > MAX_DIFF_RATIO, "a 12-pixel shift changed only {:.3}%", 100.0 * ratio);
    browser.close().await;
}

// ---- the rough spots of issue #20, checked at both sizes ----

impl Browser {
    /// Clicks the first element matching `css` from the page's script (no scrolling to it).
    async fn click(&self, css: &str) {
        let ok = self
            .js(&format!(
                "(() => {{ const e = document.querySelector({}); if (!e) return false; e.click(); return true; }})()",
                js_string(css)
            ))
            .await;
        assert_eq!(ok, json!(true), "nothing to click at {css}");
    }

    /// Picks `value` in the select matching `css` from the page's script.
    async fn select(&self, css: &str, value: &str) {
        let ok = self
            .js(&format!(
                "(() => {{ const e = document.querySelector({}); if (!e) return false; e.value = {}; \
                 e.dispatchEvent(new Event('change')); return true; }})()",
                js_string(css),
                js_string(value)
            ))
            .await;
        assert_eq!(ok, json!(true), "no select at {css}");
    }
}

async fn rough_spots_at(width: u32, height: u32) {
    let Some(b) = Browser::open(width, height).await else { return };
    let server = TestServer::for_pages().await;
    let url = server.url("/");

    // 2D links: at step 0 the places of the links are drawn (no empty box), and no code line
    // runs out of its panel.
    b.load(&url, VIEWS[3]).await;
    b.until_count("#view-build svg g.ghost", 11, "the places of root, 3 headers and 7 nodes").await;
    b.until_text("#view-build .event", Text::Has("dashed outlines"), "step 0 said").await;
    // The layout, once it holds (a font may still be loading): waited for, then read for the
    // message.
    let overflow = "(() => { const p = document.querySelector('#view-build pre.code'); return p ? p.scrollWidth - p.clientWidth : null; })()";
    let fits = format!("((v) => v !== null && v <= 0)({overflow})");
    b.until(&fits, "the code panel does not scroll sideways").await;
    let overflow = b.js(overflow).await;
    assert!(overflow.as_i64().unwrap() <= 0, "the code panel scrolls by {overflow} px");
    b.until_value(
        "(() => { const p = document.querySelector('#view-build pre.code')?.getBoundingClientRect(); \
         return p ? [...document.querySelectorAll('#view-build pre.code .line')].filter((l) => l.getBoundingClientRect().right > p.right + 0.5).length : null; })()",
        json!(0),
        "code lines cut off",
    )
    .await;

    // Algorithm X: the preset where the S heuristic pays (the engine's counts), and no
    // "1. empty" at the end.
    b.load(&url, VIEWS[1]).await;
    b.select("#view-stepper .toolbar select", "mrv-showcase").await;
    b.until_text(
        "#view-stepper .count-box[data-heuristic=\"mrv\"] .big",
        Text::Is("4 nodes"),
        "4 nodes with the S heuristic",
    )
    .await;
    b.until_text(
        "#view-stepper .count-box[data-heuristic=\"leftmost\"] .big",
        Text::Is("49 nodes"),
        "49 nodes with the leftmost rule",
    )
    .await;
    b.until_count("#view-stepper table.trace tbody tr", 17, "the showcase's 17 rows").await;
    b.run(
        "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));",
    )
    .await;
    b.until_text("#view-stepper .event", Text::Has("the search is over"), "the end").await;
    b.until_count("#view-stepper .partial li", 0, "no \"1. empty\"").await;
    b.until_text("#view-stepper .partial", Text::Has("the search is over"), "the end's partial")
        .await;

    // Tilings: cells sized to the space, readable letters, the status after a count.
    b.load(&url, VIEWS[6]).await;
    let least = if width > 600 { 40.0 } else { 30.0 };
    let cell = "document.querySelector('#view-tiling svg.tiling rect.cell')?.getBoundingClientRect().width";
    let letter = "document.querySelector('#view-tiling svg.tiling text.piece-name')?.getBoundingClientRect().height";
    // The drawing, once laid out at its size: waited for, then read for the messages.
    b.until(&format!("{cell} >= {least} && {letter} >= 12"), "cells and letters sized").await;
    let cell = b.js(cell).await.as_f64().unwrap();
    let letter = b.js(letter).await.as_f64().unwrap();
    eprintln!("{width}x{height}: cells of {cell:.1} px, letters {letter:.1} px high");
    assert!(cell >= least, "cells of {cell} px");
    assert!(letter >= 12.0, "letters {letter} px high");
    b.until("!document.querySelector('#view-tiling button.count').disabled", "ready to count")
        .await;
    b.click("#view-tiling button.count").await;
    b.until_text("#view-tiling dd.total", Text::Is("9,356"), "9,356").await;
    b.until_text(
        "#view-tiling .tiling-part .status",
        Text::Has("9,356 tilings in all"),
        "the status after the count",
    )
    .await;
    b.until_text(
        "#view-tiling .where",
        Text::Is("tiling 1 of 200 listed (9,356 in all)"),
        "the count in the browser's place",
    )
    .await;

    // The memoised count on 6x6 dominoes: its hits next to the plain search's nodes.
    b.click("#view-tiling .memo-part button").await;
    let row = |cls: &str| {
        format!("[...document.querySelectorAll('#view-tiling table.memo-compare tr.{cls} td')].map((t) => t.textContent)")
    };
    // The table, once it holds what is checked below (waited for, then read for the messages).
    b.until(
        &format!(
            "((plain, memo) => {{ const n = (s) => Number(String(s).replaceAll(',', '')); \
             return plain[0] === '6,728' && memo[0] === '6,728' && n(memo[1]) < n(plain[1]) \
             && n(memo[2]) > 0; }})({}, {})",
            row("plain"),
            row("memo")
        ),
        "the comparison",
    )
    .await;
    let plain = b.js(&row("plain")).await;
    let memo = b.js(&row("memo")).await;
    eprintln!("6x6 dominoes: plain {plain}, memo {memo}");
    assert_eq!(plain[0], json!("6,728"));
    assert_eq!(memo[0], json!("6,728"));
    let number = |v: &Value| v.as_str().unwrap().replace(',', "").parse::<u64>().unwrap();
    assert!(number(&memo[1]) < number(&plain[1]), "memo {memo} against plain {plain}");
    assert!(number(&memo[2]) > 0, "no cache hits: {memo}");

    // The target sudoku: five rings, five clearly different shades.
    b.click("#view-tiling .target-part button").await;
    b.until_text("#view-tiling dd.score", Text::Is("2829"), "2829").await;
    b.until(
        "[6, 7, 8, 9, 10].every((w) => document.querySelector(`#view-tiling table.target td.w${w}`))",
        "the five rings drawn",
    )
    .await;
    let shades = b
        .js("[6, 7, 8, 9, 10].map((w) => getComputedStyle(document.querySelector(`#view-tiling table.target td.w${w}`)).backgroundColor)")
        .await;
    let rgb: Vec<[f64; 3]> = shades
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let v: Vec<f64> = c
                .as_str()
                .unwrap()
                .trim_start_matches("rgba(")
                .trim_start_matches("rgb(")
                .trim_end_matches(')')
                .split(',')
                .map(|x| x.trim().parse().unwrap())
                .collect();
            [v[0], v[1], v[2]]
        })
        .collect();
    for pair in rgb.windows(2) {
        let distance = pair[0].iter().zip(&pair[1]).map(|(a, b)| (a - b).abs()).sum::<f64>();
        assert!(distance >= 60.0, "neighbouring rings too alike: {shades}");
    }
    b.close().await;
}

desktop_and_phone!(
    the_rough_spots_are_smoothed_on_a_desktop,
    the_rough_spots_are_smoothed_on_a_phone,
    rough_spots_at
);
