//! The page's files, embedded in the binary: one HTML file, one CSS file, JavaScript modules
//! and an icon. Nothing is built and nothing is fetched from elsewhere; the Content Security
//! Policy of the page holds it to that (`'self'` only).

use axum::extract::Path;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::AppState;

/// An embedded file, served at `/assets/<path>` (and `index.html` also at `/`).
struct Asset {
    path: &'static str,
    mime: &'static str,
    body: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

macro_rules! asset {
    ($path:literal, $mime:expr) => {
        Asset { path: $path, mime: $mime, body: include_str!(concat!("../assets/", $path)) }
    };
}

/// Every file of `assets/` (a test checks that none is missing).
const ASSETS: &[Asset] = &[
    asset!("index.html", HTML),
    asset!("style.css", CSS),
    asset!("icon.svg", SVG),
    asset!("js/main.js", JS),
    asset!("js/api.js", JS),
    asset!("js/dom.js", JS),
    asset!("js/player.js", JS),
    asset!("js/problems.js", JS),
    asset!("js/watch.js", JS),
    asset!("js/i18n.js", JS),
    asset!("js/i18n/en.js", JS),
    asset!("js/i18n/zh.js", JS),
    asset!("js/views/registry.js", JS),
    asset!("js/views/matrix.js", JS),
    asset!("js/views/stepper.js", JS),
    asset!("js/views/links.js", JS),
    asset!("js/views/build.js", JS),
    asset!("js/views/sudoku.js", JS),
    asset!("js/views/sudoku-board.js", JS),
    asset!("js/views/queens.js", JS),
    asset!("js/views/queens-search.js", JS),
    asset!("js/views/tiling.js", JS),
    asset!("js/views/tiling-watch.js", JS),
];

/// The page may load its own files only: no CDN, no outside fonts, no inline scripts.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; \
                   form-action 'none'; frame-ancestors 'none'";

/// `GET /` and `GET /assets/{path}`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { serve("index.html") }))
        .route("/assets/{*path}", get(|Path(path): Path<String>| async move { serve(&path) }))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found\n") })
}

fn serve(path: &str) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.path == path) else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(asset.mime)),
        // The files change with the binary: revalidate rather than keep a stale page.
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)),
        (HeaderName::from_static("referrer-policy"), HeaderValue::from_static("no-referrer")),
    ];
    (headers, asset.body).into_response()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::ASSETS;

    fn files(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, base, out);
            } else {
                out.push(path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn every_file_of_assets_is_embedded() {
        let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut on_disk = Vec::new();
        files(&base, &base, &mut on_disk);
        on_disk.sort();
        let mut embedded: Vec<String> = ASSETS.iter().map(|a| a.path.to_owned()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded, "list every file of assets/ in ASSETS (src/assets.rs)");
    }

    #[test]
    fn modules_import_only_embedded_files() {
        // A relative `import ... from './x.js'` that names no embedded file would 404 in the
        // browser; catch it here rather than in the end-to-end tests.
        for asset in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
            let dir = Path::new(asset.path).parent().unwrap();
            for line in asset.body.lines() {
                let Some(start) = line.find("from '").or_else(|| line.find("import('")) else {
                    continue;
                };
                let rest = &line[start..];
                let quote = rest.find('\'').unwrap() + 1;
                let spec = &rest[quote..quote + rest[quote..].find('\'').unwrap()];
                let mut target = dir.to_path_buf();
                for part in spec.split('/') {
                    match part {
                        "." => {}
                        ".." => {
                            let _ = target.pop();
                        }
                        _ => target.push(part),
                    }
                }
                let target = target.to_string_lossy().replace('\\', "/");
                assert!(
                    ASSETS.iter().any(|a| a.path == target),
                    "{} imports {spec}, which is not embedded",
                    asset.path
                );
            }
        }
    }
}
