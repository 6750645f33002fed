//! The JSON shapes of the answers. Stats, stop reasons and big counts are
//! [`dancecard_format::json`]'s, the vocabulary `dancecard --format json` writes too, so that
//! one client reads both.
//!
//! Small values are `serde_json::Value`s; what grows with the input (the problem's items and
//! options) is written straight into the [`Reply`], entry by entry.

use dancecard_engine::{Event, ItemKind, OptionId, Stop};
pub(crate) use dancecard_format::json::{count, stats};
use dancecard_format::Document;
use serde::Serialize;
use serde_json::{json, Value};

use super::reply::{Full, Reply};

/// The stop reason of an answer cut short by [`ServerConfig::max_reply_bytes`](crate::ServerConfig).
pub(crate) const REPLY_LIMIT: &str = "reply-limit";

/// A stop reason: [`Stop::name`].
pub(crate) fn stop_name(stop: Stop) -> &'static str {
    stop.name()
}

/// An option as the API numbers it: its index among the options of the input (from 0), as
/// `dancecard solve --format json` does.
pub(crate) fn option_index(doc: &Document, option: OptionId) -> usize {
    doc.input_index[option.index()]
}

/// An item as the page draws it.
#[derive(Serialize)]
struct ItemJson<'a> {
    name: &'a str,
    primary: bool,
}

/// An option as the page draws it.
#[derive(Serialize)]
struct OptionJson<'a> {
    index: usize,
    label: &'a str,
    items: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    colors: Option<Vec<Option<&'a str>>>,
}

/// Writes the problem as the page draws it, as the fields
/// `"items": [{"name", "primary"}], "options": [{"index", "label", "items", "colors"?}]`, or
/// `Full` if it does not fit in the reply.
///
/// Items are numbered in declaration order (their position in `items`); an option's `index`
/// is [`option_index`]; `colors` (present only when the problem has colors) gives each of the
/// option's items its color or `null`.
pub(crate) fn problem(reply: &mut Reply, doc: &Document) -> Result<(), Full> {
    let p = &doc.problem;
    let colored = p.has_colors();
    let mut items = reply.list("items")?;
    for i in p.items() {
        items.push(&ItemJson {
            name: p.item_name(i),
            primary: p.item_kind(i) == ItemKind::Primary,
        })?;
    }
    items.close();
    let mut options = reply.list("options")?;
    for o in p.options() {
        let entries = p.option(o);
        options.push(&OptionJson {
            index: option_index(doc, o),
            label: doc.label(o),
            items: entries.iter().map(|e| e.item.index()).collect(),
            colors: colored
                .then(|| entries.iter().map(|e| e.color.map(|c| p.color_name(c))).collect()),
        })?;
    }
    options.close();
    Ok(())
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

    fn problem_value(doc: &Document) -> Value {
        let mut reply = Reply::json(1 << 20);
        problem(&mut reply, doc).unwrap();
        serde_json::from_slice(&reply.finish().into_bytes()).unwrap()
    }

    #[test]
    fn matrix_rows_of_zeros_keep_their_input_index() {
        let doc = dancecard_format::parse_matrix(b"3 2\n1 0\n0 0\n0 1\n").unwrap();
        let value = problem_value(&doc);
        assert_eq!(value["options"][1]["index"], 2);
        assert_eq!(value["options"][1]["label"], "3");
        assert!(value["options"][0].get("colors").is_none());
    }

    #[test]
    fn a_problem_too_large_for_the_reply_is_full() {
        let mut reply = Reply::json(super::super::reply::TAIL_ROOM + 60);
        assert_eq!(problem(&mut reply, &doc()), Err(Full));
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
        assert_eq!(count(7u128), json!(7));
        assert_eq!(count(u128::from(u64::MAX) + 1), json!("18446744073709551616"));
    }
}
