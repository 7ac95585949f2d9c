//! The independent verifier of a nonogram-givens answer. It shares no code with the
//! formulations or the follower (no SAT solver, no model, not even the nonogram module's
//! line helpers): it reads the answer's lines, checks that every given has the picture's
//! colour, and counts the solutions of the clues and the givens with a solver of its own,
//! stopping at two:
//!
//! * **line solving**: for one line, every placement of its runs that fits the cells
//!   known is found by a forward and a backward pass over the states "i cells read, t
//!   runs placed, the next cell free to start a run"; a cell is settled when every
//!   placement gives it the same colour. Lines are settled in turn until none changes;
//! * **probing**: each open cell is tried black and white, each try settled; a colour
//!   that leaves a line without placements gives the cell the other colour, and a cell
//!   both tries colour alike takes that colour; repeated until nothing changes;
//! * **backtracking**: on the first cell still open, black then white, each settled and
//!   probed again.
//!
//! It requires exactly one solution, equal to the picture. On pictures of at most
//! [`BRUTE_FORCE_CELLS`] cells a claimed minimum k is also checked by trying every set of
//! k − 1 givens (a smaller unique set would have a unique superset of k − 1 cells), where
//! there are at most [`BRUTE_FORCE_SETS`] of them.

use super::NonogramGivens;

/// Largest picture (in cells) whose claimed minimum is checked by brute force.
pub const BRUTE_FORCE_CELLS: usize = 25;

/// Most sets of givens the brute-force check tries.
pub const BRUTE_FORCE_SETS: u64 = 200_000;

/// A cell not known yet.
const OPEN: u8 = 0;
/// A black cell.
const BLACK: u8 = 1;
/// A white cell.
const WHITE: u8 = 2;

/// Checks the answer `lines` (one string per row: `#` a black given, `.` a white one,
/// `?` a cell not shown) for `p`; `minimal`: the run claims the number of givens is the
/// minimum.
pub fn check(p: &NonogramGivens, lines: &[String], minimal: bool) -> Result<(), String> {
    let (h, w) = (p.picture.len(), p.puzzle.cols.len());
    if lines.len() != h {
        return Err(format!("{} rows, expected {h}", lines.len()));
    }
    let mut givens = vec![OPEN; h * w];
    for (i, line) in lines.iter().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != w {
            return Err(format!(
                "row {} has {} cells, expected {w}",
                i + 1,
                chars.len()
            ));
        }
        for (j, &c) in chars.iter().enumerate() {
            let colour = match c {
                '?' => continue,
                '#' => BLACK,
                '.' => WHITE,
                other => return Err(format!("row {}, column {}: '{other}'", i + 1, j + 1)),
            };
            if (colour == BLACK) != p.picture[i][j] {
                return Err(format!(
                    "row {}, column {} is given {}, the picture has it {}",
                    i + 1,
                    j + 1,
                    name(colour),
                    name(if p.picture[i][j] { BLACK } else { WHITE })
                ));
            }
            givens[i * w + j] = colour;
        }
    }
    let solver = Solver::new(p);
    let count = givens.iter().filter(|&&g| g != OPEN).count();
    let found = solver.solutions(&givens, 2);
    match found.len() {
        0 => return Err("the clues and givens have no solution".into()),
        1 if found[0] != solver.picture => {
            return Err("the one solution of the clues and givens is not the picture".into())
        }
        1 => {}
        _ => {
            let other = found
                .iter()
                .find(|g| **g != solver.picture)
                .expect("two solutions, one of them not the picture");
            let differ = other
                .iter()
                .zip(&solver.picture)
                .filter(|(a, b)| a != b)
                .count();
            return Err(format!(
                "the {count} givens leave more than one solution, e.g. one differing from the picture in {differ} cells"
            ));
        }
    }
    if minimal && h * w <= BRUTE_FORCE_CELLS && count > 0 {
        if let Some(smaller) = smaller_unique(&solver, count - 1) {
            return Err(format!(
                "claimed minimum {count}, but {} givens at cells {smaller:?} are unique",
                count - 1
            ));
        }
    }
    Ok(())
}

/// Checks that the cells `set` (row-major indices) are *unavoidable* for `p`'s picture:
/// with every cell outside `set` given as the picture has it, the verifier's own search
/// finds a solution of the clues other than the picture. That is the witness of a row
/// Σ_{c ∈ set} y_c ≥ 1 of the fewest-givens search: givens that show none of these cells
/// leave that other solution.
pub fn unavoidable(p: &NonogramGivens, set: &[usize]) -> Result<(), String> {
    let solver = Solver::new(p);
    let cells = solver.h * solver.w;
    let mut givens = solver.picture.clone();
    for &c in set {
        if c >= cells {
            return Err(format!("cell {c} is not in the picture"));
        }
        givens[c] = OPEN;
    }
    if solver.solutions(&givens, 2).len() < 2 {
        return Err(format!(
            "the cells {set:?} are not unavoidable: the picture outside them has one solution"
        ));
    }
    Ok(())
}

fn name(colour: u8) -> &'static str {
    if colour == BLACK {
        "black"
    } else {
        "white"
    }
}

/// n choose k, saturating.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// A set of `k` cells (row-major) whose givens make the picture unique, by trying every
/// one; `None` also when there are more than [`BRUTE_FORCE_SETS`] sets to try.
fn smaller_unique(solver: &Solver, k: usize) -> Option<Vec<usize>> {
    let cells = solver.picture.len();
    if choose(cells as u64, k as u64) > BRUTE_FORCE_SETS {
        return None;
    }
    let mut set: Vec<usize> = (0..k).collect();
    loop {
        let mut givens = vec![OPEN; cells];
        for &c in &set {
            givens[c] = solver.picture[c];
        }
        if solver.solutions(&givens, 2).len() == 1 {
            return Some(set);
        }
        // The next k-subset in lexicographic order.
        let mut i = k;
        loop {
            if i == 0 {
                return None;
            }
            i -= 1;
            if set[i] < cells - k + i {
                break;
            }
        }
        set[i] += 1;
        for j in i + 1..k {
            set[j] = set[j - 1] + 1;
        }
    }
}

/// The clues of one instance and its picture, as the counting search needs them.
struct Solver {
    h: usize,
    w: usize,
    rows: Vec<Vec<usize>>,
    cols: Vec<Vec<usize>>,
    /// The picture, row-major, as `BLACK` and `WHITE`.
    picture: Vec<u8>,
}

impl Solver {
    fn new(p: &NonogramGivens) -> Solver {
        Solver {
            h: p.picture.len(),
            w: p.puzzle.cols.len(),
            rows: p.puzzle.rows.clone(),
            cols: p.puzzle.cols.clone(),
            picture: p
                .picture
                .iter()
                .flatten()
                .map(|&b| if b { BLACK } else { WHITE })
                .collect(),
        }
    }

    /// The solutions that keep the cells of `start` known, up to `limit`.
    fn solutions(&self, start: &[u8], limit: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.search(start.to_vec(), limit, &mut out);
        out
    }

    fn search(&self, mut grid: Vec<u8>, limit: usize, out: &mut Vec<Vec<u8>>) {
        let all: Vec<usize> = (0..self.h + self.w).collect();
        if out.len() >= limit || !self.settle(&mut grid, &all) || !self.probe(&mut grid) {
            return;
        }
        match grid.iter().position(|&c| c == OPEN) {
            None => out.push(grid),
            Some(k) => {
                for colour in [BLACK, WHITE] {
                    let mut g = grid.clone();
                    g[k] = colour;
                    if self.settle(&mut g, &self.lines_of(k)) {
                        self.search(g, limit, out);
                    }
                    if out.len() >= limit {
                        return;
                    }
                }
            }
        }
    }

    /// The row and the column of cell k, as line numbers.
    fn lines_of(&self, k: usize) -> [usize; 2] {
        [k / self.w, self.h + k % self.w]
    }

    /// Probing, on a settled grid: each open cell is tried black and white, each settled;
    /// a colour that leaves some line without a placement gives the cell the other, and a
    /// cell both tries colour alike takes that colour. Repeated until nothing changes;
    /// `false` when a cell can take neither colour.
    fn probe(&self, grid: &mut Vec<u8>) -> bool {
        loop {
            let mut changed = false;
            for k in 0..grid.len() {
                if grid[k] != OPEN {
                    continue;
                }
                let tried = [BLACK, WHITE].map(|colour| {
                    let mut g = grid.clone();
                    g[k] = colour;
                    self.settle(&mut g, &self.lines_of(k)).then_some(g)
                });
                match tried {
                    [None, None] => return false,
                    [Some(g), None] | [None, Some(g)] => {
                        *grid = g;
                        changed = true;
                    }
                    [Some(b), Some(w)] => {
                        let mut touched = Vec::new();
                        for c in 0..grid.len() {
                            if grid[c] == OPEN && b[c] != OPEN && b[c] == w[c] {
                                grid[c] = b[c];
                                touched.extend(self.lines_of(c));
                            }
                        }
                        if !touched.is_empty() {
                            touched.sort_unstable();
                            touched.dedup();
                            if !self.settle(grid, &touched) {
                                return false;
                            }
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Settles the lines of `grid`, starting from the lines `first` (0..h the rows, h..h+w
    /// the columns) and going on with every line crossing a cell that changed, until none
    /// changes; `false` when a line has no placement left.
    fn settle(&self, grid: &mut [u8], first: &[usize]) -> bool {
        let (h, w) = (self.h, self.w);
        let mut dirty = vec![false; h + w];
        let mut pending: Vec<usize> = Vec::new();
        for &l in first {
            if !dirty[l] {
                dirty[l] = true;
                pending.push(l);
            }
        }
        while let Some(l) = pending.pop() {
            dirty[l] = false;
            let (cells, clue): (Vec<usize>, &[usize]) = if l < h {
                ((0..w).map(|j| l * w + j).collect(), &self.rows[l])
            } else {
                ((0..h).map(|i| i * w + (l - h)).collect(), &self.cols[l - h])
            };
            let line: Vec<u8> = cells.iter().map(|&c| grid[c]).collect();
            let Some(settled) = settle_line(clue, &line) else {
                return false;
            };
            for (pos, &c) in cells.iter().enumerate() {
                if settled[pos] != line[pos] {
                    grid[c] = settled[pos];
                    // The crossing line may settle more.
                    let cross = if l < h { h + pos } else { pos };
                    if !dirty[cross] {
                        dirty[cross] = true;
                        pending.push(cross);
                    }
                }
            }
        }
        true
    }
}

/// The line `line` with every cell that all placements of `clue`'s runs (fitting the
/// known cells) colour alike settled; `None` when no placement fits.
fn settle_line(clue: &[usize], line: &[u8]) -> Option<Vec<u8>> {
    let (n, k) = (line.len(), clue.len());
    // whites[i]: white cells among the first i.
    let mut whites = vec![0usize; n + 1];
    for i in 0..n {
        whites[i + 1] = whites[i] + usize::from(line[i] == WHITE);
    }
    // Run t placed on cells i..i+len, followed by a white cell unless it ends the line:
    // the state it leads to, if it fits.
    let run = |i: usize, t: usize| -> Option<usize> {
        let len = clue[t];
        let end = i + len;
        if end > n || whites[end] - whites[i] > 0 {
            return None;
        }
        if end == n {
            Some(n)
        } else if line[end] != BLACK {
            Some(end + 1)
        } else {
            None
        }
    };
    let at = |i: usize, t: usize| i * (k + 1) + t;
    // State (i, t): i cells read, t runs placed, cell i free to start a run.
    let mut ahead = vec![false; (n + 1) * (k + 1)];
    ahead[at(0, 0)] = true;
    for i in 0..n {
        for t in 0..=k {
            if !ahead[at(i, t)] {
                continue;
            }
            if line[i] != BLACK {
                ahead[at(i + 1, t)] = true;
            }
            if t < k {
                if let Some(next) = run(i, t) {
                    ahead[at(next, t + 1)] = true;
                }
            }
        }
    }
    if !ahead[at(n, k)] {
        return None;
    }
    let mut behind = vec![false; (n + 1) * (k + 1)];
    behind[at(n, k)] = true;
    for i in (0..n).rev() {
        for t in 0..=k {
            let white = line[i] != BLACK && behind[at(i + 1, t)];
            let placed = t < k && run(i, t).is_some_and(|next| behind[at(next, t + 1)]);
            behind[at(i, t)] = white || placed;
        }
    }
    let mut can_black = vec![false; n];
    let mut can_white = vec![false; n];
    for i in 0..n {
        for t in 0..=k {
            if !ahead[at(i, t)] {
                continue;
            }
            if line[i] != BLACK && behind[at(i + 1, t)] {
                can_white[i] = true;
            }
            if t < k {
                if let Some(next) = run(i, t).filter(|&next| behind[at(next, t + 1)]) {
                    can_black[i..i + clue[t]].iter_mut().for_each(|c| *c = true);
                    if next > i + clue[t] {
                        can_white[i + clue[t]] = true;
                    }
                }
            }
        }
    }
    Some(
        (0..n)
            .map(|i| match (can_black[i], can_white[i]) {
                (true, false) => BLACK,
                (false, true) => WHITE,
                _ => line[i],
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `n` cells as a colour vector.
    fn every_line(n: usize) -> Vec<Vec<u8>> {
        (0..1u32 << n)
            .map(|m| {
                (0..n)
                    .map(|i| if m >> i & 1 == 1 { BLACK } else { WHITE })
                    .collect()
            })
            .collect()
    }

    fn runs_of(line: &[u8]) -> Vec<usize> {
        line.split(|&c| c == WHITE)
            .map(|r| r.len())
            .filter(|&l| l > 0)
            .collect()
    }

    /// The counting search finds every solution of random small puzzles, as enumerating
    /// every grid does (clues from random pictures, some cells shown).
    #[test]
    fn counting_agrees_with_enumeration() {
        let mut seed = 99u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for round in 0..60 {
            let (h, w) = [(3, 3), (3, 4), (4, 4), (4, 5), (2, 6)][round % 5];
            let picture: Vec<Vec<bool>> = (0..h)
                .map(|_| (0..w).map(|_| next(2) == 1).collect())
                .collect();
            let p = crate::puzzles::nonogram::givens::NonogramGivens::of_picture("t", &picture);
            let solver = Solver::new(&p);
            let start: Vec<u8> = solver
                .picture
                .iter()
                .map(|&c| if next(6) == 0 { c } else { OPEN })
                .collect();
            let want: Vec<u64> = (0u64..1 << (h * w))
                .filter(|code| {
                    let g: Vec<u8> = (0..h * w)
                        .map(|k| if code >> k & 1 == 1 { BLACK } else { WHITE })
                        .collect();
                    let fits = |cells: Vec<u8>, clue: &[usize]| runs_of(&cells) == clue;
                    (0..h).all(|i| fits(g[i * w..(i + 1) * w].to_vec(), &solver.rows[i]))
                        && (0..w)
                            .all(|j| fits((0..h).map(|i| g[i * w + j]).collect(), &solver.cols[j]))
                        && (0..h * w).all(|k| start[k] == OPEN || start[k] == g[k])
                })
                .collect();
            let got = solver.solutions(&start, usize::MAX);
            assert_eq!(got.len(), want.len(), "round {round}");
            assert!(got.contains(&solver.picture), "round {round}");
        }
    }

    /// The line solver settles exactly the cells that every completion of the known cells
    /// with the clue's runs colours alike, on every clue and partial line of up to 7
    /// cells.
    #[test]
    fn line_solving_agrees_with_enumeration() {
        for n in 1..=7 {
            let lines = every_line(n);
            let clues: std::collections::BTreeSet<Vec<usize>> =
                lines.iter().map(|l| runs_of(l)).collect();
            // Partial lines: each cell open, black or white (3^n).
            for code in 0..3u32.pow(n as u32) {
                let partial: Vec<u8> = (0..n)
                    .map(|i| (code / 3u32.pow(i as u32) % 3) as u8)
                    .collect();
                for clue in &clues {
                    let fits: Vec<&Vec<u8>> = lines
                        .iter()
                        .filter(|l| {
                            runs_of(l) == *clue
                                && l.iter().zip(&partial).all(|(a, b)| *b == OPEN || a == b)
                        })
                        .collect();
                    let got = settle_line(clue, &partial);
                    if fits.is_empty() {
                        assert_eq!(got, None, "{clue:?} {partial:?}");
                        continue;
                    }
                    let want: Vec<u8> = (0..n)
                        .map(|i| {
                            if fits.iter().all(|l| l[i] == BLACK) {
                                BLACK
                            } else if fits.iter().all(|l| l[i] == WHITE) {
                                WHITE
                            } else {
                                OPEN
                            }
                        })
                        .collect();
                    assert_eq!(got, Some(want), "{clue:?} {partial:?}");
                }
            }
        }
    }
}
