//! The Circuit Board game (report chapter 5): a grid whose cells are points or blacked
//! out; join all points by horizontal and vertical links into a tree (connected, no
//! enclosed area) in which every point has one or three links, keeping the given links.
//! The shortest-path variant (CM3) also names two points s and t and asks for a tree
//! whose s–t path is as short as any tree allows.
//!
//! Formulations: [`cm1`] (the report's spanning-tree model (5.1), subtour elimination
//! rows added lazily in the project's branch and cut, with propagation and probing;
//! `cm1-lazy` the same branch and cut with the lazy rows alone), [`cm1_rowgen`] (the same
//! rows added by re-solving the integer program, on any backend), [`cm1_full`] (every subtour
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
pub mod verify;

use super::{FormulationInfo, InputError, Instance, PuzzleInfo, Report};
use crate::backends::{Backend, SolveOptions};
use crate::model::Model;
use std::path::Path;

/// The registry row of the Circuit Board game.
pub const INFO: PuzzleInfo = PuzzleInfo {
    key: "circuit",
    description: "Circuit Board: join all points of a grid into a tree with degrees 1 or 3, keeping the given links",
    formulations: &[
        FormulationInfo {
            key: "cm1",
            description: "x[e] = 1 iff link e is in the tree, y[i] = 1 iff point i has degree 3; subtour rows (5.1e) added lazily by branch and cut (report (5.1)); HiGHS simplex underneath",
        },
        FormulationInfo {
            key: "cm1-lazy",
            description: "cm1's model and branch and cut with the lazy subtour rows only: no tree propagation, no probing",
        },
        FormulationInfo {
            key: "cm1-rowgen",
            description: "cm1's model with the subtour rows added by re-solving the integer program after each round (any backend)",
        },
        FormulationInfo {
            key: "cm1-full",
            description: "cm1's model with all 2^|V| - 2 subtour rows written out (boards of at most 16 points)",
        },
        FormulationInfo {
            key: "cm2",
            description: "flow x[i,j] >= 0 on each arc, z[e] = 1 iff link e is used, y[i] degree 3; single-commodity flow with M = |V| - 1 (report (5.2))",
        },
        FormulationInfo {
            key: "cm3",
            description: "cm1 plus p[e] = 1 iff link e is on the s-t path, u[i] = 1 iff point i is on it; minimises the path (report (5.3)); boards with S and T",
        },
    ],
    formats: "text: 'grid R C', then 2R-1 lines drawing the board: 'o' point, '#' blacked out, 'S'/'T' the \
              endpoints of the shortest-path variant, '-' and '|' given links, '.' or ' ' no link; optional \
              'puzzle NAME', 'unique yes|no', 'solution' block in the same drawing; '#' comments at line start",
    hidden: false,
    load,
    tables: tables::tables,
    suite,
};

/// Five boards per size 3×3 … 10×10 as in report Tables A.1–A.2, CM1 and CM2 (and
/// their LP relaxations, Table A.3), then the boards beyond the report (12×12, 15×15,
/// 20×20) with CM1 alone. The quick suite gives CM2 a 5 s limit (the report stopped it at
/// 1800 s from 62 points on); the full suite uses the report's 1800 s and adds the
/// shortest-path boards with CM3. With 16 boards at that limit the full suite takes about
/// 8 hours, so it runs every run once.
fn suite(quick: bool) -> super::Suite {
    let mut extra = vec![super::SuitePart {
        instances: vec!["circuit/scaling"],
        formulations: vec!["cm1"],
        time_limit: if quick { 60.0 } else { 600.0 },
    }];
    if !quick {
        extra.push(super::SuitePart {
            instances: vec!["circuit/cm3"],
            formulations: vec!["cm3"],
            time_limit: 600.0,
        });
    }
    super::Suite {
        instances: vec!["circuit/table_a_1"],
        formulations: vec!["cm1", "cm2"],
        repeats: 1,
        time_limit: if quick { 5.0 } else { 1800.0 },
        presolve: vec![true],
        own_backend: vec![],
        extra,
    }
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

fn load(path: &Path) -> Result<Vec<Box<dyn Instance>>, InputError> {
    super::load_with(path, parse::parse_file)
}

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

    fn build(&self, formulation: &str) -> Result<Model, String> {
        let g = graph::Graph::new(self);
        match formulation {
            "cm1" | "cm1-lazy" | "cm1-rowgen" => Ok(cm1::build(&g).0),
            "cm1-full" => Ok(cm1_full::build(&g)?.0),
            "cm2" => Ok(cm2::build(&g).0),
            "cm3" => Ok(cm3::build(self, &g)?.0),
            other => Err(INFO.formulation(other).map(|_| ()).unwrap_err()),
        }
    }

    fn solve(
        &self,
        formulation: &str,
        backend: Backend,
        options: &SolveOptions,
    ) -> Result<Report, String> {
        let g = graph::Graph::new(self);
        match formulation {
            "cm1" => Ok(cm1::solve(self, &g, backend, options, true)),
            "cm1-lazy" => Ok(cm1::solve(self, &g, backend, options, false)),
            "cm1-rowgen" => Ok(cm1_rowgen::solve(self, &g, backend, options)),
            "cm1-full" => Ok(cm1_full::solve(self, &g, backend, options)),
            "cm2" => Ok(cm2::solve(self, &g, backend, options)),
            "cm3" => Ok(cm3::solve(self, &g, backend, options)),
            other => Err(INFO.formulation(other).map(|_| ()).unwrap_err()),
        }
    }
}
