//! Hashi (Hashiwokakero, Bridges): islands with labels on a grid are joined by horizontal
//! and vertical bridges so that every island has as many bridges as its label, no pair is
//! joined by more than `max_bridges` bridges (2 in the usual rules), no two bridges cross,
//! and all islands are connected.
//!
//! Formulations: [`base`] (the report's model (6.1), connectivity by single-commodity
//! flow), [`hdc`] (the same plus the report's human-deduced fixings (6.2)–(6.11) as
//! variable bounds) and [`cuts`] (no flow: connectivity by row generation, the approach of
//! Coelho et al.; `cuts-hdc` adds the fixings of [`hdc`] to it). The verifier in [`verify`]
//! checks the rules from the grid alone and shares no code with them; [`generate`] makes
//! dense boards larger than Simon Tatham's generator manages.

pub mod base;
pub mod cuts;
pub mod generate;
pub mod hdc;
pub mod parse;
pub mod picture;
pub mod tables;
pub mod user_schema;
pub mod verify;

use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;

/// The registry entry of Hashi.
pub static PUZZLE: PuzzleDef<Hashi> = PuzzleDef {
    key: "hashi",
    description: "Hashi / Bridges: connect labelled islands with at most M bridges per pair",
    formulations: &[
        Formulation {
            key: "base",
            description: "x[n,q] = 1 iff n bridges join pair q; no-crossing pairs; single-commodity flow y for connectivity (report (6.1))",
            kind: Kind::Mip,
            build: |p| Ok(base::build(p).0),
            solve: |p, run: &Run| {
                run.compact(|| base::build(p), |x, v| p.answer(&x.pairs, &x.decode(v)))
            },
        },
        Formulation {
            key: "hdc",
            description: "base plus the human-deduced fixings (6.2)-(6.11) as variable bounds; fixings column counts them",
            kind: Kind::Mip,
            build: |p| Ok(hdc::build(p).0),
            solve: |p, run: &Run| {
                let mut fixings = 0;
                let mut r = run.compact(
                    || {
                        let (m, x, n) = hdc::build(p);
                        fixings = n;
                        (m, x)
                    },
                    |x, v| p.answer(&x.pairs, &x.decode(v)),
                );
                r.fixings = Some(fixings as u64);
                r
            },
        },
        Formulation {
            key: "cuts",
            description: "x[n,q] and no-crossing rows, no flow; connectivity by row generation on the components of each integer solution",
            kind: Kind::RowGeneration,
            build: |p| Ok(cuts::build(p, false).0),
            solve: |p, run: &Run| cuts::solve(p, false, run),
        },
        Formulation {
            key: "cuts-hdc",
            description: "cuts plus the fixings of hdc as variable bounds",
            kind: Kind::RowGeneration,
            build: |p| Ok(cuts::build(p, true).0),
            solve: |p, run: &Run| cuts::solve(p, true, run),
        },
    ],
    formats: "Simon Tatham's Bridges game IDs such as '7x7m2:2b3a3c2a2h1k4g1a3a6a5a2' (one per line, '#' comments); \
              or the .has format of Coelho et al. (first line 'rows cols islands', then the grid, 0 for water)",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "islands",
    tables: tables::tables,
    suite,
    generator: Some(&generate::GENERATOR),
    user: Some(user_schema::SCHEMA),
};

/// All four formulations with presolve on and off (the report's Table A.4 was measured
/// with presolve off). The quick suite runs every board of `report_range` and `tatham` once
/// (about 20 s on HiGHS); the full suite adds the largest boards (`large`, 100–400
/// islands, where a run can take tens of seconds with presolve off) and three repeats.
fn suite(quick: bool) -> super::Suite {
    let mut instances = vec!["hashi/report_range", "hashi/tatham"];
    if !quick {
        instances.push("hashi/large");
    }
    let mut part = SuitePart::new(
        instances,
        vec!["base", "hdc", "cuts", "cuts-hdc"],
        if quick { 60.0 } else { 120.0 },
    )
    .also_on(&["gurobi"]);
    part.presolve = vec![true, false];
    let mut compared = vec![
        "hashi/large/g_16x16_100.has",
        "hashi/comparison/t_40x40_d2.txt",
    ];
    if !quick {
        compared.push("hashi/large/g_24x24_200.txt");
    }
    let backends = SuitePart::engines(
        compared,
        vec!["base", "hdc", "cuts", "cuts-hdc"],
        if quick { 2.0 } else { 120.0 },
        3,
        "Chosen by difficulty: a 16×16 board with 100 islands (Coelho et al.'s format) and a 40×40 board of Tatham's Bridges, where HiGHS takes about 10 to 350 ms in the quick suite (boards up to 25×25 take it under 10 ms on every formulation: too easy), at a 2 s limit; the full suite adds 24×24 boards with 200 islands at 120 s.",
    );
    super::Suite {
        parts: vec![part, backends],
        repeats: if quick { 1 } else { 3 },
    }
}

/// One island: its cell (0-based row and column) and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Island {
    /// Row, from 0 at the top.
    pub row: usize,
    /// Column, from 0 at the left.
    pub col: usize,
    /// The number of bridges the island needs.
    pub label: u32,
}

/// A Hashi instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hashi {
    /// Instance name.
    pub name: String,
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// The most bridges allowed between one pair of islands (2 in the usual rules).
    pub max_bridges: u32,
    /// The islands in row-major order (the report's island indices 0..k−1).
    pub islands: Vec<Island>,
}

/// A pair of islands that a bridge could join: the same row or column with nothing in
/// between. `a < b` are island indices (so `a` is left of or above `b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The left or upper island.
    pub a: usize,
    /// The right or lower island.
    pub b: usize,
    /// True for a vertical pair (the report's o_q = 1).
    pub vertical: bool,
}

impl Hashi {
    /// Number of islands (the report's k).
    pub fn k(&self) -> usize {
        self.islands.len()
    }

    /// The possible bridges (the report's set B): each island joined to the next island to
    /// its right and the next island below it, in island order.
    pub fn pairs(&self) -> Vec<Pair> {
        let mut at = vec![usize::MAX; self.rows * self.cols];
        for (i, s) in self.islands.iter().enumerate() {
            at[s.row * self.cols + s.col] = i;
        }
        let mut out = Vec::new();
        for (a, s) in self.islands.iter().enumerate() {
            if let Some(b) = (s.col + 1..self.cols)
                .map(|c| at[s.row * self.cols + c])
                .find(|&i| i != usize::MAX)
            {
                out.push(Pair {
                    a,
                    b,
                    vertical: false,
                });
            }
            if let Some(b) = (s.row + 1..self.rows)
                .map(|r| at[r * self.cols + s.col])
                .find(|&i| i != usize::MAX)
            {
                out.push(Pair {
                    a,
                    b,
                    vertical: true,
                });
            }
        }
        out
    }

    /// The pairs of possible bridges that cross, as indices into `pairs` (horizontal first).
    /// A horizontal pair (a, b) and a vertical pair (c, d) cross when the column of c lies
    /// strictly between those of a and b and the row of a strictly between those of c and d.
    pub fn crossings(&self, pairs: &[Pair]) -> Vec<(usize, usize)> {
        let isl = &self.islands;
        // Vertical pairs by column, so that each horizontal pair looks only at the columns it spans.
        let mut by_col: Vec<Vec<usize>> = vec![Vec::new(); self.cols];
        for (r, p) in pairs.iter().enumerate().filter(|(_, p)| p.vertical) {
            by_col[isl[p.a].col].push(r);
        }
        let mut out = Vec::new();
        for (q, p) in pairs.iter().enumerate().filter(|(_, p)| !p.vertical) {
            let row = isl[p.a].row;
            for column in &by_col[isl[p.a].col + 1..isl[p.b].col] {
                for &r in column {
                    let v = pairs[r];
                    if isl[v.a].row < row && row < isl[v.b].row {
                        out.push((q, r));
                    }
                }
            }
        }
        out
    }

    /// The pairs at each island (the report's S_a), as indices into `pairs`.
    pub fn incident(&self, pairs: &[Pair]) -> Vec<Vec<usize>> {
        let mut inc = vec![Vec::new(); self.k()];
        for (q, p) in pairs.iter().enumerate() {
            inc[p.a].push(q);
            inc[p.b].push(q);
        }
        inc
    }

    /// The instance as a Tatham game ID, `WxHmM:DESC` (the canonical text).
    pub fn to_game_id(&self) -> String {
        let mut s = format!("{}x{}m{}:", self.cols, self.rows, self.max_bridges);
        let mut label = vec![0u32; self.rows * self.cols];
        for i in &self.islands {
            label[i.row * self.cols + i.col] = i.label;
        }
        let mut run = 0u8;
        for &l in &label {
            if l == 0 {
                run += 1;
                if run == 26 {
                    s.push('z');
                    run = 0;
                }
                continue;
            }
            if run > 0 {
                s.push((b'a' + run - 1) as char);
                run = 0;
            }
            s.push(parse::label_char(l));
        }
        if run > 0 {
            s.push((b'a' + run - 1) as char);
        }
        s
    }

    /// Draws the grid: labels for islands, `-`/`=` (and `≡`, `4` for more) for horizontal
    /// bridges, `|`/`"` for vertical ones, `.` for water. `bridges` are
    /// `[r1, c1, r2, c2, count]` entries.
    pub fn draw(&self, bridges: &[[usize; 5]]) -> String {
        let mut g = vec![vec!['.'; self.cols]; self.rows];
        for &[r1, c1, r2, c2, n] in bridges {
            let (h, v) = match n {
                1 => ('-', '|'),
                2 => ('=', '"'),
                3 => ('≡', '#'),
                _ => ('+', '+'),
            };
            if r1 == r2 {
                for cell in &mut g[r1][c1.min(c2) + 1..c1.max(c2)] {
                    *cell = h;
                }
            } else {
                for row in g.iter_mut().take(r1.max(r2)).skip(r1.min(r2) + 1) {
                    row[c1] = v;
                }
            }
        }
        for i in &self.islands {
            g[i.row][i.col] = parse::label_char(i.label);
        }
        g.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    }

    /// The answer for bridge counts per pair (in the order of [`Hashi::pairs`]): JSON,
    /// drawing and the verifier's verdict.
    pub fn answer(&self, pairs: &[Pair], counts: &[u32]) -> Answer {
        let bridges: Vec<[usize; 5]> = pairs
            .iter()
            .zip(counts)
            .filter(|(_, &n)| n > 0)
            .map(|(p, &n)| {
                let (a, b) = (self.islands[p.a], self.islands[p.b]);
                [a.row, a.col, b.row, b.col, n as usize]
            })
            .collect();
        Answer {
            verdict: verify::check(self, &bridges),
            text: self.draw(&bridges),
            json: serde_json::json!({ "bridges": bridges }),
        }
    }
}

impl Instance for Hashi {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        self.to_game_id()
    }

    fn size_label(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }

    fn size(&self) -> f64 {
        self.k() as f64
    }

    fn info(&self) -> String {
        format!(
            "islands={};pairs={};max_bridges={}",
            self.k(),
            self.pairs().len(),
            self.max_bridges
        )
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let bridges: Option<Vec<[usize; 5]>> =
            answer.and_then(|a| serde_json::from_value(a.json["bridges"].clone()).ok());
        Some(picture::svg(self, bridges.as_deref()))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
