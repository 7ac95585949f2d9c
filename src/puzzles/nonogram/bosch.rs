//! Bosch's nonogram model ("Painting by numbers", Optima 65, 2001), as the paper
//! "Nonokenken" (section 2) gives it: the rows and the columns are two tiling problems
//! that must agree on the cells.
//!
//! Variables: `z[i,j]` (binary, [`Cells`]) is 1 when cell (i, j) is black; `y[i,t,s]`
//! (binary) is 1 when the t-th cluster of row i starts in column s; `x[j,t,s]` (binary) is
//! 1 when the t-th cluster of column j starts in row s. A cluster's starts run from its
//! earliest position l (the clusters before it and one white cell after each) to its
//! latest r (the clusters after it, likewise): only those columns exist.
//!
//! Rows, for every line (a row with y, a column with x), cluster t of length p:
//! * each cluster starts once: Σ_s y[t,s] = 1 (`once`);
//! * clusters keep their order with a gap: a start s of cluster t leaves the next cluster
//!   a start from s + p + 1 on, y[t,s] ≤ Σ_{s' = s+p+1}^{r_{t+1}} y[t+1,s'] (`order`);
//! * a black cell is covered by some cluster of its line,
//!   z ≤ Σ_t Σ_{s = max(l_t, k−p_t+1)}^{min(r_t, k)} y[t,s] (`cover`);
//! * a cell covered by a cluster is black: z ≥ y[t,s] for every start s of cluster t that
//!   covers it (`black`).
//!
//! Givens fix z. The objective is 0.
//!
//! Deviations from the paper, whose formulas came out of a PDF with typos:
//! * the cover range is printed min{l, k−p+1} ≤ s ≤ max{r, k}, which would let a cluster
//!   that starts far from the cell cover it; the intent, the starts that cover cell k, is
//!   max{l, k−p+1} ≤ s ≤ min{r, k};
//! * the column cover row is printed with y; it is x, the column clusters;
//! * the order rows are printed for l+1 ≤ s ≤ r; the row for s = l would say that the
//!   next cluster starts somewhere in its own window, which its `once` row already says,
//!   so leaving it out changes nothing;
//! * a line whose clue cannot fit (its clusters and gaps longer than the line) gets an
//!   empty `once` row, 0 = 1, which no point meets.

use super::{Cells, Line, Nonogram};
use crate::model::{Model, Name, VarId};

/// Builds Bosch's model for `p`.
pub fn build(p: &Nonogram) -> (Model, Cells) {
    let mut m = Model::new(format!("nonogram_bosch_{}", p.name));
    let cells = Cells::add(&mut m, p);
    for line in p.lines() {
        add_line(&mut m, &cells, &line);
    }
    (m, cells)
}

/// The cluster-start columns and rows of one line.
fn add_line(m: &mut Model, cells: &Cells, line: &Line) {
    let letter = if line.row { "y" } else { "x" };
    // Row names: the line's kind and number, then the indices.
    let name = |what: &'static str, idx: &[usize]| {
        let mut all = vec![line.index + 1];
        all.extend_from_slice(idx);
        Name::idx(what, &all)
    };
    let tag = |base: &'static str| -> &'static str {
        match (line.row, base) {
            (true, "once") => "rowonce",
            (false, "once") => "colonce",
            (true, "order") => "roworder",
            (false, "order") => "colorder",
            (true, "cover") => "rowcover",
            (false, "cover") => "colcover",
            (true, _) => "rowblack",
            (false, _) => "colblack",
        }
    };
    if !line.fits() {
        m.add_eq(name(tag("once"), &[0]), std::iter::empty(), 1.0);
        return;
    }
    let windows = line.windows();
    // starts[t][s - l_t] = column of cluster t starting at s.
    let starts: Vec<Vec<VarId>> = windows
        .iter()
        .enumerate()
        .map(|(t, &(l, r))| {
            (l..=r)
                .map(|s| m.add_binary(name(letter, &[t + 1, s + 1])))
                .collect()
        })
        .collect();
    let at = |t: usize, s: usize| starts[t][s - windows[t].0];
    for (t, &(l, r)) in windows.iter().enumerate() {
        m.add_eq(
            name(tag("once"), &[t + 1]),
            (l..=r).map(|s| (at(t, s), 1.0)),
            1.0,
        );
        if t + 1 < windows.len() {
            let p = line.clue[t];
            let (_, r_next) = windows[t + 1];
            for s in l + 1..=r {
                let mut terms = vec![(at(t, s), 1.0)];
                terms.extend((s + p + 1..=r_next).map(|s2| (at(t + 1, s2), -1.0)));
                m.add_le(name(tag("order"), &[t + 1, s + 1]), terms, 0.0);
            }
        }
    }
    for k in 0..line.len {
        let z = cells.at(line.cell(k));
        let mut cover = vec![(z, 1.0)];
        for (t, &(l, r)) in windows.iter().enumerate() {
            let p = line.clue[t];
            let from = l.max((k + 1).saturating_sub(p));
            let to = r.min(k);
            for s in from..=to {
                cover.push((at(t, s), -1.0));
                m.add_ge(
                    name(tag("black"), &[k + 1, t + 1, s + 1]),
                    [(z, 1.0), (at(t, s), -1.0)],
                    0.0,
                );
            }
        }
        m.add_le(name(tag("cover"), &[k + 1]), cover, 0.0);
    }
}
