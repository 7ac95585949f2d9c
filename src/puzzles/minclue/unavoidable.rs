//! The seeding search for unavoidable sets of a grid G: sets of cells whose values can be
//! rearranged into another valid grid, so that every unique puzzle of G shows at least one
//! of their cells. Found in the order of McGuire et al.'s hitting-set search (reference 18 of
//! the report), smallest first:
//! 1. the two-digit rectangles: cells (r1,c1), (r1,c2), (r2,c1), (r2,c2) holding a, b, b, a
//!    with both rows in one band or both columns in one stack (swapping a and b keeps
//!    every row, column and box valid), found by looking at G;
//! 2. the sets freed by blanking every pair and every triple of digits, and every pair of
//!    rows of one band and of columns of one stack: every other completion of what is
//!    left ([`ClueFollower::others_within`]) gives a set, each shrunk to a minimal one
//!    ([`ClueFollower::minimise`]); the search over regions is the shared
//!    [`fewest_clues::seed_regions`].
//!
//! The sets are returned without duplicates, smallest first, at most `limit`.

use super::MinClue;
use crate::puzzles::clue_follower::{ClueFollower, Stopped};
use crate::puzzles::fewest_clues;

/// Completions enumerated for each blanked region; blanking a pair of digits or rows
/// leaves few, a triple of digits at most a few hundred on 9×9 grids.
const COMPLETIONS_PER_REGION: usize = 200;

/// The two-digit rectangles of `p` (step 1), as sorted cell lists (row-major).
pub fn rectangles(p: &MinClue) -> Vec<Vec<usize>> {
    let n = p.n();
    let g = &p.grid;
    let mut out = Vec::new();
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let same_band = r1 / p.box_rows == r2 / p.box_rows;
                    let same_stack = c1 / p.box_cols == c2 / p.box_cols;
                    if (same_band || same_stack) && g[r1][c1] == g[r2][c2] && g[r1][c2] == g[r2][c1]
                    {
                        out.push(vec![r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2]);
                    }
                }
            }
        }
    }
    out
}

/// The regions blanked in step 2, as cell masks (row-major): pairs and triples of digits,
/// pairs of rows within a band, pairs of columns within a stack.
fn regions(p: &MinClue) -> Vec<Vec<bool>> {
    let n = p.n();
    let cells = n * n;
    let digits =
        |ds: &[u32]| -> Vec<bool> { (0..cells).map(|k| ds.contains(&p.value(k))).collect() };
    let mut out = Vec::new();
    for a in 1..=n as u32 {
        for b in a + 1..=n as u32 {
            out.push(digits(&[a, b]));
        }
    }
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            if r1 / p.box_rows == r2 / p.box_rows {
                out.push((0..cells).map(|k| k / n == r1 || k / n == r2).collect());
            }
        }
    }
    for c1 in 0..n {
        for c2 in c1 + 1..n {
            if c1 / p.box_cols == c2 / p.box_cols {
                out.push((0..cells).map(|k| k % n == c1 || k % n == c2).collect());
            }
        }
    }
    for a in 1..=n as u32 {
        for b in a + 1..=n as u32 {
            for c in b + 1..=n as u32 {
                out.push(digits(&[a, b, c]));
            }
        }
    }
    // Whole bands and stacks, and pairs of boxes in one band or stack.
    let (bands, stacks) = (n / p.box_rows, n / p.box_cols);
    for band in 0..bands {
        out.push((0..cells).map(|k| k / n / p.box_rows == band).collect());
    }
    for stack in 0..stacks {
        out.push((0..cells).map(|k| k % n / p.box_cols == stack).collect());
    }
    let boxes = |k: usize| (k / n / p.box_rows, k % n / p.box_cols);
    for b1 in 0..n {
        for b2 in b1 + 1..n {
            let (r1, c1) = (b1 / stacks, b1 % stacks);
            let (r2, c2) = (b2 / stacks, b2 % stacks);
            if r1 == r2 || c1 == c2 {
                out.push(
                    (0..cells)
                        .map(|k| boxes(k) == (r1, c1) || boxes(k) == (r2, c2))
                        .collect(),
                );
            }
        }
    }
    for a in 1..=n as u32 {
        for b in a + 1..=n as u32 {
            for c in b + 1..=n as u32 {
                for d in c + 1..=n as u32 {
                    out.push(digits(&[a, b, c, d]));
                }
            }
        }
    }
    out
}

/// Up to `limit` minimal unavoidable sets of `p`, smallest first, found with `follower`.
/// `Err` when the run's deadline passed (what was found so far is lost with it: the run
/// has no time left to use it).
pub fn seed(
    p: &MinClue,
    follower: &mut ClueFollower,
    limit: usize,
) -> Result<Vec<Vec<usize>>, Stopped> {
    fewest_clues::seed_regions(
        follower,
        rectangles(p),
        regions(p),
        COMPLETIONS_PER_REGION,
        limit,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Budget;

    fn figure_8_1() -> MinClue {
        let line =
            "876912534954387612213645789738456291561829347429731865642178953395264178187593426";
        super::super::parse::parse_line(line).unwrap().0
    }

    /// Every seeded set is unavoidable (another completion changes exactly its cells
    /// exists: the clues outside it do not make G unique) and minimal (fixing any one of
    /// its cells too makes G unique).
    #[test]
    fn seeded_sets_are_minimal_unavoidable_sets() {
        let p = figure_8_1();
        let mut f = super::super::follower::follower(&p, &Budget::unlimited());
        let sets = seed(&p, &mut f, 60).unwrap();
        assert_eq!(sets.len(), 60);
        assert!(sets.windows(2).all(|w| w[0].len() <= w[1].len()));
        for s in &sets {
            let mut outside = vec![true; 81];
            for &k in s {
                outside[k] = false;
            }
            assert!(f.other_outside(&outside).unwrap().is_some(), "{s:?}");
            for &k in s {
                outside[k] = true;
                assert!(
                    f.other_outside(&outside).unwrap().is_none(),
                    "{s:?} without {k}"
                );
                outside[k] = false;
            }
        }
    }
}
