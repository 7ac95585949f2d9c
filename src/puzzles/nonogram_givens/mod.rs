//! Fewest givens for a unique nonogram: for a nonogram and its intended picture P, the
//! fewest cells to show from the start (each with P's colour, black or white) such that P
//! is the only solution of the clues and the givens. The paper "Nonokenken" (seed 004,
//! section 3.3) leaves it open: pictures turned into clues often have several solutions,
//! and "further work on the topic is necessary to determine the number of additional
//! constraints required".
//!
//! It is the question minimum-clue Sudoku asks of a grid, and it is solved by the same
//! row generation ([`fewest_clues`]): the leader, on the run's engine, is the hitting-set
//! program min Σ y over rows Σ_{c ∈ U} y_c ≥ 1, one per unavoidable set U (the cells where
//! another solution of the clues differs from P: a unique puzzle shows one of them); the
//! follower is Bosch's nonogram model as clauses in CaDiCaL with the clause "some cell
//! differs from P", the leader's givens as assumptions. Every other solution it finds
//! gives a new unavoidable set, shrunk to a minimal one. The nonogram's side of the
//! search (the instance type, follower, seeds and the greedy answer) is in the nonogram
//! module ([`crate::puzzles::nonogram::givens`]), since the nonogram generator uses it
//! too (`generate nonogram --givens`); this folder makes it a puzzle of the benchmark.
//!
//! Formulations:
//! * `rowgen`: the leader seeded with the unavoidable sets found in small regions (every
//!   other solution that changes only two rows, or only two columns, or a 4×4 window,
//!   shrunk to minimal sets);
//! * `rowgen-plain`: the same loop without seeding: every row comes from the follower.
//!
//! The verifier ([`verify`]) shares no code with either: its own line solver with
//! backtracking counts the solutions of clues and givens (no SAT, no model), requires
//! exactly one, equal to P, and on pictures of at most [`verify::BRUTE_FORCE_CELLS`]
//! cells checks a claimed minimum by trying every smaller set of givens.

pub mod parse;
pub mod tables;
pub mod verify;

pub use super::nonogram::givens::NonogramGivens;

use super::fewest_clues::{self, Target};
use super::{Answer, Formulation, Instance, PuzzleDef, Run, SuitePart};
use crate::engines::Kind;

/// The registry entry of nonogram givens.
pub static PUZZLE: PuzzleDef<NonogramGivens> = PuzzleDef {
    key: "nonogram-givens",
    description: "fewest givens for a unique nonogram: the fewest cells of a picture to show so that it is the puzzle's only solution (Nonokenken's open question)",
    formulations: &[
        Formulation {
            key: "rowgen",
            description: "leader: y[i,j] = 1 iff cell (i,j) is shown with the picture's colour, min sum y, one row sum_{c in U} y_c >= 1 per unavoidable set U (seeded with those of small regions); follower: CaDiCaL on the dfa model with the givens, differing from the picture, whose other solutions add rows",
            kind: Kind::RowGeneration,
            build: |p| Ok(fewest_clues::build(p, true, false, None).0),
            solve: |p, run: &Run| {
                fewest_clues::solve(p, run, true, &|g, m| answer(p, g, m), &|set| {
                    verify::unavoidable(p, set)
                })
            },
        },
        Formulation {
            key: "rowgen-plain",
            description: "rowgen without seeding: the leader starts with no rows and every unavoidable set comes from the follower",
            kind: Kind::RowGeneration,
            build: |p| Ok(fewest_clues::build(p, false, false, None).0),
            solve: |p, run: &Run| {
                fewest_clues::solve(p, run, false, &|g, m| answer(p, g, m), &|set| {
                    verify::unavoidable(p, set)
                })
            },
        },
    ],
    formats: "a nonogram with its intended picture, in the nonogram formats: the webpbn .non format with its goal \
              ('====' between bundled puzzles), or the text format with a 'picture' block; givens the file shows \
              (the .non key 'givens', the text block 'givens') are the first clues the search starts from",
    hidden: false,
    parse: parse::parse_file,
    size_unit: "cells",
    tables: tables::tables,
    suite,
    generator: None,
    user: None,
};

/// The committed pictures with several solutions (the three random 50×50 pictures, the
/// squares smiley) and twenty random 20×20 pictures, both formulations on the default
/// engine, `hitset` and `sat`, at 60 s; every engine on the smiley (quick) or also the
/// first random 50×50 picture (full). The full suite adds twenty random pictures of each
/// of 10×10, 30×30, 40×40 and 50×50, at 600 s.
fn suite(quick: bool) -> super::Suite {
    let mut pictures = vec![
        "nonogram/made/smiley_squares_20x20.non",
        "nonogram/large/random_50x50_s1.non",
        "nonogram/large/random_50x50_s2.non",
        "nonogram/large/random_50x50_s3.non",
        "nonogram-givens/random/random_20x20.non",
    ];
    let mut compared = vec!["nonogram/made/smiley_squares_20x20.non"];
    if !quick {
        pictures.extend([
            "nonogram-givens/random/random_10x10.non",
            "nonogram-givens/random/random_30x30.non",
            "nonogram-givens/random/random_40x40.non",
            "nonogram-givens/random/random_50x50.non",
        ]);
        compared.push("nonogram/large/random_50x50_s1.non");
    }
    super::Suite {
        parts: vec![
            SuitePart::new(
                pictures,
                vec!["rowgen", "rowgen-plain"],
                if quick { 60.0 } else { 600.0 },
            )
            .also_on(&["hitset", "sat"]),
            SuitePart::engines(
                compared,
                vec!["rowgen", "rowgen-plain"],
                if quick { 10.0 } else { 60.0 },
                3,
                "Chosen by difficulty: the committed pictures with the most solutions, the squares smiley (20×20, 90 solutions; hitset proves its minimum in about 0.1 s) and, in the full suite, the first random 50×50 picture (64 solutions; a few seconds), at 10 s (quick) or 60 s.",
            ),
        ],
        repeats: 1,
    }
}

/// The answer for the givens `givens` (row-major) of `p`, checked by the verifier;
/// `minimal` says the run claims it is a minimum, which the verifier checks by brute
/// force on tiny pictures. As JSON: `{"givens": ["?#??", ...], "count": K}`.
pub fn answer(p: &NonogramGivens, givens: &[bool], minimal: bool) -> Answer {
    let lines = p.lines(givens);
    let count = fewest_clues::count(givens);
    Answer {
        text: format!("{count} givens\n{}\n", lines.join("\n")),
        verdict: verify::check(p, &lines, minimal),
        json: serde_json::json!({ "givens": lines, "count": count }),
    }
}

impl Instance for NonogramGivens {
    fn name(&self) -> &str {
        &self.name
    }

    fn canonical(&self) -> String {
        let mut p = self.puzzle.clone();
        p.goal = Some(self.picture.clone());
        if let Some(start) = &self.start {
            p = self.with_givens(start);
        }
        p.to_non("")
    }

    fn size_label(&self) -> String {
        format!("{}x{}", self.width(), self.height())
    }

    fn size(&self) -> f64 {
        (self.width() * self.height()) as f64
    }

    fn info(&self) -> String {
        let black: usize = self.picture.iter().flatten().filter(|&&b| b).count();
        let mut info = vec![format!("black={black}")];
        if let Some(s) = &self.start {
            info.push(format!("start={}", fewest_clues::count(s)));
        }
        info.join(";")
    }

    fn svg(&self, answer: Option<&Answer>) -> Option<String> {
        let lines: Option<Vec<String>> =
            answer.and_then(|a| serde_json::from_value(a.json["givens"].clone()).ok());
        let givens: Vec<bool> = match &lines {
            Some(l) => l.iter().flat_map(|r| r.chars().map(|c| c != '?')).collect(),
            None => self
                .start
                .clone()
                .unwrap_or_else(|| vec![false; self.cells()]),
        };
        Some(super::nonogram::picture::svg(
            &self.with_givens(&givens),
            Some(&self.picture),
        ))
    }

    fn puzzle() -> &'static PuzzleDef<Self> {
        &PUZZLE
    }
}
