//! MPS: the reader ([`parse_mps`]) and the writers ([`write()`], [`write_plain`],
//! [`write_minimisation`]).
//!
//! The reader follows the MPS format as lp_solve's and CPLEX's documentation describe it,
//! and reads what HiGHS, PuLP and this module's writers write.
//!
//! # Lines
//!
//! Lines are split at whitespace, so free MPS is read, and fixed MPS too as long as no
//! name contains a space (fixed MPS allows spaces inside its fixed-width name fields;
//! such files are not supported). A line starting with `*` is a comment; blank lines are
//! skipped. A section header starts in the first column; data lines start with a space
//! or tab.
//!
//! # Sections
//!
//! * `NAME [name]`: the model's name (the file's stem when absent).
//! * `OBJSENSE`, its value (`MIN`, `MAX`, `MINIMIZE`, `MAXIMIZE`) on the same line or on
//!   the next data line.
//! * `ROWS`: `N`, `E`, `L`, `G`. The first `N` row is the objective; further `N` rows are
//!   ignored together with their entries in `COLUMNS`, `RHS` and `RANGES` (as CPLEX and
//!   HiGHS do), so a free row written by [`write()`] does not come back.
//! * `COLUMNS`: `column row value [row value]`; integer blocks between
//!   `MARKER 'MARKER' 'INTORG'` and `'INTEND'` lines (quotes optional). Columns are in
//!   order of first appearance; a repeated entry for one row is summed.
//! * `RHS` and `RANGES`: `[set] row value [row value]` (the set name may be left out:
//!   an odd number of fields means it is there). Only the first set named is used, as
//!   lp_solve and CPLEX document; lines of other sets are skipped. The objective row's
//!   RHS is minus the objective's constant: `objective_offset = -rhs`, as CPLEX and HiGHS
//!   read it (GLPK reads it with the other sign; [`write()`] writes `-offset`).
//! * `RANGES` (R for a row with right-hand side r): `L` rows get `[r - |R|, r]`, `G` rows
//!   `[r, r + |R|]`, `E` rows `[r, r + R]` when R > 0 and `[r + R, r]` when R < 0 (R = 0
//!   keeps the equality).
//! * `BOUNDS`: `type [set] column [value]` with `UP`, `LO`, `FX`, `FR`, `MI`, `PL`,
//!   `BV` (integer, 0..1), `LI`, `UI` (integer, lower or upper). `MI` leaves the upper
//!   bound alone (some old readers set it to 0). The classic rule for a negative upper
//!   bound: `UP` or `UI` with a value below 0 on a column whose lower bound was not given
//!   sets the lower bound to -inf (CPLEX documents this, with a warning; HiGHS does the
//!   same). Integer columns from `MARKER` blocks have default bounds 0 and +inf, the
//!   modern convention of CPLEX and HiGHS (some older readers use 1 as the default
//!   upper bound, which is why [`write()`] writes `PL` for them); one whose bounds
//!   end up 0 and 1 is [`VarKind::Binary`](crate::model::VarKind).
//! * `ENDATA` ends the file; a file without it is refused as cut short.
//!
//! # Refused, with the line
//!
//! `SC` bounds (semi-continuous), unknown sections (`SOS`, `QUADOBJ`, `QMATRIX`,
//! `QCMATRIX`, `INDICATORS`, `OBJSENSE`-less cousins such as `OBJNAME` too), a column
//! entry on an undeclared row, a bound on an unknown column, a duplicate row name, a
//! number that does not parse, a line with the wrong number of fields.
//!
//! # Writers' quirks
//!
//! PuLP (3.3.2) writes no `OBJSENSE` section: the sense is only in a first comment
//! line `*SENSE:Maximize` (or `*SENSE:Minimize`). Standard readers ignore it and read a
//! maximisation as a minimisation; this reader honours that comment when the file has
//! no `OBJSENSE` section (an `OBJSENSE` section wins). PuLP drops the objective's
//! constant (no RHS on the objective row), writes each integer column in a `MARKER`
//! block of its own (marker lines named `MARK`), binaries as `BV` bounds, and an
//! objective without variables through a column `__dummy` fixed to 0 (it reads back as
//! one more column). [`write_plain`] names columns `C0, C1, ...` and rows
//! `R0, R1, ...` and writes neither sense nor constant; [`write()`] writes a
//! column with a negative upper bound and lower bound 0 as `LO 0` and `UP`, so that the
//! rule above does not apply to it.

use super::{num, stem, Draft, Errors, ReadError, RowDraft};
use crate::model::{Model, Row, Sense, VarKind};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Part {
    Start,
    ObjSense,
    Rows,
    Columns,
    Rhs,
    Ranges,
    Bounds,
}

/// What a row name stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RowRef {
    Objective,
    /// A further `N` row: ignored.
    Ignored,
    Row(usize, char),
}

fn number(s: &str, line: usize, err: &Errors) -> Result<f64, ReadError> {
    match s.parse::<f64>() {
        Ok(v) if !v.is_nan() => Ok(v),
        _ => Err(err.at(line, format!("`{s}` is not a number"))),
    }
}

fn finite(s: &str, line: usize, err: &Errors) -> Result<f64, ReadError> {
    let v = number(s, line, err)?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(err.at(line, format!("the coefficient `{s}` is not finite")))
    }
}

fn unquote(s: &str) -> &str {
    s.trim_matches('\'').trim_matches('"')
}

/// Reads a model in free (or fixed, without spaces in names) MPS format; `file` names it
/// in errors.
pub fn parse_mps(text: &str, file: &Path) -> Result<Model, ReadError> {
    let err = Errors::new(file);
    let mut d = Draft::new();
    let mut name: Option<String> = None;
    let mut sense = Sense::Minimize;
    let mut objective: Option<String> = None;
    let mut rows: HashMap<String, RowRef> = HashMap::new();
    let mut part = Part::Start;
    let mut in_int = false;
    let mut rhs_set: Option<String> = None;
    let mut range_set: Option<String> = None;
    let mut bound_set: Option<String> = None;
    let mut rhs: Vec<f64> = Vec::new();
    let mut ranges: Vec<Option<f64>> = Vec::new();
    let mut offset = 0.0;
    let mut ended = false;
    let mut any = false;
    let mut objsense_given = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.starts_with('*') || raw.trim().is_empty() {
            // PuLP's sense comment, used unless an OBJSENSE section says otherwise.
            if !objsense_given {
                match raw.trim() {
                    "*SENSE:Maximize" => sense = Sense::Maximize,
                    "*SENSE:Minimize" => sense = Sense::Minimize,
                    _ => {}
                }
            }
            continue;
        }
        any = true;
        let fields: Vec<&str> = raw.split_whitespace().collect();
        let header = !raw.starts_with([' ', '\t']);
        if header {
            let key = fields[0].to_ascii_uppercase();
            part = match key.as_str() {
                "NAME" => {
                    let rest = raw[4.min(raw.len())..].trim();
                    if !rest.is_empty() {
                        name = Some(rest.to_string());
                    }
                    Part::Start
                }
                "OBJSENSE" => {
                    objsense_given = true;
                    if fields.len() > 1 {
                        sense = objsense(&fields[1..], line, &err)?;
                        Part::Start
                    } else {
                        Part::ObjSense
                    }
                }
                "ROWS" => Part::Rows,
                "COLUMNS" => Part::Columns,
                "RHS" => Part::Rhs,
                "RANGES" => Part::Ranges,
                "BOUNDS" => Part::Bounds,
                "ENDATA" => {
                    ended = true;
                    break;
                }
                "SOS" | "QUADOBJ" | "QMATRIX" | "QSECTION" | "QCMATRIX" | "CSECTION"
                | "INDICATORS" | "OBJSENSE_MAX" => {
                    return Err(err.at(line, format!("the section {key} is not supported")))
                }
                _ => {
                    return Err(err.at(
                        line,
                        format!(
                            "unknown section `{}` (data lines must start with a space)",
                            fields[0]
                        ),
                    ))
                }
            };
            if key != "NAME" && key != "OBJSENSE" && fields.len() > 1 {
                return Err(err.at(line, format!("unexpected text after {key}")));
            }
            continue;
        }
        match part {
            Part::Start => {
                return Err(err.at(line, "a data line before any section"));
            }
            Part::ObjSense => {
                sense = objsense(&fields, line, &err)?;
                part = Part::Start;
            }
            Part::Rows => {
                if fields.len() != 2 {
                    return Err(err.at(line, "a ROWS line must read `type name`"));
                }
                let kind = fields[0].to_ascii_uppercase();
                let row = fields[1];
                if rows.contains_key(row) {
                    return Err(err.at(line, format!("a second row named `{row}`")));
                }
                let r = match kind.as_str() {
                    "N" if objective.is_none() => {
                        objective = Some(row.to_string());
                        RowRef::Objective
                    }
                    "N" => RowRef::Ignored,
                    "E" | "L" | "G" => {
                        let (lower, upper) = match kind.as_str() {
                            "E" => (0.0, 0.0),
                            "L" => (f64::NEG_INFINITY, 0.0),
                            _ => (0.0, f64::INFINITY),
                        };
                        d.rows.push(RowDraft {
                            name: row.to_string(),
                            terms: Vec::new(),
                            lower,
                            upper,
                        });
                        rhs.push(0.0);
                        ranges.push(None);
                        RowRef::Row(d.rows.len() - 1, kind.chars().next().unwrap_or('E'))
                    }
                    _ => {
                        return Err(err.at(
                            line,
                            format!("unknown row type `{}` (N, E, L or G)", fields[0]),
                        ))
                    }
                };
                rows.insert(row.to_string(), r);
            }
            Part::Columns => {
                if fields.len() >= 2 && unquote(fields[1]).eq_ignore_ascii_case("MARKER") {
                    match fields
                        .get(2)
                        .map(|f| unquote(f).to_ascii_uppercase())
                        .as_deref()
                    {
                        Some("INTORG") if fields.len() == 3 => in_int = true,
                        Some("INTEND") if fields.len() == 3 => in_int = false,
                        _ => {
                            return Err(
                                err.at(line, "a MARKER line must end with 'INTORG' or 'INTEND'")
                            )
                        }
                    }
                    continue;
                }
                if fields.len() != 3 && fields.len() != 5 {
                    return Err(err.at(
                        line,
                        "a COLUMNS line must read `column row value [row value]`",
                    ));
                }
                let new = !d.index.contains_key(fields[0]);
                let j = d.var(fields[0]);
                if new && in_int {
                    d.vars[j].integer = true;
                }
                for pair in fields[1..].chunks(2) {
                    let v = finite(pair[1], line, &err)?;
                    match rows.get(pair[0]) {
                        None => {
                            return Err(err.at(
                                line,
                                format!("the row `{}` is not declared in ROWS", pair[0]),
                            ))
                        }
                        Some(RowRef::Objective) => d.vars[j].objective += v,
                        Some(RowRef::Ignored) => {}
                        Some(RowRef::Row(r, _)) => d.rows[*r].terms.push((j, v)),
                    }
                }
            }
            Part::Rhs | Part::Ranges => {
                let what = if part == Part::Rhs { "RHS" } else { "RANGES" };
                if !(2..=5).contains(&fields.len()) {
                    return Err(err.at(
                        line,
                        format!("a {what} line must read `[set] row value [row value]`"),
                    ));
                }
                let (set, pairs) = if fields.len() % 2 == 1 {
                    (fields[0], &fields[1..])
                } else {
                    ("", &fields[..])
                };
                let chosen = if part == Part::Rhs {
                    &mut rhs_set
                } else {
                    &mut range_set
                };
                if chosen.get_or_insert_with(|| set.to_string()) != set {
                    continue;
                }
                for pair in pairs.chunks(2) {
                    let v = number(pair[1], line, &err)?;
                    match (rows.get(pair[0]), part) {
                        (None, _) => {
                            return Err(err.at(
                                line,
                                format!("the row `{}` is not declared in ROWS", pair[0]),
                            ))
                        }
                        (Some(RowRef::Objective), Part::Rhs) => offset = -v,
                        (Some(RowRef::Objective | RowRef::Ignored), _) => {}
                        (Some(RowRef::Row(r, _)), Part::Rhs) => rhs[*r] = v,
                        (Some(RowRef::Row(r, _)), _) => ranges[*r] = Some(v),
                    }
                }
            }
            Part::Bounds => {
                bound(&fields, line, &mut d, &mut bound_set, &err)?;
            }
        }
    }
    if !any {
        return Err(err.at(0, "empty file: no sections"));
    }
    if !ended {
        return Err(err.at(0, "no ENDATA: the file is cut short"));
    }
    if part == Part::ObjSense {
        return Err(err.at(0, "OBJSENSE without a value"));
    }
    // Sides from the row type, the RHS and the range.
    let kinds: HashMap<usize, char> = rows
        .values()
        .filter_map(|r| match r {
            RowRef::Row(i, k) => Some((*i, *k)),
            _ => None,
        })
        .collect();
    for (i, row) in d.rows.iter_mut().enumerate() {
        let r = rhs[i];
        let kind = kinds.get(&i).copied().unwrap_or('E');
        let (lower, upper) = match (kind, ranges[i]) {
            ('L', None) => (f64::NEG_INFINITY, r),
            ('G', None) => (r, f64::INFINITY),
            (_, None) => (r, r),
            ('L', Some(rr)) => (r - rr.abs(), r),
            ('G', Some(rr)) => (r, r + rr.abs()),
            (_, Some(rr)) if rr >= 0.0 => (r, r + rr),
            (_, Some(rr)) => (r + rr, r),
        };
        row.lower = lower;
        row.upper = upper;
    }
    Ok(d.finish(name.unwrap_or_else(|| stem(file)), sense, offset))
}

fn objsense(fields: &[&str], line: usize, err: &Errors) -> Result<Sense, ReadError> {
    match fields {
        [s] => match s.to_ascii_uppercase().as_str() {
            "MIN" | "MINIMIZE" | "MINIMISE" => Ok(Sense::Minimize),
            "MAX" | "MAXIMIZE" | "MAXIMISE" => Ok(Sense::Maximize),
            _ => Err(err.at(line, format!("unknown objective sense `{s}` (MIN or MAX)"))),
        },
        _ => Err(err.at(line, "OBJSENSE takes one value, MIN or MAX")),
    }
}

/// One line of the `BOUNDS` section.
fn bound(
    fields: &[&str],
    line: usize,
    d: &mut Draft,
    chosen: &mut Option<String>,
    err: &Errors,
) -> Result<(), ReadError> {
    let kind = fields[0].to_ascii_uppercase();
    let valued = match kind.as_str() {
        "UP" | "LO" | "FX" | "LI" | "UI" => true,
        "FR" | "MI" | "PL" | "BV" => false,
        "SC" => return Err(err.at(line, "semi-continuous bounds (SC) are not supported")),
        _ => {
            return Err(err.at(
                line,
                format!(
                    "unknown bound type `{}` (UP, LO, FX, FR, MI, PL, BV, LI, UI)",
                    fields[0]
                ),
            ))
        }
    };
    // Fields after the type: [set] column [value].
    let rest = &fields[1..];
    let (set, column, value) = match (valued, rest.len()) {
        (true, 2) => ("", rest[0], Some(rest[1])),
        (true, 3) => (rest[0], rest[1], Some(rest[2])),
        (false, 1) => ("", rest[0], None),
        (false, 2) => (rest[0], rest[1], None),
        // `BV set column 1`: a value some writers add.
        (false, 3) if kind == "BV" => (rest[0], rest[1], None),
        _ => {
            return Err(err.at(
                line,
                format!(
                    "a {kind} bound must read `{kind} [set] column{}`",
                    if valued { " value" } else { "" }
                ),
            ))
        }
    };
    if chosen.get_or_insert_with(|| set.to_string()) != set {
        return Ok(());
    }
    let v = value.map(|s| number(s, line, err)).transpose()?;
    let Some(&j) = d.index.get(column) else {
        return Err(err.at(
            line,
            format!("a bound on `{column}`, which is not a column"),
        ));
    };
    let var = &mut d.vars[j];
    let v0 = v.unwrap_or(0.0);
    match kind.as_str() {
        "UP" | "UI" => {
            var.upper = Some(v0);
            if v0 < 0.0 && var.lower.is_none() {
                var.lower = Some(f64::NEG_INFINITY);
            }
        }
        "LO" | "LI" => var.lower = Some(v0),
        "FX" => {
            var.lower = Some(v0);
            var.upper = Some(v0);
        }
        "FR" => {
            var.lower = Some(f64::NEG_INFINITY);
            var.upper = Some(f64::INFINITY);
        }
        "MI" => var.lower = Some(f64::NEG_INFINITY),
        "PL" => var.upper = Some(f64::INFINITY),
        _ => {
            // BV
            var.lower = Some(0.0);
            var.upper = Some(1.0);
        }
    }
    if matches!(kind.as_str(), "BV" | "LI" | "UI") {
        var.integer = true;
    }
    Ok(())
}

// Writing.

/// `model` in free MPS, its own names, with its `OBJSENSE` and objective constant.
pub fn write(model: &Model) -> String {
    write_mps(model, false)
}

/// Free MPS for a solver in a child process: columns and rows named by position (`C0`,
/// `R0`: any reader takes them, and answers map back by index), and without the two
/// parts MPS readers disagree on: the `OBJSENSE` section (GLPK refuses it) and the
/// objective's constant (GLPK reads the objective row's RHS as the constant, SCIP as
/// minus the constant). The caller hands the sense to the solver on its own and adds
/// [`Model::objective_offset`] back.
pub fn write_plain(model: &Model) -> String {
    write_mps(model, true)
}

fn write_mps(model: &Model, plain: bool) -> String {
    let sense_and_offset = !plain;
    // Plain files name columns and rows by position (C0, R0): any reader takes them.
    let vname = |j: usize| {
        if plain {
            format!("C{j}")
        } else {
            model.vars[j].name.to_string()
        }
    };
    let rname = |i: usize| {
        if plain {
            format!("R{i}")
        } else {
            model.rows[i].name.to_string()
        }
    };
    let mut s = String::new();
    let _ = writeln!(s, "NAME {}", mps_name(&model.name));
    if sense_and_offset && model.sense == Sense::Maximize {
        s.push_str("OBJSENSE\n    MAX\n");
    }
    s.push_str("ROWS\n N  OBJ\n");
    for (i, r) in model.rows.iter().enumerate() {
        let t = row_type(r);
        let _ = writeln!(s, " {t}  {}", rname(i));
    }
    s.push_str("COLUMNS\n");
    let (starts, index, value) = model.to_csc();
    let mut in_int = false;
    for (j, v) in model.vars.iter().enumerate() {
        let int = v.kind != VarKind::Continuous;
        if int != in_int {
            let marker = if int { "'INTORG'" } else { "'INTEND'" };
            let _ = writeln!(s, "    MARKER 'MARKER' {marker}");
            in_int = int;
        }
        let mut wrote = false;
        if v.objective != 0.0 {
            let _ = writeln!(s, "    {} OBJ {}", vname(j), num(v.objective));
            wrote = true;
        }
        for k in starts[j]..starts[j + 1] {
            let _ = writeln!(s, "    {} {} {}", vname(j), rname(index[k]), num(value[k]));
            wrote = true;
        }
        if !wrote {
            // A column must appear in COLUMNS to exist.
            let _ = writeln!(s, "    {} OBJ 0", vname(j));
        }
    }
    if in_int {
        s.push_str("    MARKER 'MARKER' 'INTEND'\n");
    }
    s.push_str("RHS\n");
    if sense_and_offset && model.objective_offset != 0.0 {
        // MPS convention: the RHS of the objective row is minus the constant.
        let _ = writeln!(s, "    RHS OBJ {}", num(-model.objective_offset));
    }
    for (i, r) in model.rows.iter().enumerate() {
        let rhs = match row_type(r) {
            'G' | 'E' => r.lower,
            'L' => r.upper,
            _ => continue,
        };
        if rhs != 0.0 {
            let _ = writeln!(s, "    RHS {} {}", rname(i), num(rhs));
        }
    }
    let ranged: Vec<(usize, &Row)> = model
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.lower.is_finite() && r.upper.is_finite() && r.lower != r.upper)
        .collect();
    if !ranged.is_empty() {
        s.push_str("RANGES\n");
        for (i, r) in ranged {
            let _ = writeln!(s, "    RNG {} {}", rname(i), num(r.upper - r.lower));
        }
    }
    s.push_str("BOUNDS\n");
    for (j, v) in model.vars.iter().enumerate() {
        let name = vname(j);
        let int = v.kind != VarKind::Continuous;
        match (v.lower, v.upper) {
            (l, u) if int && l == 0.0 && u == 1.0 => {
                let _ = writeln!(s, " BV BND {}", name);
            }
            (l, u) if l == u => {
                let _ = writeln!(s, " FX BND {} {}", name, num(l));
            }
            (l, u) => {
                if l == f64::NEG_INFINITY && u == f64::INFINITY {
                    let _ = writeln!(s, " FR BND {}", name);
                    continue;
                }
                if l == f64::NEG_INFINITY {
                    let _ = writeln!(s, " MI BND {}", name);
                } else if l != 0.0 || u < 0.0 {
                    // A negative UP alone sets the lower bound to -inf in the classic
                    // MPS rule: a lower bound 0 is written then.
                    let _ = writeln!(s, " LO BND {} {}", name, num(l));
                }
                if u != f64::INFINITY {
                    let _ = writeln!(s, " UP BND {} {}", name, num(u));
                } else if int {
                    // Integer columns without an UP bound are read as binary by some readers.
                    let _ = writeln!(s, " PL BND {}", name);
                }
            }
        }
    }
    s.push_str("ENDATA\n");
    s
}

/// Free MPS of `model` as a minimisation, columns and rows named by position, its `NAME`
/// line ending in `FREE`, for a defined engine's program: CBC's reader (CoinMpsIO)
/// guesses fixed columns otherwise, and misreads short lines such as `    C0 R0 1`.
pub fn write_minimisation(model: &Model) -> String {
    let mut m = model.clone();
    for (v, c) in m.vars.iter_mut().zip(super::minimisation(model)) {
        v.objective = c;
    }
    m.sense = Sense::Minimize;
    m.objective_offset = 0.0;
    let text = write_plain(&m);
    match text.split_once('\n') {
        Some((name, rest)) => format!("{name} FREE\n{rest}"),
        None => text,
    }
}

fn row_type(r: &Row) -> char {
    match (r.lower.is_finite(), r.upper.is_finite()) {
        (true, true) if r.lower == r.upper => 'E',
        (true, _) => 'G',
        (false, true) => 'L',
        (false, false) => 'N',
    }
}

fn mps_name(name: &str) -> String {
    let n: String = name
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    if n.is_empty() {
        "model".into()
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{VarId, VarKind};

    fn mps(text: &str) -> Model {
        parse_mps(text, Path::new("t.mps")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn fails(text: &str, line: usize, word: &str) {
        let e = parse_mps(text, Path::new("t.mps")).unwrap_err();
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(word), "{e}");
    }

    fn var<'m>(m: &'m Model, name: &str) -> &'m crate::model::Var {
        m.vars
            .iter()
            .find(|v| v.name.to_string() == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    const FULL: &str = r#"* comment
NAME          example
OBJSENSE
    MAX
ROWS
 N  COST
 L  LIM1
 G  LIM2
 E  MYEQN
 E  EQ2
 N  OTHER
COLUMNS
    X1        COST         1.0   LIM1         1.0
    X1        LIM2         1.0   OTHER 5
    MARKER                 'MARKER'                 'INTORG'
    X2        COST         2.0   LIM1         1.0
    X2        MYEQN       -1.0   MYEQN 3
    MARKER                 'MARKER'                 'INTEND'
    X3        COST        -1.0   MYEQN        1.0
    X4  EQ2 1
    X5 COST 0
    X6 COST 0
    X7 COST 0
    X8 COST 0
RHS
    RHS       COST        -2.5
    RHS       LIM1         4.0   LIM2         1.0
    RHS       MYEQN        7.0   EQ2 1
    OTHERSET  LIM1  99
RANGES
    RNG       LIM1         2.5   LIM2   -3
    RNG       MYEQN        -2   EQ2 4
BOUNDS
 UP BND       X1           4.0
 LO BND       X2          -1.0
 UP BND       X2           1.0
 MI BND       X3
 UP BND X4 -2
 BV BND X5
 LI BND X6 2
 UI BND X6 9
 FR BND X7
 FX BND X8 3.5
 PL BND X4
 UP OTHER X1 0
ENDATA
"#;

    #[test]
    fn full_file() {
        let m = mps(FULL);
        assert_eq!(m.name, "example");
        assert_eq!(m.sense, Sense::Maximize);
        assert_eq!(m.objective_offset, 2.5);
        assert_eq!(m.rows.len(), 4);
        let x1 = var(&m, "X1");
        assert_eq!(
            (x1.kind, x1.objective, x1.lower, x1.upper),
            (VarKind::Continuous, 1.0, 0.0, 4.0)
        );
        let x2 = var(&m, "X2");
        assert_eq!((x2.kind, x2.lower, x2.upper), (VarKind::Integer, -1.0, 1.0));
        assert_eq!(m.rows[2].terms, vec![(VarId(1), 2.0), (VarId(2), 1.0)]);
        assert_eq!(var(&m, "X3").lower, f64::NEG_INFINITY);
        // UP below 0 with no lower bound: lower -inf; PL: upper +inf.
        let x4 = var(&m, "X4");
        assert_eq!((x4.lower, x4.upper), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(var(&m, "X5").kind, VarKind::Binary);
        let x6 = var(&m, "X6");
        assert_eq!((x6.kind, x6.lower, x6.upper), (VarKind::Integer, 2.0, 9.0));
        let x7 = var(&m, "X7");
        assert_eq!((x7.lower, x7.upper), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!((var(&m, "X8").lower, var(&m, "X8").upper), (3.5, 3.5));
        // Ranges: L [r-|R|, r]; G [r, r+|R|]; E by sign of R.
        assert_eq!((m.rows[0].lower, m.rows[0].upper), (1.5, 4.0));
        assert_eq!((m.rows[1].lower, m.rows[1].upper), (1.0, 4.0));
        assert_eq!((m.rows[2].lower, m.rows[2].upper), (5.0, 7.0));
        assert_eq!((m.rows[3].lower, m.rows[3].upper), (1.0, 5.0));
    }

    #[test]
    fn objsense_forms_and_integer_defaults() {
        let m = mps("NAME\nOBJSENSE MAXIMIZE\nROWS\n N obj\n E r\nCOLUMNS\n MARKER MARKER INTORG\n x r 1\n MARKER MARKER INTEND\nRHS\n r 3\nENDATA\n");
        assert_eq!(m.sense, Sense::Maximize);
        assert_eq!(m.name, "t");
        // Integer columns from MARKER blocks: bounds 0 and +inf.
        assert_eq!(
            (m.vars[0].kind, m.vars[0].upper),
            (VarKind::Integer, f64::INFINITY)
        );
        assert_eq!(m.rows[0].lower, 3.0);
        let m = mps("OBJSENSE\n  min\nROWS\n N obj\nCOLUMNS\n x obj 1\nENDATA\n");
        assert_eq!(m.sense, Sense::Minimize);
    }

    #[test]
    fn errors_name_the_line() {
        fails("", 0, "empty");
        fails("* only\n\n", 0, "empty");
        fails("ROWS\n N obj\nCOLUMNS\n x obj 1\n", 0, "ENDATA");
        fails("ROWS\n N obj\nFOO\nENDATA\n", 3, "unknown section");
        fails("ROWS\n N obj\nQUADOBJ\nENDATA\n", 3, "not supported");
        fails("ROWS\n N obj\n X r\nENDATA\n", 3, "row type");
        fails("ROWS\n N obj\n E r\n L r\nENDATA\n", 4, "second row");
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj 1x\nENDATA\n",
            4,
            "not a number",
        );
        fails("ROWS\n N obj\nCOLUMNS\n x q 1\nENDATA\n", 4, "not declared");
        fails("ROWS\n N obj\nCOLUMNS\n x obj\nENDATA\n", 4, "COLUMNS line");
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj 1\nRHS\n q 1\nENDATA\n",
            6,
            "not declared",
        );
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP b y 1\nENDATA\n",
            6,
            "not a column",
        );
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n SC b x 1\nENDATA\n",
            6,
            "semi-continuous",
        );
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n XX b x 1\nENDATA\n",
            6,
            "bound type",
        );
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP x\nENDATA\n",
            6,
            "UP bound",
        );
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj 1\nBOUNDS\n UP b x nan\nENDATA\n",
            6,
            "not a number",
        );
        fails(
            "ROWS\n N obj\nCOLUMNS\n x obj inf\nENDATA\n",
            4,
            "not finite",
        );
        fails("OBJSENSE\n  UP\nENDATA\n", 2, "objective sense");
        fails(" N obj\nENDATA\n", 1, "before any section");
        fails(
            "ROWS\n N obj\nCOLUMNS\n MARKER 'MARKER' 'INTXX'\nENDATA\n",
            4,
            "MARKER",
        );
        fails("ROWS extra\nENDATA\n", 1, "unexpected text");
    }
}
