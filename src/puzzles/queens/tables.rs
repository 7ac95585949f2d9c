//! The n-Queens table of the report suite: per board (or least-walls target), formulation
//! and engine, the value found (most queens, or fewest walls), the optimal solutions
//! counted, and the times.

use crate::record::Record;
use crate::table::{count_range, size_groups, SizeFigures, Table, NO_FIGURE};

/// The known numbers of n-Queens placements without walls (OEIS A000170), which the
/// wall-free boards' counts must match: 92 for n = 8 and 724 for n = 10.
pub const KNOWN_COUNTS: [(usize, u64); 2] = [(8, 92), (10, 724)];

/// Every table this puzzle contributes for `rows` (the rows of all puzzles).
pub fn tables(rows: &[Record]) -> Vec<Table> {
    let rows: Vec<&Record> = rows.iter().filter(|r| r.puzzle == "queens").collect();
    if rows.is_empty() {
        return vec![];
    }
    // Boards by size, then instance (q09 before q10), formulation and engine.
    let body = size_groups(&rows, |r| r.instance.as_str())
        .into_iter()
        .map(|((_, instance, label, f, b), rs)| {
            let g = SizeFigures::of(&rs);
            let ok = &g.solved;
            let value = g.of_solved((!ok.is_empty()).then(|| {
                count_range(
                    ok.iter()
                        .filter_map(|r| r.objective)
                        .map(|v| v.round() as usize),
                )
            }));
            // A counting run's engine label says so (`-count<K>`): the group counts or not.
            let counted = if rs.iter().any(|r| r.count > 1) {
                g.of_solved(
                    ok.iter()
                        .filter_map(|r| r.solutions.map(|s| (s, r.count)))
                        .map(|(s, c)| {
                            if s >= u64::from(c) {
                                format!("≥ {s}")
                            } else {
                                s.to_string()
                            }
                        })
                        .max_by_key(|s| s.len()),
                )
            } else {
                NO_FIGURE.into()
            };
            vec![
                instance.to_string(),
                label.to_string(),
                f.to_string(),
                b,
                g.solved_of_runs(),
                value,
                counted,
                g.median_solve(),
                g.max_solve(),
            ]
        })
        .collect();
    vec![Table {
        stem: "queens".into(),
        title: "n-Queens with walls: most queens on a board (base) and fewest walls for q queens (least-walls), with the optimal solutions counted".into(),
        columns: [
            "instance",
            "board",
            "formulation",
            "backend",
            "solved",
            "value",
            "optimal solutions",
            "median solve (s)",
            "max solve (s)",
        ]
        .map(String::from)
        .to_vec(),
        labels: 4,
        rows: body,
        notes: vec![
            "value: the most queens (base) or the fewest walls (least-walls) each solved run found; optimal solutions: for runs with --count K, the optimal placements (base) or optimal boards, i.e. distinct wall sets (least-walls), counted up to K (≥ K: the count stopped there). The time of a counting run includes the solve to the optimum.".into(),
            "Without walls the base model's optimal placements are the n-Queens solutions: 92 for n = 8 and 724 for n = 10 (OEIS A000170); the counts above are checked against these in the tests.".into(),
            "The blog post (001) gives the base, counting and least-walls models for SCIP but no times or optima for them, so no published figures stand beside ours.".into(),
        ],
    }]
}
