//! The nonogram-givens tables of the report suite: per picture, formulation and engine,
//! the givens found and the bound proved (`nonogram-givens`); and per picture size, how
//! many givens the pictures need (`nonogram-givens_sizes`).

use crate::record::Record;
use crate::stats;
use crate::table::{secs, size_groups, Table, NO_FIGURE};
use std::collections::BTreeMap;

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows
        .iter()
        .filter(|r| r.puzzle == "nonogram-givens")
        .collect();
    if rows.is_empty() {
        return vec![];
    }
    vec![runs(&rows), sizes(&rows)]
}

fn whole(v: Option<f64>) -> String {
    v.map_or(NO_FIGURE.into(), |x| format!("{}", x.round() as i64))
}

/// Per picture, formulation and engine.
fn runs(rows: &[&Record]) -> Table {
    let body = size_groups(rows, |r| r.instance.as_str())
        .into_iter()
        .map(|((_, instance, _, f, b), rs)| {
            let last = rs[rs.len() - 1];
            let times: Vec<f64> = rs.iter().filter_map(|r| r.seconds).collect();
            let follower: Vec<f64> = rs.iter().filter_map(|r| r.separator_seconds).collect();
            let total: Vec<f64> = rs
                .iter()
                .map(|r| r.seconds.unwrap_or(0.0) + r.build_seconds.unwrap_or(0.0))
                .collect();
            let statuses: Vec<&str> = rs.iter().map(|r| r.status.as_str()).collect();
            let verified = rs.iter().filter(|r| r.verified == Some(true)).count();
            vec![
                instance.to_string(),
                last.size_label.clone(),
                f.to_string(),
                b,
                format!("{} ({verified}/{} verified)", statuses.join(", "), rs.len()),
                whole(last.objective),
                whole(last.best_bound),
                last.rounds.map_or(NO_FIGURE.into(), |r| r.to_string()),
                last.cuts.map_or(NO_FIGURE.into(), |r| r.to_string()),
                secs(stats::median(&times)),
                secs(stats::median(&follower)),
                secs(stats::median(&total)),
            ]
        })
        .collect();
    Table {
        stem: "nonogram-givens".into(),
        title: "Nonogram givens: fewest cells to show so that the picture is the only solution, by row generation (leader: hitting set on the engine; follower: CaDiCaL on Bosch's model)".into(),
        columns: [
            "picture",
            "size",
            "formulation",
            "backend",
            "status",
            "givens",
            "lower bound",
            "rounds",
            "rows added",
            "search (s)",
            "follower (s)",
            "with build (s)",
        ]
        .map(String::from)
        .to_vec(),
        labels: 4,
        rows: body,
        notes: vec![
            "givens: the fewest givens found (each a cell shown with the picture's colour); lower bound: the leader's proved bound (equal to givens when optimal). rounds: leader solves; rows added: unavoidable sets the follower found (the seeded sets are in the first model). search: the whole search (the follower's first round and, for rowgen, the seeding, then the loop of leader and follower); follower: its share; with build: search plus building the leader's model. Medians over repeats; givens, bound, rounds and rows are those of the last repeat.".into(),
            "The paper Nonokenken (section 3.3) asks how many givens a picture's clues need to determine it, and leaves it open.".into(),
        ],
    }
}

/// Per size: pictures, how many were proved, and the distribution of their minimum
/// givens (over the proved minima of any configuration).
fn sizes(rows: &[&Record]) -> Table {
    // The minimum of each picture: the objective of a run that proved it.
    let mut minimum: BTreeMap<(u64, String, String), Option<f64>> = BTreeMap::new();
    for r in rows {
        let key = (
            r.size.unwrap_or(0.0) as u64,
            r.size_label.clone(),
            r.instance.clone(),
        );
        let entry = minimum.entry(key).or_insert(None);
        if r.status == "optimal" && r.verified == Some(true) {
            *entry = r.objective;
        }
    }
    let mut by_size: BTreeMap<(u64, String), (usize, Vec<f64>)> = BTreeMap::new();
    for ((size, label, _), m) in minimum {
        let e = by_size.entry((size, label)).or_default();
        e.0 += 1;
        e.1.extend(m);
    }
    let body = by_size
        .into_iter()
        .map(|((_, label), (pictures, minima))| {
            let unique = minima.iter().filter(|&&m| m == 0.0).count();
            let fmt = |v: Option<f64>| v.map_or(NO_FIGURE.into(), |x| format!("{x:.2}"));
            vec![
                label,
                pictures.to_string(),
                minima.len().to_string(),
                unique.to_string(),
                fmt(stats::median(&minima)),
                fmt((!minima.is_empty()).then(|| minima.iter().sum::<f64>() / minima.len() as f64)),
                whole(minima.iter().copied().reduce(f64::max)),
            ]
        })
        .collect();
    Table {
        stem: "nonogram-givens_sizes".into(),
        title: "Nonogram givens by picture size: how many givens make a picture unique".into(),
        columns: [
            "size",
            "pictures",
            "proved",
            "unique without givens",
            "median givens",
            "mean givens",
            "most givens",
        ]
        .map(String::from)
        .to_vec(),
        labels: 1,
        rows: body,
        notes: vec![
            "Over the pictures whose minimum some run proved (optimal and verified); pictures: all pictures run at that size.".into(),
        ],
    }
}
