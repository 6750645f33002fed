//! The JSON shapes of the answers. Stats, stop reasons and big counts are written exactly as
//! `dancecard solve --format json` writes them, so that one client reads both.

use dancecard_engine::{Event, ItemKind, OptionId, Stats, Stop};
use dancecard_format::Document;
use serde_json::{json, Value};

/// `{"nodes": N, "updates": N, "solutions": N, "seconds": S}`.
pub(crate) fn stats(stats: &Stats) -> Value {
    json!({
        "nodes": stats.nodes,
        "updates": stats.updates,
        "solutions": count(stats.solutions),
        "seconds": stats.elapsed.as_secs_f64(),
    })
}

/// A count as a JSON number when it fits in `u64`, else as a decimal string (JSON numbers
/// past 2^64 are not portable).
pub(crate) fn count(n: u128) -> Value {
    match u64::try_from(n) {
        Ok(n) => Value::from(n),
        Err(_) => Value::from(n.to_string()),
    }
}

/// A stop reason: `exhausted`, `solution-limit`, `node-limit`, `time-limit`, `cancelled` or
/// `visitor`.
pub(crate) fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Exhausted => "exhausted",
        Stop::SolutionLimit => "solution-limit",
        Stop::NodeLimit => "node-limit",
        Stop::TimeLimit => "time-limit",
        Stop::Cancelled => "cancelled",
        Stop::Visitor => "visitor",
    }
}

/// An option as the API numbers it: its index among the options of the input (from 0), as
/// `dancecard solve --format json` does.
pub(crate) fn option_index(doc: &Document, option: OptionId) -> usize {
    doc.input_index[option.index()]
}

/// The problem as the page draws it:
/// `{"items": [{"name", "primary"}], "options": [{"index", "label", "items", "colors"?}]}`.
///
/// Items are numbered in declaration order (their position in `items`); an option's `index`
/// is [`option_index`]; `colors` (present only when the problem has colors) gives each of the
/// option's items its color or `null`.
pub(crate) fn problem(doc: &Document) -> Value {
    let p = &doc.problem;
    let colored = p.has_colors();
    let items: Vec<Value> = p
        .items()
        .map(|i| json!({ "name": p.item_name(i), "primary": p.item_kind(i) == ItemKind::Primary }))
        .collect();
    let options: Vec<Value> = p
        .options()
        .map(|o| {
            let entries = p.option(o);
            let mut option = json!({
                "index": option_index(doc, o),
                "label": doc.label(o),
                "items": entries.iter().map(|e| e.item.index()).collect::<Vec<_>>(),
            });
            if colored {
                option["colors"] =
                    entries.iter().map(|e| e.color.map(|c| p.color_name(c))).collect();
            }
            option
        })
        .collect();
    json!({ "items": items, "options": options })
}

/// One event of a trace, with the node count when it happened:
/// `{"event": "choose", "level": 0, "item": 3, "name": "D", "len": 2, "nodes": 1}`.
pub(crate) fn event(doc: &Document, event: &Event, nodes: u64) -> Value {
    let p = &doc.problem;
    let mut value = match *event {
        Event::Enter { level } => json!({ "event": "enter", "level": level }),
        Event::Choose { level, item, len } => json!({
            "event": "choose", "level": level, "item": item.index(), "name": p.item_name(item),
            "len": len,
        }),
        Event::Cover { item } => {
            json!({ "event": "cover", "item": item.index(), "name": p.item_name(item) })
        }
        Event::Uncover { item } => {
            json!({ "event": "uncover", "item": item.index(), "name": p.item_name(item) })
        }
        Event::Try { level, option } => {
            json!({ "event": "try", "level": level, "option": option_index(doc, option) })
        }
        Event::Untry { level, option } => {
            json!({ "event": "untry", "level": level, "option": option_index(doc, option) })
        }
        Event::Solution { level } => json!({ "event": "solution", "level": level }),
        Event::Backtrack { level } => json!({ "event": "backtrack", "level": level }),
    };
    value["nodes"] = Value::from(nodes);
    value
}

#[cfg(test)]
mod tests {
    use dancecard_engine::{ItemId, OptionId};

    use super::*;

    fn doc() -> Document {
        dancecard_format::parse_dlx(b"a b | x\na x:red\nb\nb x:blue\n").unwrap()
    }

    #[test]
    fn problem_lists_items_options_and_colors() {
        let value = problem(&doc());
        assert_eq!(
            value,
            json!({
                "items": [
                    {"name": "a", "primary": true},
                    {"name": "b", "primary": true},
                    {"name": "x", "primary": false},
                ],
                "options": [
                    {"index": 0, "label": "a x:red", "items": [0, 2], "colors": [null, "red"]},
                    {"index": 1, "label": "b", "items": [1], "colors": [null]},
                    {"index": 2, "label": "b x:blue", "items": [1, 2], "colors": [null, "blue"]},
                ],
            })
        );
    }

    #[test]
    fn matrix_rows_of_zeros_keep_their_input_index() {
        let doc = dancecard_format::parse_matrix(b"3 2\n1 0\n0 0\n0 1\n").unwrap();
        let value = problem(&doc);
        assert_eq!(value["options"][1]["index"], 2);
        assert_eq!(value["options"][1]["label"], "3");
        assert!(value["options"][0].get("colors").is_none());
    }

    #[test]
    fn events_name_items_and_number_options_as_the_input_does() {
        let doc = doc();
        let item = ItemId::new(1).unwrap();
        let option = OptionId::new(1).unwrap();
        assert_eq!(
            event(&doc, &Event::Choose { level: 0, item, len: 1 }, 1),
            json!({"event": "choose", "level": 0, "item": 1, "name": "b", "len": 1, "nodes": 1})
        );
        assert_eq!(
            event(&doc, &Event::Try { level: 2, option }, 7),
            json!({"event": "try", "level": 2, "option": 1, "nodes": 7})
        );
        assert_eq!(
            event(&doc, &Event::Backtrack { level: 3 }, 9),
            json!({"event": "backtrack", "level": 3, "nodes": 9})
        );
    }

    #[test]
    fn counts_past_u64_are_strings() {
        assert_eq!(count(7), json!(7));
        assert_eq!(count(u128::from(u64::MAX) + 1), json!("18446744073709551616"));
    }
}
