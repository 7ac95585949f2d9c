//! The readers of a defined engine's answer, one file each: what a solver's solution
//! file or standard output says (a status, where it says one, and the values of the
//! columns it names). A reader reads text only; the engine maps names to columns,
//! fills in what the answer left out and decides the run's status
//! ([`super::DefinedEngine`]).

pub mod cbc;
pub mod cplex_xml;
pub mod glpk;
pub mod highs;
pub mod minisat;
pub mod name_value;
pub mod pb_competition;
pub mod sat_competition;
pub mod scip;

use std::fmt;

/// What an answer says about how the solve ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    /// Proven optimal (or, for a SAT solver's call, nothing to prove beyond a model).
    Optimal,
    /// A solution, not proven optimal (a SAT solver's "satisfiable").
    Feasible,
    /// Proven infeasible (unsatisfiable).
    Infeasible,
    /// Stopped by its limit (its values, where it gives some, are an incumbent).
    TimeLimit,
    /// The solver says it failed, and why.
    Error(String),
}

/// What a reader found in an answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    /// The status the answer states, if it states one.
    pub status: Option<Said>,
    /// The values it gives, by column name (`None`: it gives no solution at all).
    pub values: Option<Vec<(String, f64)>>,
}

/// A line of an answer that does not parse.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    /// Its line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub why: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

/// Where a reader finds the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The solution file the command names with `{solution}`.
    File,
    /// The program's standard output.
    Stdout,
}

/// The readers a definition's `reader` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// `name value` lines, as Gurobi's `.sol` and the MIPLIB solution checker write
    /// ([`name_value`]).
    NameValue,
    /// CBC's solution file ([`cbc`]).
    Cbc,
    /// glpsol's plain solution file, `-w` ([`glpk`]).
    Glpk,
    /// The SAT competition's `s` and `v` lines on standard output ([`sat_competition`]).
    SatCompetition,
    /// The PB competition's `s`, `o` and `v` lines on standard output
    /// ([`pb_competition`]).
    PbCompetition,
    /// MiniSat's result file: `SAT`, `UNSAT` or `INDET`, then the literals ([`minisat`]).
    Minisat,
    /// HiGHS's raw solution file, `--solution_file` ([`highs`]).
    Highs,
    /// SCIP's solution file, `write solution` ([`scip`]).
    Scip,
    /// CPLEX's XML solution file, `write FILE.sol` ([`cplex_xml`]).
    CplexXml,
}

impl Reader {
    /// The keys a definition's `reader` takes.
    pub const KEYS: &'static [&'static str] = &[
        "name-value",
        "cbc",
        "glpk",
        "sat-competition",
        "pb-competition",
        "minisat",
        "highs",
        "scip",
        "cplex-xml",
    ];

    /// The reader of key `key`.
    pub fn from_key(key: &str) -> Option<Reader> {
        match key {
            "name-value" => Some(Reader::NameValue),
            "cbc" => Some(Reader::Cbc),
            "glpk" => Some(Reader::Glpk),
            "sat-competition" => Some(Reader::SatCompetition),
            "pb-competition" => Some(Reader::PbCompetition),
            "minisat" => Some(Reader::Minisat),
            "highs" => Some(Reader::Highs),
            "scip" => Some(Reader::Scip),
            "cplex-xml" => Some(Reader::CplexXml),
            _ => None,
        }
    }

    /// Its key.
    pub fn key(self) -> &'static str {
        match self {
            Reader::NameValue => "name-value",
            Reader::Cbc => "cbc",
            Reader::Glpk => "glpk",
            Reader::SatCompetition => "sat-competition",
            Reader::PbCompetition => "pb-competition",
            Reader::Minisat => "minisat",
            Reader::Highs => "highs",
            Reader::Scip => "scip",
            Reader::CplexXml => "cplex-xml",
        }
    }

    /// Where it reads by default (a definition's `answer` may say otherwise).
    pub fn default_source(self) -> Source {
        match self {
            Reader::SatCompetition | Reader::PbCompetition => Source::Stdout,
            _ => Source::File,
        }
    }

    /// Reads `text`; `is_column` tells the names of the model's columns (a `name value`
    /// answer on standard output has other lines too).
    pub fn read(self, text: &str, is_column: &dyn Fn(&str) -> bool) -> Result<Reading, ParseError> {
        match self {
            Reader::NameValue => name_value::read(text, is_column),
            Reader::Cbc => cbc::read(text),
            Reader::Glpk => glpk::read(text),
            Reader::SatCompetition => sat_competition::read(text),
            Reader::PbCompetition => pb_competition::read(text),
            Reader::Minisat => minisat::read(text),
            Reader::Highs => highs::read(text),
            Reader::Scip => scip::read(text),
            Reader::CplexXml => cplex_xml::read(text),
        }
    }
}

/// A number of an answer, or why it is none.
pub(crate) fn number(word: &str, what: &str) -> Result<f64, String> {
    word.parse::<f64>()
        .ok()
        .filter(|x| !x.is_nan())
        .ok_or_else(|| format!("{what}: '{word}' is not a number"))
}

/// The values of DIMACS literals (`3` true, `-3` false) as `name value` pairs, up to a
/// closing `0`; the error names the first word that is no literal.
pub(crate) fn dimacs_literals<'a>(
    words: impl Iterator<Item = &'a str>,
    out: &mut Vec<(String, f64)>,
) -> Result<bool, String> {
    for w in words {
        let l: i64 = w
            .parse()
            .map_err(|_| format!("'{w}' is not a DIMACS literal"))?;
        if l == 0 {
            return Ok(true);
        }
        out.push((l.unsigned_abs().to_string(), if l > 0 { 1.0 } else { 0.0 }));
    }
    Ok(false)
}
