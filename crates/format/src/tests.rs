use proptest::prelude::*;

use super::*;

fn err(input: &[u8]) -> ParseError {
    parse_dlx(input).expect_err("input must be rejected")
}

fn at(e: &ParseError) -> (usize, usize) {
    (e.line, e.column)
}

/// Where `input` is rejected for a bad token of kind `what` ("bounds" or "cost"), and why.
fn bad_token(input: &[u8], what: &str) -> (usize, usize, &'static str) {
    let e = err(input);
    let (kind, reason) = match e.kind {
        ParseErrorKind::BadBounds { reason, .. } => ("bounds", reason),
        ParseErrorKind::BadCost { reason, .. } => ("cost", reason),
        _ => panic!("{e}"),
    };
    assert_eq!(kind, what, "{e}");
    (e.line, e.column, reason)
}

#[test]
fn toy_problem_and_comments() {
    let text = "| comment\n\na b c d e f g\n| another\nc e\na d g\nb c f\na d f\nb g\nd e g\n";
    let doc = parse_dlx(text.as_bytes()).unwrap();
    assert_eq!(doc.problem.item_count(), 7);
    assert_eq!(doc.problem.option_count(), 6);
    assert_eq!(doc.labels[1], "a d g");
    assert_eq!(doc.lines, [5, 6, 7, 8, 9, 10]);
}

#[test]
fn secondary_items_and_colors() {
    let doc = parse_dlx(b"a b | x y\na x:red\nb x:red y\n").unwrap();
    let p = &doc.problem;
    assert_eq!(p.primary_count(), 2);
    assert_eq!(p.color_count(), 1);
    assert_eq!(p.option_text(OptionId::new(0).unwrap()), "a x:red");
}

#[test]
fn errors_name_line_and_column() {
    assert_eq!(at(&err(b"a b\na z\n")), (2, 3));
    assert_eq!(err(b"a b\na z\n").kind, ParseErrorKind::UnknownItem("z".into()));
    assert_eq!(at(&err(b"a b\na a\n")), (2, 3));
    assert!(matches!(
        err(b"a b\na a\n").kind,
        ParseErrorKind::Build(BuildError::RepeatedItem { .. })
    ));
    assert_eq!(at(&err(b"a | x\n x:c a:c\n")), (2, 6));
    assert!(matches!(
        err(b"a | x\na:c\n").kind,
        ParseErrorKind::Build(BuildError::ColorOnPrimary { .. })
    ));
    assert_eq!(err(b"a | x\na x:\n").kind, ParseErrorKind::BadColor("x:".into()));
    assert_eq!(err(b"a | x\na :c\n").kind, ParseErrorKind::BadColor(":c".into()));
    assert_eq!(at(&err(b"a | x\na\nx\n")), (3, 1));
    assert!(matches!(
        err(b"a | x\nx\n").kind,
        ParseErrorKind::Build(BuildError::NoPrimaryItem { .. })
    ));
    assert_eq!(
        err(b"a a\n").kind,
        ParseErrorKind::Build(BuildError::DuplicateItem { name: "a".into() })
    );
    assert_eq!(at(&err(b"a | b | c\n")), (1, 7));
    assert_eq!(err(b"| x\n").kind, ParseErrorKind::Empty);
    assert_eq!(err(b" | x\n").kind, ParseErrorKind::Empty, "a line starting with | is a comment");
    assert_eq!(
        err(b"a b:c\n").kind,
        ParseErrorKind::Build(BuildError::InvalidName {
            name: "b:c".into(),
            reason: "a name cannot contain `:`"
        })
    );
}

#[test]
fn hostile_inputs_give_errors() {
    assert_eq!(err(b"").kind, ParseErrorKind::Empty);
    assert_eq!(err(b"\n\n  \n").kind, ParseErrorKind::Empty);
    // Invalid UTF-8 on line 2, after "a é" (3 characters).
    let e = err(b"a b\na \xc3\xa9\xff b\n");
    assert_eq!((e.line, e.column, e.kind), (2, 4, ParseErrorKind::InvalidUtf8));
    // A 1 MB line.
    let mut long = vec![b'a'; 1 << 20];
    long.push(b'\n');
    assert_eq!(err(&long).kind, ParseErrorKind::LineTooLong(512 * 1024));
    // A million items, spread over a line that fits the line limit of a larger configuration.
    let names: Vec<String> = (0..1_000_000).map(|k| format!("i{k}")).collect();
    let text = names.join(" ");
    let limits = Limits { max_line_bytes: 16 << 20, ..Limits::default() };
    let e = parse_dlx_with(text.as_bytes(), &limits).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::TooManyItems(100_000));
    // Nothing panics on arbitrary bytes (a few fixed nasty ones).
    for input in [&b"\xff"[..], b"|", b":", b"a\n:", b"a\n\xe2\x82", b"a | \n a", b"a\r\na\r\n"] {
        let _ = parse_dlx(input);
        let _ = parse_matrix(input);
        let _ = parse_auto(input);
    }
}

#[test]
fn parse_auto_with_applies_the_limits_to_either_format() {
    // A header of 10 bytes announces 95,000 columns; under a limit of 5,000 items it is
    // refused before any item is declared (the fuzz targets parse under such a limit).
    let limits = Limits { max_items: 5_000, ..Limits::default() };
    let e = parse_auto_with(b"2 95000\n1\n", &limits).unwrap_err();
    assert_eq!((e.line, e.column), (1, 3));
    let ParseErrorKind::Unread { looks: Looks::Matrix, error, dlx: Some(_) } = e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(*error, ParseErrorKind::TooManyItems(5_000));
    assert_eq!(parse_matrix(b"0 95000\n").unwrap().problem.item_count(), 95_000);
    let limits = Limits { max_items: 2, ..Limits::default() };
    let e = parse_auto_with(b"a b c\na\n", &limits).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::TooManyItems(2));
    assert_eq!(parse_auto_with(b"a b\na\n", &limits).unwrap().1, InputFormat::Dlx);
}

#[test]
fn matrix_format() {
    let text = "6 7\n0 0 1 0 1 1 0\n1 0 0 1 0 0 1\n0 1 1 0 0 1 0\n1 0 0 1 0 0 0\n0 1 0 0 0 0 1\n0 0 0 1 1 0 1\n";
    assert_eq!(detect(text.as_bytes()), InputFormat::Matrix);
    let (doc, format) = parse_auto(text.as_bytes()).unwrap();
    assert_eq!(format, InputFormat::Matrix);
    assert_eq!(doc.problem.item_count(), 7);
    assert_eq!(doc.problem.option_count(), 6);
    assert_eq!(doc.label(OptionId::new(3).unwrap()), "4");
    // Packed rows, and a row of zeros left out.
    let doc = parse_matrix(b"3 2\n10\n00\n01\n").unwrap();
    assert_eq!(doc.labels, ["1", "3"]);
    assert_eq!(doc.input_index, [0, 2]);
    let e = parse_matrix(b"2 2\n1 0\n1 2\n").unwrap_err();
    assert_eq!((e.line, e.column), (3, 3));
    let e = parse_matrix(b"2 2\n1 0\n").unwrap_err();
    assert!(e.to_string().contains("expected 2 rows, found 1"), "{e}");
    let e = parse_matrix(b"1 2\n1\n").unwrap_err();
    assert!(e.to_string().contains("has 1 values, expected 2"), "{e}");
    let e = parse_matrix(b"1 2\n1 1 1\n").unwrap_err();
    assert!(e.to_string().contains("more than 2 values"), "{e}");
    let e = parse_matrix(b"x 2\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    assert_eq!(detect(b"a b c\nab\n"), InputFormat::Dlx);
}

#[test]
fn writing_back_parses_to_the_same_problem() {
    let text = "a b c | x y\na x:red\nb x:red y\nc y\n";
    let doc = parse_dlx(text.as_bytes()).unwrap();
    let again = parse_dlx(write_dlx(&doc.problem).as_bytes()).unwrap();
    assert_eq!(again.problem, doc.problem);
}

proptest! {
    #[test]
    fn round_trip(raw in dancecard_testkit::raw_problem(true)) {
        let doc = parse_dlx(raw.to_dlx().as_bytes()).unwrap();
        let written = write_dlx(&doc.problem);
        let again = parse_dlx(written.as_bytes()).unwrap();
        prop_assert_eq!(&again.problem, &doc.problem);
        prop_assert_eq!(write_dlx(&again.problem), written);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse_dlx(&bytes);
        let _ = parse_matrix(&bytes);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[ab|: x\n\r0-9é]{0,80}") {
        let _ = parse_dlx(text.as_bytes());
        let _ = parse_auto(text.as_bytes());
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let doc = parse_dlx(b"\xEF\xBB\xBFa b\na\nb\n").unwrap();
    assert_eq!(doc.problem.item_count(), 2);
    assert_eq!(doc.labels, ["a", "b"]);
    assert_eq!(detect(b"\xEF\xBB\xBF2 2\n1 0\n0 1\n"), InputFormat::Matrix);
    let (doc, format) = parse_auto(b"\xEF\xBB\xBF2 2\n1 0\n0 1\n").unwrap();
    assert_eq!((doc.problem.option_count(), format), (2, InputFormat::Matrix));
    // Columns of line 1 count from after the mark.
    assert_eq!(at(&err(b"\xEF\xBB\xBFa a\n")), (1, 3));
}

#[test]
fn numbered_items_that_do_not_make_a_matrix_are_dlx() {
    let (doc, format) = parse_auto(b"1 2\n1\n2\n").unwrap();
    assert_eq!((format, doc.labels.clone()), (InputFormat::Dlx, vec!["1".to_owned(), "2".into()]));
    let (_, format) = parse_auto(b"2 2\n1 0\n0 1\n").unwrap();
    assert_eq!(format, InputFormat::Matrix);
    // Neither: the matrix's error, which the first line announced.
    let e = parse_auto(b"2 2\n1 0\n").unwrap_err();
    assert!(e.to_string().contains("row"), "{e}");
}

#[test]
fn bounds_on_the_item_line() {
    // DLX3's syntax: `a:b|name`, `b|name` for `b:b`; plain names are 1:1.
    let doc = parse_dlx(b"2|a 0:3|b c | x\na b\nb c x\n").unwrap();
    let p = &doc.problem;
    let id = |name| p.find_item(name).unwrap();
    assert_eq!(p.item_bounds(id("a")), Some((2, 2)));
    assert_eq!(p.item_bounds(id("b")), Some((0, 3)));
    assert_eq!(p.item_bounds(id("c")), Some((1, 1)));
    assert_eq!(p.item_bounds(id("x")), None);
    assert!(p.has_bounds());
    // `1|a` and `1:1|a` are plain items: no bounds at all.
    assert!(!parse_dlx(b"1|a 1:1|b\na b\n").unwrap().problem.has_bounds());
    // `|` glued to the first secondary item, as Knuth's programs read it.
    let doc = parse_dlx(b"a |x y\na x\n").unwrap();
    assert_eq!((doc.problem.primary_count(), doc.problem.item_count()), (1, 3));
}

#[test]
fn bad_bounds_name_line_and_column() {
    let bad = |input: &[u8]| bad_token(input, "bounds");
    assert_eq!(bad(b"| c\na q:2|x\n"), (2, 3, "expected a decimal bound"));
    assert_eq!(bad(b"a 2:|x\n"), (1, 5, "expected a decimal bound"));
    assert_eq!(bad(b"1x|y\n"), (1, 2, "expected a decimal bound"));
    assert_eq!(bad(b"99999999999|y\n"), (1, 1, "a bound larger than 2^32 - 1"));
    let e = err(b"a 0|y\n");
    assert_eq!(at(&e), (1, 3));
    assert!(matches!(
        e.kind,
        ParseErrorKind::Build(BuildError::InvalidBounds { lo: 0, hi: 0, .. })
    ));
    let e = err(b"a 3:2|y\n");
    assert_eq!(
        e.to_string(),
        "line 1, column 3: bounds 3:2 of item `y`: the lower bound exceeds the upper bound"
    );
    let e = err(b"a | x 2|y\n");
    assert_eq!(at(&e), (1, 7));
    assert_eq!(e.kind, ParseErrorKind::Build(BuildError::BoundsOnSecondary { item: "y".into() }));
    let e = err(b"a 2|y|z\n");
    assert_eq!(at(&e), (1, 5));
    assert!(matches!(e.kind, ParseErrorKind::Build(BuildError::InvalidName { .. })));
    let e = err(b"2|a 2|a\n");
    assert_eq!(
        (at(&e), e.kind),
        ((1, 7), ParseErrorKind::Build(BuildError::DuplicateItem { name: "a".into() }))
    );
}

#[test]
fn costs_on_options() {
    // DLX5's syntax: `|n` after the items; several add up.
    let doc = parse_dlx(b"a b c\na b |3 |4\nc |0\nb c |2\n").unwrap();
    let p = &doc.problem;
    let cost = |k| p.option_cost(OptionId::new(k).unwrap());
    assert_eq!((cost(0), cost(1), cost(2)), (7, 0, 2));
    assert_eq!(p.option_text(OptionId::new(2).unwrap()), "b c");
    assert_eq!(doc.labels[0], "a b |3 |4");
    assert!(p.has_costs());
    assert!(!parse_dlx(b"a\na |0\n").unwrap().problem.has_costs());
    // An item after the cost (#46): `a |3 b` is no option {a, b} of cost 3.
    let e = err(b"a b\na |3 b\n");
    assert_eq!(
        e.to_string(),
        "line 2, column 6: item `b` after the option's cost `|3`: the cost comes last"
    );
    let bad = |input: &[u8]| bad_token(input, "cost");
    assert_eq!(bad(b"a\na |x\n"), (2, 4, "expected a decimal number after `|`"));
    assert_eq!(bad(b"a\na |\n"), (2, 3, "expected a decimal number after `|`"));
    assert_eq!(bad(b"a\na |12z\n"), (2, 6, "expected a decimal number after `|`"));
    assert_eq!(bad(b"a\na |99999999999999999999\n"), (2, 4, "larger than 2^64 - 1"));
    assert_eq!(
        bad(b"a\na |18446744073709551615 |1\n"),
        (2, 25, "the option's costs add up past 2^64 - 1")
    );
    // Costs of all options must add up within 64 bits too.
    let e = err(b"a\na |18446744073709551615\na |1\n");
    assert_eq!(
        (at(&e), e.kind),
        ((3, 1), ParseErrorKind::Build(BuildError::CostOverflow { max: u64::MAX }))
    );
}

#[test]
fn bounds_and_costs_are_written_back() {
    let text = "2|a 0:3|b c | x\na b |5\nb c x |1 |1\nc\n";
    let doc = parse_dlx(text.as_bytes()).unwrap();
    let written = write_dlx(&doc.problem);
    assert!(written.contains("2|a 0:3|b c | x\n"), "{written}");
    assert!(written.contains("a b |5\nb c x |2\nc\n"), "{written}");
    assert_eq!(parse_dlx(written.as_bytes()).unwrap().problem, doc.problem);
    for name in ["mult_a001499_6", "mult_queens_12_6", "cost_domino6x6", "cost_pent6x10"] {
        let path = format!("{}/../../testdata/instances/{name}.dlx", env!("CARGO_MANIFEST_DIR"));
        let doc = parse_dlx(&std::fs::read(&path).unwrap()).unwrap();
        let again = parse_dlx(write_dlx(&doc.problem).as_bytes()).unwrap();
        assert_eq!(again.problem, doc.problem, "{name}");
    }
}

proptest! {
    #[test]
    fn round_trip_with_bounds_and_costs(f in dancecard_testkit::family_problem(true, true)) {
        let doc = parse_dlx(f.to_dlx().as_bytes()).unwrap();
        let written = write_dlx(&doc.problem);
        let again = parse_dlx(written.as_bytes()).unwrap();
        prop_assert_eq!(&again.problem, &doc.problem);
        prop_assert_eq!(write_dlx(&again.problem), written);
        for (k, &cost) in f.costs.iter().enumerate() {
            prop_assert_eq!(doc.problem.option_cost(OptionId::new(k).unwrap()), cost);
        }
    }
}

#[test]
fn ec_files_parse_and_are_detected() {
    let text = "c n = 3\np ec 3\ns 1 2\nc between\n\ns 3\r\ns 1  2 3 \n";
    assert_eq!(detect(text.as_bytes()), InputFormat::Ec);
    let (doc, format) = parse_auto(text.as_bytes()).unwrap();
    assert_eq!(format, InputFormat::Ec);
    assert_eq!(doc.labels, ["1 2", "3", "1  2 3"]);
    assert_eq!(doc.lines, [3, 6, 7]);
    assert_eq!(doc.problem.item_count(), 3);
    assert_eq!(doc.problem.item_name(doc.problem.items().next().unwrap()), "1");
    let same = parse_ec(text.as_bytes()).unwrap();
    assert_eq!(same.labels, doc.labels);
    // An empty problem: items, no options.
    assert_eq!(parse_ec(b"p ec 2\n").unwrap().problem.option_count(), 0);
}

#[test]
fn ec_errors_name_their_place() {
    let cases: &[(&str, &str)] = &[
        ("", "line 1, column 1: empty input: expected a line `p ec N`"),
        ("c only\n", "line 2, column 1: empty input: expected a line `p ec N`"),
        ("p ec\ns 1\n", "line 1, column 1: expected `p ec N` (N the number of items)"),
        ("p cnf 3 1\n", "line 1, column 3: expected `p ec N` (N the number of items)"),
        ("p ec x\n", "line 1, column 6: expected the number of items, found `x`"),
        ("p ec 0\n", "line 1, column 6: no primary item before `|`"),
        ("p ec 3\ns 1 0\n", "line 2, column 5: expected an item number from 1 to 3, found `0`"),
        ("p ec 3\ns 1 4\n", "line 2, column 5: expected an item number from 1 to 3, found `4`"),
        ("p ec 3\ns -1\n", "line 2, column 3: expected an item number from 1 to 3, found `-1`"),
        ("p ec 3\ns\n", "line 2, column 2: an option with no item"),
        ("p ec 3\nx 1\n", "line 2, column 1: expected `s` and an option's items, found `x`"),
        ("p ec 3\np ec 3\n", "line 2, column 1: a second `p` line (the first is line 1)"),
    ];
    for (text, expected) in cases {
        let e = parse_ec(text.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), *expected, "{text:?}");
    }
    // An item twice in an option: the builder's error, at the option's first item.
    let e = parse_ec(b"p ec 3\ns 2 2\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3), "{e}");
    let limits = Limits { max_items: 5, max_options: 1, max_entries: 3, ..Limits::default() };
    let e = parse_ec_with(b"p ec 6\n", &limits).unwrap_err();
    assert_eq!(e.to_string(), "line 1, column 6: more than 5 items");
    let e = parse_ec_with(b"p ec 5\ns 1\ns 2\n", &limits).unwrap_err();
    assert_eq!(e.to_string(), "line 3, column 1: more than 1 options");
    let e = parse_ec_with(b"p ec 5\ns 1 2 3 4\n", &limits).unwrap_err();
    assert_eq!(e.to_string(), "line 2, column 9: more than 3 entries");
}

#[test]
fn ec_looking_dlx_is_dlx() {
    // A DLX file whose items are `p`, `ec` and `3`: not .ec (its option is not `s ...`), so
    // parse_auto reads it as DLX; the error of a file that is neither is the .ec parser's.
    let text = b"p ec 3\np 3\n";
    assert_eq!(detect(text), InputFormat::Ec);
    let (doc, format) = parse_auto(text).unwrap();
    assert_eq!((format, doc.labels.clone()), (InputFormat::Dlx, vec!["p 3".to_owned()]));
    let e = parse_auto(b"p ec 3\ns 9\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 3: expected an item number from 1 to 3, found `9` (read as .ec, as its \
         first line `p ec` says; read as DLX: line 2, column 1: unknown item `s`)"
    );
    // `c` lines are not comments in DLX: a DLX file starting with item `c` stays DLX.
    assert_eq!(detect(b"c d e\nc d\ne\n"), InputFormat::Dlx);
}

/// A file in no format says what it looks like, where that format fails, and how DLX fails
/// too (#46).
#[test]
fn a_file_in_no_format_says_what_it_looks_like() {
    let puzzles = b"# three puzzles\n..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    assert_eq!(sniff(puzzles), Looks::Sudoku);
    let e = parse_auto(puzzles).unwrap_err();
    assert_eq!(e.looks(), Some(Looks::Sudoku));
    assert!(
        e.to_string().ends_with(
            "(read as DLX; the input looks like sudoku puzzles, not an exact cover problem)"
        ),
        "{e}"
    );
    // Grids of numbers: as many rows as numbers in a row.
    let grid: String = (0..9).map(|_| "5 3 0 0 7 0 0 0 0\n").collect();
    assert_eq!(sniff(grid.as_bytes()), Looks::Sudoku);
    assert_eq!(sniff(b"1 2 3 4 5 6 7 8 9\n1 2\n"), Looks::Dlx);
    // `.ec` with a bad count, a matrix with a 2: their own errors first, then DLX's.
    let e = parse_auto(b"p ec x\ns 1 2\n").unwrap_err();
    assert_eq!((e.line, e.column, e.looks()), (1, 6, Some(Looks::Ec)));
    assert!(e.to_string().contains("expected the number of items, found `x` (read as .ec"), "{e}");
    assert!(e.to_string().contains("read as DLX: line 2, column 1: unknown item `s`"), "{e}");
    let e = parse_auto(b"3 3\n1 0 2\n0 1 0\n0 0 1\n").unwrap_err();
    assert_eq!((e.line, e.column, e.looks()), (2, 5, Some(Looks::Matrix)));
    assert!(e.to_string().contains("expected 0 or 1, found `2` (read as a 0/1 matrix"), "{e}");
    // A DLX file is a DLX file: its error alone.
    let e = parse_auto(b"a b\na z\n").unwrap_err();
    assert_eq!((e.looks(), e.to_string().as_str()), (None, "line 2, column 3: unknown item `z`"));
}

/// Control characters in a name are escaped in messages (#46).
#[test]
fn names_in_messages_escape_control_characters() {
    assert_eq!(err(b"a b\na\0z b\n").to_string(), "line 2, column 1: unknown item `a\\0z`");
    assert_eq!(
        err(b"a a\x1b\na\x1b a\x1b\n").to_string(),
        "line 2, column 4: option 0 holds item `a\\u{1b}` twice"
    );
    assert_eq!(
        err(b"q\0 q\0\n").to_string(),
        "line 1, column 4: item name `q\\0` is declared twice"
    );
}
