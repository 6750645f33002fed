//! The text formats of `dancecard-format`: Knuth's DLX format, 0/1 matrices, and the detection
//! between them.

use dancecard_format::{
    detect, parse_auto_with, parse_dlx_with, parse_ec_with, parse_matrix_with, sniff, Document,
    InputFormat, Limits, Looks, ParseError, ParseErrorKind,
};
use dancecard_search::cover;

use crate::oracle::{self, Knobs};

/// The parsers' limits while fuzzing: the defaults, but at most 1,000 items. A matrix header
/// of a few bytes can announce 100,000 columns, and declaring that many items takes half a
/// second in the fuzz build (AddressSanitizer makes every allocation slow); the code is the
/// same under any limit, and the limit's own error is reached with fewer items.
fn limits() -> Limits {
    Limits { max_items: 1_000, ..Limits::default() }
}

/// Knuth's DLX format: [`dancecard_format::parse_dlx`] on the bytes as they are.
///
/// An error names a line and a column inside the input; a parsed document is consistent
/// (one label, input index and line per option), survives [`dancecard_format::write_dlx`] and
/// a second parse unchanged, and is solved: against the brute-force oracle when small, under a
/// node limit otherwise, and as a minimum repeat cover (`dancecard min-cover`).
pub fn dlx(data: &[u8]) {
    match parse_dlx_with(data, &limits()) {
        Ok(doc) => check_document(data, &doc),
        Err(e) => check_error(data, &e),
    }
}

/// 0/1 matrices: [`dancecard_format::parse_matrix`] on the bytes as they are, with the
/// checks of [`dlx`];
/// besides, the options are the non-zero rows in order, labelled by their row numbers.
pub fn matrix(data: &[u8]) {
    match parse_matrix_with(data, &limits()) {
        Ok(doc) => {
            for (k, &row) in doc.input_index.iter().enumerate() {
                assert_eq!(doc.labels[k], (row + 1).to_string(), "a matrix label is its row");
                assert!(k == 0 || doc.input_index[k - 1] < row, "rows are in order");
            }
            for item in doc.problem.items() {
                let name = doc.problem.item_name(item);
                assert_eq!(name, (item.index() + 1).to_string(), "matrix items are 1..=m");
            }
            check_document(data, &doc);
        }
        Err(e) => check_error(data, &e),
    }
}

/// [`dancecard_format::parse_auto`]: the format it reports is the one [`detect`] names, or
/// DLX when a matrix- or `.ec`-looking input reads as DLX only; its document is the one that
/// format's parser gives; its error is the error of the format detected, with what the input
/// looks like ([`sniff`]) and DLX's error when it looks like something else. A `.ec` document
/// is checked as the others are.
pub fn auto(data: &[u8]) {
    let detected = detect(data);
    let dlx = parse_dlx_with(data, &limits());
    let matrix = parse_matrix_with(data, &limits());
    let ec = parse_ec_with(data, &limits());
    match &ec {
        Ok(doc) => {
            for item in doc.problem.items() {
                let name = doc.problem.item_name(item);
                assert_eq!(name, (item.index() + 1).to_string(), ".ec items are 1..=N");
            }
            check_document(data, doc);
        }
        Err(e) => check_error(data, e),
    }
    match parse_auto_with(data, &limits()) {
        Ok((doc, format)) => {
            let direct = match format {
                InputFormat::Dlx => {
                    assert!(
                        detected == InputFormat::Dlx
                            || (detected == InputFormat::Matrix && matrix.is_err())
                            || (detected == InputFormat::Ec && ec.is_err()),
                        "DLX reported for a matrix or .ec input that parses"
                    );
                    dlx.as_ref()
                }
                InputFormat::Matrix => {
                    assert_eq!(detected, InputFormat::Matrix, "matrix reported, not detected");
                    matrix.as_ref()
                }
                InputFormat::Ec => {
                    assert_eq!(detected, InputFormat::Ec, ".ec reported, not detected");
                    ec.as_ref()
                }
            };
            let direct = direct.unwrap_or_else(|e| panic!("parse_auto accepts, {format:?}: {e}"));
            oracle::assert_same_problem(&doc.problem, &direct.problem);
            assert_eq!(doc.labels, direct.labels);
        }
        Err(e) => {
            check_error(data, &e);
            // The error of the format detected, at its place; wrapped with what the input
            // looks like (and DLX's error after another format's) unless it looks like DLX.
            let own = match detected {
                InputFormat::Dlx => dlx.as_ref().err(),
                InputFormat::Matrix => matrix.as_ref().err(),
                InputFormat::Ec => ec.as_ref().err(),
            };
            let own = own.expect("parse_auto fails where the detected format's parser fails");
            assert_eq!((e.line, e.column), (own.line, own.column), "the detected format's place");
            match (&e.kind, sniff(data)) {
                (_, Looks::Dlx) => assert_eq!(&e, own, "DLX's own error"),
                (ParseErrorKind::Unread { looks, error, dlx: also }, sniffed) => {
                    assert_eq!(*looks, sniffed);
                    assert_eq!(**error, own.kind);
                    let dlx_error = dlx.as_ref().err();
                    match detected {
                        InputFormat::Dlx => assert!(also.is_none(), "DLX's error twice"),
                        _ => assert_eq!(also.as_deref(), dlx_error, "DLX's error after the other"),
                    }
                }
                (kind, sniffed) => panic!("{sniffed:?} input, error not wrapped: {kind:?}"),
            }
        }
    }
}

/// An error points into the input: a line from 1 to one past the last, a column from 1.
fn check_error(data: &[u8], e: &ParseError) {
    let lines = data.split(|&b| b == b'\n').count();
    assert!(e.line >= 1 && e.line <= lines + 1, "error line {} of {lines}: {e}", e.line);
    assert!(e.column >= 1, "error column 0: {e}");
    assert!(!e.to_string().is_empty());
}

/// The checks of a parsed document: consistency, the round trip, and a search.
fn check_document(data: &[u8], doc: &Document) {
    let p = &doc.problem;
    let options = p.option_count();
    assert_eq!(doc.labels.len(), options, "one label per option");
    assert_eq!(doc.input_index.len(), options, "one input index per option");
    assert_eq!(doc.lines.len(), options, "one line per option");
    let lines = data.split(|&b| b == b'\n').count();
    assert!(doc.lines.iter().all(|&l| l >= 1 && l <= lines), "option lines inside the input");
    assert!(doc.lines.windows(2).all(|w| w[0] < w[1]), "option lines increase");
    // A few bytes can announce a matrix of 100,000 columns: such problems are only parsed
    // (the round trip and the searches would cost many times the parse).
    if p.item_count() + p.entry_count() > 20_000 {
        return;
    }
    oracle::check_round_trip(p);
    let seed = data.iter().fold(0u64, |h, &b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let knobs = Knobs { max_nodes: seed % 40, depth: (seed / 40 % 3) as usize };
    oracle::check_problem(p, knobs);
    check_min_cover(doc);
}

/// `dancecard min-cover`: the fewest options covering every primary item at least once,
/// found under a node limit, must cover them all.
fn check_min_cover(doc: &Document) {
    let p = &doc.problem;
    if p.entry_count() > 20_000 {
        return;
    }
    let mut index = vec![usize::MAX; p.item_count()];
    let mut items = 0;
    for item in p.items() {
        if p.item_kind(item) == dancecard_engine::ItemKind::Primary {
            index[item.index()] = items;
            items += 1;
        }
    }
    let options: Vec<Vec<usize>> = p
        .options()
        .map(|o| p.option(o).iter().map(|e| index[e.item.index()]).filter(|&i| i != usize::MAX))
        .map(Iterator::collect)
        .collect();
    let result =
        cover::min_cover(items, &options, &dancecard_search::Budget::new().max_nodes(2_000))
            .unwrap_or_else(|e| panic!("min_cover refuses a parsed problem: {e}"));
    if let Some(chosen) = &result.options {
        assert!(cover::covers(items, &options, chosen), "min_cover's answer is no cover");
        assert!(chosen.len() <= items, "a minimum cover needs at most one option per item");
    }
}
