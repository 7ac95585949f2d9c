//! The graph G(V, E) the formulations are written on (report 5.2.1): V the points in
//! row-major order, E the pairs of neighbouring points (i < j), H the given links. The
//! verifier does not use it.

use super::{Cell, Circuit, Link};

/// The points and possible links of a board, numbered for the models.
#[derive(Clone, Debug)]
pub struct Graph {
    /// The cell of each vertex, in row-major order.
    pub cells: Vec<Cell>,
    /// The possible links as vertex pairs (i, j), i < j: each point joined to the point on
    /// its right and the point below, in vertex order.
    pub edges: Vec<(usize, usize)>,
    /// The edges at each vertex, as indices into `edges`.
    pub incident: Vec<Vec<usize>>,
    /// `given[e]` is true when link e is given (e ∈ H).
    pub given: Vec<bool>,
}

impl Graph {
    /// The graph of a board.
    pub fn new(p: &Circuit) -> Graph {
        let mut index = vec![usize::MAX; p.rows * p.cols];
        let mut cells = Vec::new();
        for r in 0..p.rows {
            for c in 0..p.cols {
                if p.is_point((r, c)) {
                    index[r * p.cols + c] = cells.len();
                    cells.push((r, c));
                }
            }
        }
        let mut edges = Vec::new();
        for (i, &(r, c)) in cells.iter().enumerate() {
            for (rr, cc) in [(r, c + 1), (r + 1, c)] {
                if p.is_point((rr, cc)) {
                    edges.push((i, index[rr * p.cols + cc]));
                }
            }
        }
        let mut incident = vec![Vec::new(); cells.len()];
        for (e, &(i, j)) in edges.iter().enumerate() {
            incident[i].push(e);
            incident[j].push(e);
        }
        let given = edges
            .iter()
            .map(|&(i, j)| {
                Link::new(cells[i], cells[j]).is_some_and(|l| p.given.binary_search(&l).is_ok())
            })
            .collect();
        Graph {
            cells,
            edges,
            incident,
            given,
        }
    }

    /// Number of vertices |V|.
    pub fn n(&self) -> usize {
        self.cells.len()
    }

    /// The vertex at a cell, if it is a point.
    pub fn vertex(&self, cell: Cell) -> Option<usize> {
        self.cells.binary_search(&cell).ok()
    }

    /// The link of edge e.
    pub fn link(&self, e: usize) -> Link {
        let (i, j) = self.edges[e];
        Link::new(self.cells[i], self.cells[j]).expect("edges join neighbours")
    }

    /// The links of the edges chosen in `chosen`.
    pub fn links(&self, chosen: &[bool]) -> Vec<Link> {
        (0..self.edges.len())
            .filter(|&e| chosen[e])
            .map(|e| self.link(e))
            .collect()
    }

    /// The connected components of the vertices joined by the chosen edges: a component
    /// number per vertex, numbered from 0 in order of their smallest vertex.
    pub fn components(&self, chosen: &[bool]) -> Vec<usize> {
        let n = self.n();
        let mut comp = vec![usize::MAX; n];
        let mut next = 0;
        let mut stack = Vec::new();
        for s in 0..n {
            if comp[s] != usize::MAX {
                continue;
            }
            comp[s] = next;
            stack.push(s);
            while let Some(v) = stack.pop() {
                for &e in &self.incident[v] {
                    if !chosen[e] {
                        continue;
                    }
                    let (a, b) = self.edges[e];
                    let w = if a == v { b } else { a };
                    if comp[w] == usize::MAX {
                        comp[w] = next;
                        stack.push(w);
                    }
                }
            }
            next += 1;
        }
        comp
    }
}
