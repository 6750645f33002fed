//! The capability table of `docs/capabilities.md` is the gate's (`dancecard_engine::gate`):
//! every method and feature, with the same verdict; and the gate's refusals name the method,
//! the feature and the place.

use dancecard_engine::gate::{self, supports, Feature, Method};
use dancecard_engine::ProblemBuilder;

/// The rows of the table in `docs/capabilities.md`: the method's name and its cells.
fn table() -> Vec<(String, Vec<String>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/capabilities.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().skip_while(|l| !l.starts_with("| method |"));
    let header: Vec<String> = cells(lines.next().expect("the table's header"));
    let features: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(header[1..], features, "the table's columns are the features, in order");
    let _ = lines.next(); // `| --- | ...`
    lines
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let c = cells(l);
            (c[0].clone(), c[1..].to_vec())
        })
        .collect()
}

fn cells(line: &str) -> Vec<String> {
    line.trim().trim_matches('|').split('|').map(|c| c.trim().to_owned()).collect()
}

#[test]
fn the_documented_table_is_the_gate() {
    let rows = table();
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let methods: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    assert_eq!(names, methods, "the table's rows are the methods, in order");
    for ((_, row), method) in rows.iter().zip(Method::ALL) {
        for (cell, feature) in row.iter().zip(Feature::ALL) {
            let documented = cell.starts_with("yes");
            assert_eq!(documented, supports(method, feature), "{method} x {feature}: `{cell}`");
            assert!(cell == "yes" || cell == "no" || cell == "yes (ignored)", "{cell}");
            // Only costs are ever ignored, and only by methods that count or search.
            if cell == "yes (ignored)" {
                assert_eq!(feature, Feature::Costs, "{method}: only costs are ignored");
            }
        }
    }
}

#[test]
fn refusals_name_the_method_the_feature_and_the_place() {
    let mut b = ProblemBuilder::new();
    let a = b.primary("a").unwrap();
    let c = b.primary_with_bounds("c", 0, 3).unwrap();
    let x = b.secondary("x").unwrap();
    let red = b.color("red").unwrap();
    b.option_with_cost(
        [dancecard_engine::Entry::plain(a), dancecard_engine::Entry::colored(x, red)],
        4,
    )
    .unwrap();
    b.option([c]).unwrap();
    let p = b.build();
    for method in Method::ALL {
        let verdict = gate::check(&p, method);
        let refuses = Feature::ALL.iter().any(|&f| !supports(method, f));
        assert_eq!(verdict.is_err(), refuses, "{method}");
        if let Err(u) = verdict {
            assert_eq!(u.method, method);
            assert!(!supports(method, u.feature));
            // The first feature of the table's order that the method does not handle.
            let place = match u.feature {
                Feature::Colors => "colors (option 0 (`a x:red`) has colors)",
                _ => "multiplicities (item `c` has bounds 0:3)",
            };
            assert_eq!(u.to_string(), format!("{method} does not handle {place}"));
        }
    }
    // The places of every feature.
    assert_eq!(Feature::Secondary.find(&p).as_deref(), Some("item `x` is secondary"));
    assert_eq!(Feature::Colors.find(&p).as_deref(), Some("option 0 (`a x:red`) has colors"));
    assert_eq!(Feature::Costs.find(&p).as_deref(), Some("option 0 (`a x:red`) costs 4"));
    assert_eq!(Feature::Multiplicities.find(&p).as_deref(), Some("item `c` has bounds 0:3"));
    // A plain problem has none, and every method takes it.
    let mut b = ProblemBuilder::new();
    let a = b.primary("a").unwrap();
    b.option([a]).unwrap();
    let plain = b.build();
    for feature in Feature::ALL {
        assert_eq!(feature.find(&plain), None, "{feature}");
    }
    for method in Method::ALL {
        assert!(gate::check(&plain, method).is_ok(), "{method}");
    }
}
