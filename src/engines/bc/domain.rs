//! Bound propagation on the rows of the search, the way MIP solvers do it at every node:
//! each row `lower <= Σ a_j x_j <= upper` bounds every column from the activity bounds of
//! the others, integer columns rounded inwards, until nothing changes or a row cannot be
//! satisfied. The activity bounds of every row are kept up to date as bounds change, and
//! every change is recorded on a trail so that a probe can be undone.

use crate::lazy::Cut;
use crate::model::{Model, VarKind};

/// Feasibility tolerance of a row's activity.
const FEAS_TOL: f64 = 1e-6;

/// The rows (the model's and every row added), by column, with the widest range any of
/// their terms can have (to skip rows that cannot tighten anything).
pub struct Rows {
    rows: Vec<Cut>,
    of_column: Vec<Vec<(usize, f64)>>,
    integer: Vec<bool>,
    /// Max over the terms of |a_j| · (root upper − root lower) of x_j.
    range: Vec<f64>,
    root_lower: Vec<f64>,
    root_upper: Vec<f64>,
}

impl Rows {
    /// The rows of `model`.
    pub fn new(model: &Model) -> Rows {
        let mut r = Rows {
            rows: Vec::new(),
            of_column: vec![Vec::new(); model.vars.len()],
            integer: model
                .vars
                .iter()
                .map(|v| v.kind != VarKind::Continuous)
                .collect(),
            range: Vec::new(),
            root_lower: model.vars.iter().map(|v| v.lower).collect(),
            root_upper: model.vars.iter().map(|v| v.upper).collect(),
        };
        for row in &model.rows {
            r.push(Cut {
                terms: row.terms.clone(),
                lower: row.lower,
                upper: row.upper,
            });
        }
        r
    }

    /// Adds a row.
    pub fn push(&mut self, c: Cut) {
        let k = self.rows.len();
        let mut range = 0.0f64;
        for &(v, a) in &c.terms {
            self.of_column[v.0].push((k, a));
            range = range.max(a.abs() * (self.root_upper[v.0] - self.root_lower[v.0]));
        }
        self.range.push(range);
        self.rows.push(c);
    }

    /// For each column, the columns it shares a row of at most `max_terms` terms with.
    pub fn neighbours(&self, max_terms: usize) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.of_column.len()];
        for row in &self.rows {
            if row.terms.len() > max_terms {
                continue;
            }
            for &(a, _) in &row.terms {
                for &(b, _) in &row.terms {
                    if a != b && !out[a.0].contains(&b.0) {
                        out[a.0].push(b.0);
                    }
                }
            }
        }
        out
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }
}

/// The smallest and largest contribution a·x of a term for x in [lo, up]; `None` when
/// infinite.
fn contribution(a: f64, lo: f64, up: f64) -> (Option<f64>, Option<f64>) {
    let (small, large) = if a > 0.0 {
        (a * lo, a * up)
    } else {
        (a * up, a * lo)
    };
    (
        small.is_finite().then_some(small),
        large.is_finite().then_some(large),
    )
}

/// Column bounds with the activity bounds of every row, a trail of changes and the queue
/// of rows to look at.
pub struct Domain {
    /// Lower bounds by column.
    pub lower: Vec<f64>,
    /// Upper bounds by column.
    pub upper: Vec<f64>,
    min_act: Vec<f64>,
    max_act: Vec<f64>,
    min_inf: Vec<u32>,
    max_inf: Vec<u32>,
    trail: Vec<(usize, f64, f64)>,
    queue: Vec<usize>,
    queued: Vec<bool>,
}

impl Domain {
    /// The domain with these bounds; with `all_queued`, every row is to be looked at.
    pub fn new(rows: &Rows, lower: Vec<f64>, upper: Vec<f64>, all_queued: bool) -> Domain {
        let n = rows.len();
        let mut d = Domain {
            lower,
            upper,
            min_act: vec![0.0; n],
            max_act: vec![0.0; n],
            min_inf: vec![0; n],
            max_inf: vec![0; n],
            trail: Vec::new(),
            queue: if all_queued {
                (0..n).rev().collect()
            } else {
                Vec::new()
            },
            queued: vec![all_queued; n],
        };
        for (r, row) in rows.rows.iter().enumerate() {
            for &(v, a) in &row.terms {
                let (small, large) = contribution(a, d.lower[v.0], d.upper[v.0]);
                match small {
                    Some(s) => d.min_act[r] += s,
                    None => d.min_inf[r] += 1,
                }
                match large {
                    Some(l) => d.max_act[r] += l,
                    None => d.max_inf[r] += 1,
                }
            }
        }
        d
    }

    /// The activity bounds of every row (for tests).
    #[cfg(test)]
    pub fn activities(&self) -> (Vec<f64>, Vec<f64>) {
        (self.min_act.clone(), self.max_act.clone())
    }

    /// A mark to undo back to.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Moves the activities of the rows of column j from bounds (lo, up) to (nlo, nup).
    fn shift(&mut self, rows: &Rows, j: usize, old: (f64, f64), new: (f64, f64), enqueue: bool) {
        for &(r, a) in &rows.of_column[j] {
            let (os, ol) = contribution(a, old.0, old.1);
            let (ns, nl) = contribution(a, new.0, new.1);
            match os {
                Some(v) => self.min_act[r] -= v,
                None => self.min_inf[r] -= 1,
            }
            match ns {
                Some(v) => self.min_act[r] += v,
                None => self.min_inf[r] += 1,
            }
            match ol {
                Some(v) => self.max_act[r] -= v,
                None => self.max_inf[r] -= 1,
            }
            match nl {
                Some(v) => self.max_act[r] += v,
                None => self.max_inf[r] += 1,
            }
            if enqueue && !self.queued[r] {
                self.queued[r] = true;
                self.queue.push(r);
            }
        }
    }

    /// Undoes every change since `mark` and empties the queue.
    pub fn undo(&mut self, rows: &Rows, mark: usize) {
        while self.trail.len() > mark {
            let (j, lo, up) = self.trail.pop().expect("trail longer than mark");
            let now = (self.lower[j], self.upper[j]);
            self.shift(rows, j, now, (lo, up), false);
            self.lower[j] = lo;
            self.upper[j] = up;
        }
        for r in self.queue.drain(..) {
            self.queued[r] = false;
        }
    }

    /// Narrows column j to [lo, up] ∩ its bounds, queueing its rows; false when empty.
    pub fn tighten(&mut self, rows: &Rows, j: usize, lo: f64, up: f64) -> bool {
        let (old_lo, old_up) = (self.lower[j], self.upper[j]);
        let (lo, up) = (lo.max(old_lo), up.min(old_up));
        if lo > up + 1e-9 {
            return false;
        }
        if lo == old_lo && up == old_up {
            return true;
        }
        self.trail.push((j, old_lo, old_up));
        self.shift(rows, j, (old_lo, old_up), (lo, up), true);
        self.lower[j] = lo;
        self.upper[j] = up;
        true
    }

    /// Queues the rows of column j.
    pub fn touch(&mut self, rows: &Rows, j: usize) {
        for &(r, _) in &rows.of_column[j] {
            if !self.queued[r] {
                self.queued[r] = true;
                self.queue.push(r);
            }
        }
    }

    /// Propagates the queued rows to a fixed point; false when some row cannot be met.
    pub fn propagate(&mut self, rows: &Rows) -> bool {
        while let Some(r) = self.queue.pop() {
            self.queued[r] = false;
            let row = &rows.rows[r];
            if (self.min_inf[r] == 0 && self.min_act[r] > row.upper + FEAS_TOL)
                || (self.max_inf[r] == 0 && self.max_act[r] < row.lower - FEAS_TOL)
            {
                for q in self.queue.drain(..) {
                    self.queued[q] = false;
                }
                return false;
            }
            let slack_up = if row.upper.is_finite() && self.min_inf[r] == 0 {
                row.upper - self.min_act[r]
            } else {
                f64::INFINITY
            };
            let slack_low = if row.lower.is_finite() && self.max_inf[r] == 0 {
                self.max_act[r] - row.lower
            } else {
                f64::INFINITY
            };
            if slack_up >= rows.range[r] && slack_low >= rows.range[r] {
                continue;
            }
            for k in 0..row.terms.len() {
                let (v, a) = rows.rows[r].terms[k];
                let j = v.0;
                let (lo, up) = (self.lower[j], self.upper[j]);
                let (mut nlo, mut nup) = (lo, up);
                // Stale slacks only weaken the bounds (activities only grow tighter).
                if slack_up.is_finite() {
                    if a > 0.0 {
                        nup = nup.min(lo + slack_up / a);
                    } else {
                        nlo = nlo.max(up + slack_up / a);
                    }
                }
                if slack_low.is_finite() {
                    if a > 0.0 {
                        nlo = nlo.max(up - slack_low / a);
                    } else {
                        nup = nup.min(lo - slack_low / a);
                    }
                }
                // Integer columns are rounded; a continuous one only moves by a real step,
                // so that propagation cannot creep forever.
                let step = if rows.integer[j] {
                    nlo = (nlo - 1e-6).ceil();
                    nup = (nup + 1e-6).floor();
                    1e-9
                } else {
                    1e-4 * (1.0 + (up - lo).abs().min(1e6))
                };
                if (nlo > lo + step || nup < up - step) && !self.tighten(rows, j, nlo, nup) {
                    for q in self.queue.drain(..) {
                        self.queued[q] = false;
                    }
                    return false;
                }
            }
        }
        true
    }
}
