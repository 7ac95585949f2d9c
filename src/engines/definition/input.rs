//! Which file a defined engine's program reads ([`Input`]): free MPS, CPLEX LP, OPB
//! (pseudo-Boolean) or DIMACS CNF, written by [`crate::formats`], always as a
//! minimisation (a maximising model's objective is negated; the objective of an answer
//! is costed from its values on the model itself, so nothing is lost), with its columns
//! named by position so that an answer maps back by name: `C0`, `C1`, ... in MPS and LP,
//! `x1`, `x2`, ... in OPB (the PB competition's names), DIMACS variable j + 1 for
//! column j in CNF.

/// The format of the file a definition's program reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Free MPS (columns `C0`, rows `R0`, no `OBJSENSE`, no objective constant).
    Mps,
    /// CPLEX LP (columns `C0`, rows `R0`, `Minimize`).
    Lp,
    /// OPB, the PB competition's pseudo-Boolean format (columns `x1`, ...): 0/1 models
    /// with whole coefficients.
    Opb,
    /// DIMACS CNF through the project's clause encoding ([`crate::engines::cnf`]): 0/1
    /// models with whole coefficients; an objective by solution-improving calls.
    Cnf,
    /// A driver program: the model goes over as free MPS by the driver protocol
    /// (docs/driver-protocol.md), and the driver answers in it.
    Driver,
}

impl Input {
    /// The keys a definition's `input` takes.
    pub const KEYS: &'static [&'static str] = &["mps", "lp", "opb", "cnf", "driver"];

    /// The input of key `key`.
    pub fn from_key(key: &str) -> Option<Input> {
        match key {
            "mps" => Some(Input::Mps),
            "lp" => Some(Input::Lp),
            "opb" => Some(Input::Opb),
            "cnf" => Some(Input::Cnf),
            "driver" => Some(Input::Driver),
            _ => None,
        }
    }

    /// Its key.
    pub fn key(self) -> &'static str {
        match self {
            Input::Mps => "mps",
            Input::Lp => "lp",
            Input::Opb => "opb",
            Input::Cnf => "cnf",
            Input::Driver => "driver",
        }
    }

    /// The suffix of the model file (some programs tell formats by it).
    pub fn suffix(self) -> &'static str {
        match self {
            Input::Mps | Input::Driver => ".mps",
            Input::Lp => ".lp",
            Input::Opb => ".opb",
            Input::Cnf => ".cnf",
        }
    }

    /// True for the formats of 0/1 models with whole coefficients (OPB, CNF).
    pub fn binary_only(self) -> bool {
        matches!(self, Input::Opb | Input::Cnf)
    }

    /// The name of column `j` in files of this format (DIMACS: its variable number).
    pub fn column_name(self, j: usize) -> String {
        match self {
            Input::Mps | Input::Lp | Input::Driver => format!("C{j}"),
            Input::Opb => format!("x{}", j + 1),
            Input::Cnf => format!("{}", j + 1),
        }
    }
}
