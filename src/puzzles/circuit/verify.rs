//! The independent verifier of the Circuit Board game. It reads the rules off the grid
//! (cells, blacked-out cells, given links) and checks a set of links, and for the
//! shortest-path variant the reported s–t path; it uses nothing of the formulations or of
//! their graph.

use super::{Cell, Circuit, Link};
use std::collections::{BTreeSet, VecDeque};

/// Checks that `links` solve `p`: every link joins two neighbouring points, no link twice,
/// every given link present, every point with one or three links, and the links a tree
/// over all points (connected, one link fewer than points). With `path`, also that it is
/// a path from s to t along links of the tree, with no cell twice (in a tree that is the
/// only s–t path). Whether no shorter path is possible is not checked here: that needs a
/// search over all trees (the tests do it by brute force on small boards).
pub fn check(p: &Circuit, links: &[Link], path: Option<&[Cell]>) -> Result<(), String> {
    let point = |(r, c): Cell| r < p.rows && c < p.cols && !p.blocked[r * p.cols + c];
    let mut set = BTreeSet::new();
    for &Link(a, b) in links {
        let adjacent = (a.0 == b.0 && a.1 + 1 == b.1) || (a.1 == b.1 && a.0 + 1 == b.0);
        if !adjacent {
            return Err(format!(
                "({}, {}) and ({}, {}) are not neighbours, the first above or left of the second",
                a.0, a.1, b.0, b.1
            ));
        }
        for cell in [a, b] {
            if !point(cell) {
                return Err(format!(
                    "a link ends at ({}, {}), which is not a point of the board",
                    cell.0, cell.1
                ));
            }
        }
        if !set.insert((a, b)) {
            return Err(format!(
                "the link ({}, {})-({}, {}) appears twice",
                a.0, a.1, b.0, b.1
            ));
        }
    }
    for &Link(a, b) in &p.given {
        if !set.contains(&(a, b)) {
            return Err(format!(
                "the given link ({}, {})-({}, {}) is missing",
                a.0, a.1, b.0, b.1
            ));
        }
    }
    let cells: Vec<Cell> = (0..p.rows)
        .flat_map(|r| (0..p.cols).map(move |c| (r, c)))
        .filter(|&c| point(c))
        .collect();
    let neighbours = |(r, c): Cell| {
        let mut out = Vec::with_capacity(4);
        if r > 0 && set.contains(&((r - 1, c), (r, c))) {
            out.push((r - 1, c));
        }
        if c > 0 && set.contains(&((r, c - 1), (r, c))) {
            out.push((r, c - 1));
        }
        if set.contains(&((r, c), (r + 1, c))) {
            out.push((r + 1, c));
        }
        if set.contains(&((r, c), (r, c + 1))) {
            out.push((r, c + 1));
        }
        out
    };
    if cells.is_empty() {
        return Err("the board has no points".into());
    }
    for &cell in &cells {
        let d = neighbours(cell).len();
        if d != 1 && d != 3 {
            return Err(format!(
                "the point ({}, {}) has {d} links; every point needs 1 or 3",
                cell.0, cell.1
            ));
        }
    }
    if links.len() + 1 != cells.len() {
        return Err(format!(
            "{} links for {} points; a tree has one link fewer than points",
            links.len(),
            cells.len()
        ));
    }
    let mut seen = BTreeSet::from([cells[0]]);
    let mut queue = VecDeque::from([cells[0]]);
    while let Some(v) = queue.pop_front() {
        for w in neighbours(v) {
            if seen.insert(w) {
                queue.push_back(w);
            }
        }
    }
    if seen.len() != cells.len() {
        let lost = cells
            .iter()
            .find(|c| !seen.contains(c))
            .expect("some point unreached");
        return Err(format!(
            "the links are not connected: ({}, {}) cannot be reached from ({}, {})",
            lost.0, lost.1, cells[0].0, cells[0].1
        ));
    }
    if let Some(path) = path {
        let (s, t) = p
            .endpoints
            .ok_or("a path was reported but the board names no S and T")?;
        if path.first() != Some(&s) || path.last() != Some(&t) {
            return Err(format!(
                "the path must run from S ({}, {}) to T ({}, {})",
                s.0, s.1, t.0, t.1
            ));
        }
        let mut on = BTreeSet::new();
        for w in path.windows(2) {
            let (a, b) = if w[0] < w[1] {
                (w[0], w[1])
            } else {
                (w[1], w[0])
            };
            if !set.contains(&(a, b)) {
                return Err(format!(
                    "the path steps from ({}, {}) to ({}, {}) without a link of the tree",
                    w[0].0, w[0].1, w[1].0, w[1].1
                ));
            }
        }
        for c in path {
            if !on.insert(*c) {
                return Err(format!("the path visits ({}, {}) twice", c.0, c.1));
            }
        }
    }
    Ok(())
}
