//! The Circuit Board game (report chapter 5): a grid whose cells are points or blacked
//! out; join all points by horizontal and vertical links into a tree (connected, no
//! enclosed area) in which every point has one or three links, keeping the given links.
//! The shortest-path variant (CM3) also names two points s and t and asks for a tree
//! whose s–t path is as short as any tree allows.
//!
//! Formulations: [`cm1`] (the report's spanning-tree model (5.1), subtour elimination
//! rows added lazily in the project's branch and cut, with propagation and probing;
//! `cm1-lazy` the same branch and cut with the lazy rows alone), [`cm1_rowgen`] (the same
//! rows added by re-solving the integer program, on any engine), [`cm1_full`] (every subtour
//! row written out, tiny boards only), [`cm2`] (single-commodity flow (5.2)) and [`cm3`]
//! (CM1 plus the shortest s–t path (5.3)). The verifier in [`verify`] checks the rules
//! from the grid alone and shares no code with them; [`generate`] makes random boards.

pub mod cm1;
pub mod cm1_full;
pub mod cm1_rowgen;
pub mod cm2;
pub mod cm3;
pub mod generate;
pub mod graph;
pub mod parse;
pub mod picture;
pub mod tables;
pub mod user_schema;
pub mod verify;

use super::{Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;
use crate::lazy::SearchHints;

/// The registry entry of the Circuit Board game.
pub static PUZZLE: PuzzleDef<Circuit> = PuzzleDef {
    key: "circuit",
    description: "Circuit Board: join all points of a grid into a tree with degrees 1 or 3, keeping the given links",
    formulations: &[
        Formulation {
            key: "cm1",
            description: "x[e] = 1 iff link e is in the tree, y[i] = 1 iff point i has degree 3; subtour rows (5.1e) as lazy rows, with the tree rules as propagation and probing for engines that use them (report (5.1))",
            kind: Kind::LazyRows,
            build: |p| Ok(cm1::build(&graph::Graph::new(p)).0),
            solve: |p, run: &Run| {
                let hints = SearchHints {
                    probing: true,
                    constant_objective: true,
                };
                cm1::solve(p, run, hints, true)
            },
        },
        Formulation {
            key: "cm1-lazy",
            description: "cm1's model with the lazy subtour rows only: no tree propagation, no probing",
            kind: Kind::LazyRows,
            build: |p| Ok(cm1::build(&graph::Graph::new(p)).0),
            solve: |p, run: &Run| {
                let hints = SearchHints {
                    probing: false,
                    constant_objective: false,
                };
                cm1::solve(p, run, hints, false)
            },
        },
        Formulation {
            key: "cm1-rowgen",
            description: "cm1's model with the subtour rows added by re-solving the integer program after each round (any MIP engine)",
            kind: Kind::RowGeneration,
            build: |p| Ok(cm1::build(&graph::Graph::new(p)).0),
            solve: |p, run: &Run| cm1_rowgen::solve(p, run),
        },
        Formulation {
            key: "cm1-full",
            description: "cm1's model with all 2^|V| - 2 subtour rows written out (boards of at most 16 points)",
            kind: Kind::Mip,
            build: |p| Ok(cm1_full::build(&graph::Graph::new(p))?.0),
            solve: |p, run: &Run| cm1_full::solve(p, run),
        },
        Formulation {
            key: "cm2",
            description: "flow x[i,j] >= 0 on each arc, z[e] = 1 iff link e is used, y[i] degree 3; single-commodity flow with M = |V| - 1 (report (5.2))",
            kind: Kind::Mip,
            build: |p| Ok(cm2::build(&graph::Graph::new(p)).0),
            solve: |p, run: &Run| cm2::solve(p, run),
        },
        Formulation {
            key: "cm3",
            description: "cm1 plus p[e] = 1 iff link e is on the s-t path, u[i] = 1 iff point i is on it; minimises the path, subtour and s-t cut rows lazy (report (5.3)); boards with S and T",
            kind: Kind::LazyRows,
            build: |p| Ok(cm3::build(p, &graph::Graph::new(p))?.0),
            solve: |p, run: &Run| cm3::solve(p, run),
        },
    ],
    formats: "text: 'grid R C', then 2R-1 lines drawing the board: 'o' point, '#' blacked out, 'S'/'T' the \
              endpoints of the shortest-path variant, '-' and '|' given links, '.' or ' ' no link; optional \
              'puzzle NAME', 'unique yes|no', 'solution' block in the same drawing; '#' comments at line start",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "points",
    tables: tables::tables,
    suite,
    generator: Some(&generate::GENERATOR),
    user: Some(user_schema::SCHEMA),
};

/// Five boards per size 3×3 … 10×10 as in report Tables A.1–A.2, CM1 and CM2 (and
/// their LP relaxations, Table A.3), then the boards beyond the report (12×12, 15×15,
/// 20×20) with CM1 alone. The quick suite gives CM2 a 2 s limit, the engine comparison's
/// (the report stopped it at 1800 s from 62 points on; at 2 s HiGHS solves it up to 6×6 and
/// no 7×7 board, so a longer quick limit only adds time-limited runs); the full suite uses the report's 1800 s and adds the
/// shortest-path boards with CM3. With 16 boards at that limit the full suite takes about
/// 8 hours, so it runs every run once. CM1 and CM3 run on the chosen engines that take
/// lazy rows (`bc` by default), CM2 on those that take integer programs.
fn suite(quick: bool) -> super::Suite {
    let mut parts = vec![
        SuitePart::new(
            vec!["circuit/table_a_1"],
            vec!["cm1", "cm2"],
            if quick { 2.0 } else { 1800.0 },
        )
        .also_on(&["gurobi"]),
        SuitePart::new(
            vec!["circuit/scaling"],
            vec!["cm1"],
            if quick { 60.0 } else { 600.0 },
        ),
    ];
    if !quick {
        parts.push(SuitePart::new(vec!["circuit/cm3"], vec!["cm3"], 600.0));
    }
    parts.push(SuitePart::engines(
        if quick {
            vec!["circuit/comparison/5x5.txt"]
        } else {
            vec!["circuit/comparison/5x5.txt", "circuit/table_a_1/6x6.txt"]
        },
        vec!["cm1", "cm1-rowgen", "cm2"],
        if quick { 2.0 } else { 1800.0 },
        3,
        "Chosen by difficulty: two 5×5 boards of Table A.1's ladder, where HiGHS takes about 50 to 110 ms on cm2 in the quick suite (3×3 and 4×4 boards take it 1 to 13 ms: too easy), at a 2 s limit; the full suite adds the 6×6 boards (0.25 to 0.9 s) at 1800 s.",
    ));
    super::Suite { parts, repeats: 1 }
}

/// A cell of the grid: (row, column), from 0 at the top left.
pub type Cell = (usize, usize);

/// A link between two neighbouring cells, the upper or left one first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Link(pub Cell, pub Cell);

impl Link {
    /// The link between two cells, ordered; `None` unless they are neighbours.
    pub fn new(a: Cell, b: Cell) -> Option<Link> {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        let neighbours = (a.0 == b.0 && a.1 + 1 == b.1) || (a.1 == b.1 && a.0 + 1 == b.0);
        neighbours.then_some(Link(a, b))
    }

    /// True for a link between two cells of one row.
    pub fn horizontal(self) -> bool {
        self.0 .0 == self.1 .0
    }
}

/// A Circuit Board instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circuit {
    /// Instance name.
    pub name: String,
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// `blocked[r * cols + c]` is true when cell (r, c) is blacked out (no point).
    pub blocked: Vec<bool>,
    /// The given links (the report's set H), sorted.
    pub given: Vec<Link>,
    /// The endpoints s and t of the shortest-path variant (CM3), if the board names them.
    pub endpoints: Option<(Cell, Cell)>,
    /// Whether the board is known to have exactly one solution (`unique yes|no` in the
    /// file), `None` when not recorded.
    pub unique: Option<bool>,
    /// A solution recorded with the board (every link of the tree), if any.
    pub solution: Option<Vec<Link>>,
}

impl Circuit {
    /// Whether (r, c) is a point (inside the grid and not blacked out).
    pub fn is_point(&self, (r, c): Cell) -> bool {
        r < self.rows && c < self.cols && !self.blocked[r * self.cols + c]
    }

    /// Number of points (the report's |V|).
    pub fn points(&self) -> usize {
        self.blocked.iter().filter(|b| !**b).count()
    }

    /// Draws the board with `links` in the text format's drawing: points `o` (or `S`, `T`),
    /// blacked-out cells `#`, links `-` and `|`, `.` where a vertical link could be but is not.
    pub fn draw(&self, links: &[Link]) -> String {
        let w = 2 * self.cols - 1;
        let mut g = vec![vec![' '; w]; 2 * self.rows - 1];
        for r in 0..self.rows {
            for c in 0..self.cols {
                g[2 * r][2 * c] = if self.is_point((r, c)) { 'o' } else { '#' };
                if r + 1 < self.rows {
                    g[2 * r + 1][2 * c] = '.';
                }
            }
        }
        if let Some((s, t)) = self.endpoints {
            g[2 * s.0][2 * s.1] = 'S';
            g[2 * t.0][2 * t.1] = 'T';
        }
        for &Link(a, b) in links {
            if a.0 == b.0 {
                g[2 * a.0][2 * a.1 + 1] = '-';
            } else {
                g[2 * a.0 + 1][2 * a.1] = '|';
            }
        }
        g.iter()
            .map(|row| row.iter().collect::<String>().trim_end().to_string() + "\n")
            .collect()
    }

    /// The board in the text format (with its solution block when it has one).
    pub fn to_text(&self) -> String {
        let mut s = format!("puzzle {}\n", self.name);
        if let Some(u) = self.unique {
            s.push_str(&format!("unique {}\n", if u { "yes" } else { "no" }));
        }
        s.push_str(&format!("grid {} {}\n", self.rows, self.cols));
        s.push_str(&self.draw(&self.given));
        if let Some(sol) = &self.solution {
            s.push_str("solution\n");
            s.push_str(&self.draw(sol));
        }
        s
    }

    /// The answer for the links of a tree (and, for CM3, the s–t path as cells from s to t):
    /// JSON, drawing and the verifier's verdict.
    pub fn answer(&self, links: Vec<Link>, path: Option<Vec<Cell>>) -> Answer {
        let verdict = verify::check(self, &links, path.as_deref());
        let json_links: Vec<[usize; 4]> = links
            .iter()
            .map(|Link(a, b)| [a.0, a.1, b.0, b.1])
            .collect();
        let mut json = serde_json::json!({ "links": json_links });
        let mut text = self.draw(&links);
        if let Some(p) = &path {
            json["path"] = serde_json::json!(p.iter().map(|c| [c.0, c.1]).collect::<Vec<_>>());
            text.push_str(&format!("s-t path: {} links\n", p.len().saturating_sub(1)));
        }
        Answer {
            verdict,
            text,
            json,
        }
    }
}

use super::Answer;

impl Instance for Circuit {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        let mut c = self.clone();
        c.solution = None;
        c.unique = None;
        c.name = String::new();
        c.to_text()
    }

    fn size_label(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }

    fn size(&self) -> f64 {
        self.points() as f64
    }

    fn info(&self) -> String {
        let g = graph::Graph::new(self);
        let mut s = format!(
            "points={};links={};given={}",
            g.n(),
            g.edges.len(),
            self.given.len()
        );
        if let Some(u) = self.unique {
            s.push_str(&format!(";unique={}", if u { "yes" } else { "no" }));
        }
        s
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let links: Option<Vec<Link>> = answer.and_then(|a| {
            let raw: Vec<[usize; 4]> = serde_json::from_value(a.json["links"].clone()).ok()?;
            raw.iter()
                .map(|l| Link::new((l[0], l[1]), (l[2], l[3])))
                .collect()
        });
        let path: Option<Vec<Cell>> = answer.and_then(|a| {
            let raw: Vec<[usize; 2]> = serde_json::from_value(a.json["path"].clone()).ok()?;
            Some(raw.iter().map(|c| (c[0], c[1])).collect())
        });
        Some(picture::svg(self, links.as_deref(), path.as_deref()))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
