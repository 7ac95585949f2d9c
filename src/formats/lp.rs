//! CPLEX LP: the reader ([`parse_lp`]) and the writers ([`write()`], [`write_minimisation`]).
//!
//! The reader follows the IBM CPLEX LP format documentation ("CPLEX File Formats
//! Reference Manual", LP file format), and reads what PuLP, Pyomo, HiGHS, Gurobi and
//! [`write()`] write.
//!
//! # Supported
//!
//! * Sections, keywords in any case, each starting a line: `Minimize` / `Minimise` /
//!   `Minimum` / `Min` and `Maximize` / `Maximise` / `Maximum` / `Max` (the objective may
//!   start on the same line), `Subject To` / `Such That` / `st` / `s.t.` / `st.`,
//!   `Bounds` / `Bound`, `Generals` / `General` / `Gen` / `Integers`, `Binaries` /
//!   `Binary` / `Bin`, `End` (anything after it is ignored). A first token followed by
//!   `:` is a label, not a keyword, so rows may be named `min` or `st`; a variable named
//!   like a keyword must not start a line (CPLEX and Gurobi advise against such names).
//! * Comments: `\` to the end of the line, and `\* ... *\` blocks (PuLP writes one at
//!   the top), which may span lines.
//! * Expressions over several lines, terms `3 x`, `3x` (the documentation's own example
//!   is `x1 + 2x2 + 3x3`: a number followed by a name needs no space; this is why a
//!   name may not be `e` followed by digits), `- x`, `+ 2.5e-3 y`, signs repeated
//!   (`- - x`); constants in the objective become [`Model::objective_offset`]; constants
//!   on the left of a row are moved to the right.
//! * Senses `<`, `<=`, `=<`, `>`, `>=`, `=>`, `=` (`<` means `<=` as CPLEX documents).
//!   The right-hand side is a number or `±inf` / `±infinity` (`>= -inf` is a free row,
//!   as [`write()`] writes one). Besides the documented `expr sense rhs` this
//!   reader takes `rhs sense expr` and the ranged form `lo <= expr <= hi` (or
//!   `hi >= expr >= lo`), as HiGHS, Gurobi and SCIP read it.
//!   A row ends with its right-hand side; in the form `rhs sense expr` it ends where the
//!   expression ends, so a following unlabelled row starting with a sign would be read
//!   as part of it (label such rows).
//! * Optional `name:` labels. Unnamed rows are named `c1`, `c2`, ... by their position
//!   among all rows, as the IBM documentation says CPLEX does ("If no constraint names
//!   are specified, CPLEX assigns the names c1, c2, c3"); a generated name that
//!   collides with a written one gets `_` appended until it is unique. A label on the
//!   objective is ignored.
//! * Bounds, one per line: `x <= 4`, `x >= 2`, `2 <= x`, `-3 <= x <= 5`, `x = 2`,
//!   `x free`, `-inf <= x`, `x >= -infinity`, `+inf`. Default bounds are 0 and +inf; the
//!   last bound given wins (IBM documentation). A negative upper bound with the default
//!   lower bound keeps the lower bound 0 (the documentation says the default lower bound
//!   stays "until the bound is explicitly changed"; the model is then infeasible, which
//!   the reader does not judge). This differs from MPS, see [`super::mps`].
//! * `Generals`: integer, bounds as given (default 0..+inf). `Binaries`: integer with
//!   default bounds 0 and 1; explicit bounds from the `Bounds` section are kept (PuLP
//!   fixes a binary with `x = 1` in `Bounds` and lists it in `Binaries`), and the column
//!   is then [`VarKind::Binary`](crate::model::VarKind) only when the bounds are 0 and 1.
//!   Sections may come in any order, and a name first met in one of them is a new column.
//! * Names: letters, digits and ``!"#$%&()/,.;?@_`'{}|~``, not starting with a digit or
//!   a period (the IBM documentation's rule).
//!
//! # Refused, with the line
//!
//! Semi-continuous sections, SOS sections, lazy constraints and user cuts (an empty
//! such section is accepted: HiGHS writes an empty `semi` section), indicator
//! constraints (`->`), quadratic terms (`[ ... ]`, `*`, `^`), any other character.
//!
//! # Writers' quirks
//!
//! * PuLP (3.3.2) writes `\* name *\` first, `OBJ:` as the objective's label, rows
//!   without a name as `_C1`, `_C2`, ..., and drops the objective's constant altogether
//!   (`m += x + 10` is written as `OBJ: x`): the file cannot give it back. An objective
//!   without variables is written as `OBJ: __dummy` with `__dummy = 0` in `Bounds` (its
//!   MPS file gives `__dummy` the objective coefficient 0 instead): it
//!   reads back as one more continuous column, exactly what the file says. A fixed binary
//!   is listed in `Generals` with `f = 1` in `Bounds`.
//! * [`write()`] writes a ranged row as two rows `r` (`>=`) and `r_ub` (`<=`), an
//!   empty row as `r: 0 >= 3`, and no bounds for binaries (so a binary fixed by its
//!   bounds comes back with bounds 0 and 1).
//!
//! [`Model::objective_offset`]: crate::model::Model::objective_offset

use super::{num, stem, Draft, Errors, ReadError, RowDraft};
use crate::model::{Model, Name, Sense, VarId, VarKind};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmp {
    Le,
    Ge,
    Eq,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Name(String),
    Plus,
    Minus,
    Colon,
    Sense(Cmp),
    /// `->` or `<->`: an indicator constraint.
    Arrow,
    /// `[`, `]`, `*`, `^`: quadratic terms.
    Quad(char),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!\"#$%&()/,.;?@_`'{}|~".contains(c)
}

/// Removes comments (`\` to the end of the line, `\* ... *\` blocks), keeping newlines.
fn strip_comments(text: &str, err: &Errors) -> Result<String, ReadError> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while let Some(c) = chars.next() {
        if c != '\\' {
            if c == '\n' {
                line += 1;
            }
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'*') {
            chars.next();
            let start = line;
            let mut closed = false;
            let mut prev = ' ';
            for d in chars.by_ref() {
                if d == '\n' {
                    line += 1;
                    out.push('\n');
                }
                if prev == '*' && d == '\\' {
                    closed = true;
                    break;
                }
                prev = d;
            }
            if !closed {
                return Err(err.at(start, "a `\\*` comment is not closed by `*\\`"));
            }
        } else {
            for d in chars.by_ref() {
                if d == '\n' {
                    line += 1;
                    out.push('\n');
                    break;
                }
            }
        }
    }
    Ok(out)
}

/// The tokens of one line (comments already removed).
fn lex_line(text: &str, line: usize, err: &Errors) -> Result<Vec<Token>, ReadError> {
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    let push = |out: &mut Vec<Token>, tok| out.push(Token { tok, line });
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == '.' && next.is_some_and(|d| d.is_ascii_digit())) {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == '.') {
                i += 1;
            }
            if i < b.len() && (b[i] == 'e' || b[i] == 'E') {
                let mut k = i + 1;
                if k < b.len() && (b[k] == '+' || b[k] == '-') {
                    k += 1;
                }
                if k < b.len() && b[k].is_ascii_digit() {
                    while k < b.len() && b[k].is_ascii_digit() {
                        k += 1;
                    }
                    i = k;
                }
            }
            let s: String = b[start..i].iter().collect();
            let v: f64 = s
                .parse()
                .map_err(|_| err.at(line, format!("`{s}` is not a number")))?;
            push(&mut out, Tok::Num(v));
        } else if c == '.' {
            return Err(err.at(line, "a name may not start with a period"));
        } else if is_name_char(c) {
            let start = i;
            while i < b.len() && is_name_char(b[i]) {
                i += 1;
            }
            push(&mut out, Tok::Name(b[start..i].iter().collect()));
        } else {
            let (tok, len) = match (c, next) {
                ('+', _) => (Tok::Plus, 1),
                ('-', Some('>')) => (Tok::Arrow, 2),
                ('-', _) => (Tok::Minus, 1),
                (':', _) => (Tok::Colon, 1),
                ('<', Some('-')) if b.get(i + 2) == Some(&'>') => (Tok::Arrow, 3),
                ('<', Some('=')) => (Tok::Sense(Cmp::Le), 2),
                ('<', _) => (Tok::Sense(Cmp::Le), 1),
                ('>', Some('=')) => (Tok::Sense(Cmp::Ge), 2),
                ('>', _) => (Tok::Sense(Cmp::Ge), 1),
                ('=', Some('<')) => (Tok::Sense(Cmp::Le), 2),
                ('=', Some('>')) => (Tok::Sense(Cmp::Ge), 2),
                ('=', _) => (Tok::Sense(Cmp::Eq), 1),
                ('[' | ']' | '*' | '^', _) => (Tok::Quad(c), 1),
                _ => {
                    return Err(err.at(
                        line,
                        format!("the character {c:?} is not allowed in an LP file"),
                    ))
                }
            };
            push(&mut out, tok);
            i += len;
        }
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Section {
    Objective(Sense),
    Constraints,
    Bounds,
    Generals,
    Binaries,
    /// A section this reader refuses when it has content: what it holds, its line.
    Unsupported(&'static str, usize),
    End,
}

fn is_word(t: Option<&Token>, word: &str) -> bool {
    matches!(t, Some(Token { tok: Tok::Name(n), .. }) if n.eq_ignore_ascii_case(word))
}

/// The section a line starts, and how many of its tokens the keyword takes.
fn section_of(toks: &[Token]) -> Option<(Section, usize)> {
    let Some(Token {
        tok: Tok::Name(first),
        line,
    }) = toks.first()
    else {
        return None;
    };
    if matches!(
        toks.get(1),
        Some(Token {
            tok: Tok::Colon,
            ..
        })
    ) {
        return None;
    }
    let unsupported = |what: &'static str| Some((Section::Unsupported(what, *line), toks.len()));
    let s = match first.to_ascii_lowercase().as_str() {
        "minimize" | "minimise" | "minimum" | "min" => (Section::Objective(Sense::Minimize), 1),
        "maximize" | "maximise" | "maximum" | "max" => (Section::Objective(Sense::Maximize), 1),
        "subject" if is_word(toks.get(1), "to") => (Section::Constraints, 2),
        "such" if is_word(toks.get(1), "that") => (Section::Constraints, 2),
        "st" | "s.t." | "st." => (Section::Constraints, 1),
        "bounds" | "bound" => (Section::Bounds, 1),
        "generals" | "general" | "gen" | "integers" => (Section::Generals, 1),
        "binaries" | "binary" | "bin" => (Section::Binaries, 1),
        "end" => (Section::End, 1),
        "semi" | "semis" | "semi-continuous" => return unsupported("semi-continuous variables"),
        "sos" | "sos1" | "sos2" => return unsupported("SOS constraints"),
        "lazy" if is_word(toks.get(1), "constraints") => return unsupported("lazy constraints"),
        "user" if is_word(toks.get(1), "cuts") => return unsupported("user cuts"),
        _ => return None,
    };
    Some(s)
}

fn is_infinity(name: &str) -> bool {
    name.eq_ignore_ascii_case("inf") || name.eq_ignore_ascii_case("infinity")
}

/// A linear expression: terms by name, with the line of each, and a constant.
struct Expr {
    terms: Vec<(String, f64, usize)>,
    constant: f64,
}

/// Reads a token stream of one section.
struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    err: &'a Errors,
    /// Line of the last token, for errors at the end of a section.
    last_line: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn line(&self) -> usize {
        self.toks.get(self.pos).map_or(self.last_line, |t| t.line)
    }

    fn done(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn unexpected(&self, what: &str) -> ReadError {
        let line = self.line();
        match self.peek() {
            None => self
                .err
                .at(line, format!("{what}, found the end of the section")),
            Some(Tok::Arrow) => self.err.at(line, "indicator constraints are not supported"),
            Some(Tok::Quad(_)) => self.err.at(
                line,
                "quadratic terms are not supported (linear models only)",
            ),
            Some(t) => self.err.at(line, format!("{what}, found {}", describe(t))),
        }
    }

    /// An optional `name:` label.
    fn label(&mut self) -> Option<String> {
        if let (
            Some(Tok::Name(n)),
            Some(Token {
                tok: Tok::Colon, ..
            }),
        ) = (self.peek(), self.toks.get(self.pos + 1))
        {
            self.pos += 2;
            return Some(n.clone());
        }
        None
    }

    /// Signs (`+`, `-`, repeated) and whether any was read; the product's sign.
    fn signs(&mut self) -> (f64, bool) {
        let mut s = 1.0;
        let mut any = false;
        while let Some(t) = self.peek() {
            match t {
                Tok::Plus => {}
                Tok::Minus => s = -s,
                _ => break,
            }
            any = true;
            self.pos += 1;
        }
        (s, any)
    }

    /// A signed number or `±inf`, if one starts here; the position is kept otherwise.
    fn constant(&mut self) -> Option<f64> {
        let start = self.pos;
        let (s, _) = self.signs();
        match self.peek() {
            Some(Tok::Num(v)) => {
                self.pos += 1;
                Some(s * v)
            }
            Some(Tok::Name(n)) if is_infinity(n) => {
                self.pos += 1;
                Some(s * f64::INFINITY)
            }
            _ => {
                self.pos = start;
                None
            }
        }
    }

    /// A linear expression; stops before a token that cannot continue it (a sense, a
    /// name or number without an operator before it, the end).
    fn expr(&mut self) -> Result<Expr, ReadError> {
        let mut e = Expr {
            terms: Vec::new(),
            constant: 0.0,
        };
        let mut first = true;
        loop {
            let start = self.pos;
            let (s, signed) = self.signs();
            if !first && !signed {
                self.pos = start;
                break;
            }
            let line = self.line();
            match self.peek() {
                Some(Tok::Num(v)) => {
                    let v = *v;
                    self.pos += 1;
                    if let Some(Tok::Name(n)) = self.peek() {
                        if !is_infinity(n) {
                            let n = n.clone();
                            self.pos += 1;
                            e.terms.push((n, s * v, line));
                            first = false;
                            continue;
                        }
                    }
                    e.constant += s * v;
                }
                Some(Tok::Name(n)) if is_infinity(n) => {
                    self.pos += 1;
                    e.constant += s * f64::INFINITY;
                }
                Some(Tok::Name(n)) => {
                    e.terms.push((n.clone(), s, line));
                    self.pos += 1;
                }
                _ if signed => {
                    return Err(self.unexpected("expected a number or a name after a sign"))
                }
                Some(Tok::Arrow | Tok::Quad(_)) => return Err(self.unexpected("")),
                _ => break,
            }
            first = false;
        }
        if let Some(t @ (Tok::Arrow | Tok::Quad(_))) = self.peek() {
            let _ = t;
            return Err(self.unexpected(""));
        }
        Ok(e)
    }

    fn sense(&mut self) -> Option<Cmp> {
        if let Some(Tok::Sense(c)) = self.peek() {
            self.pos += 1;
            return Some(*c);
        }
        None
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(v) => format!("the number {v}"),
        Tok::Name(n) => format!("`{n}`"),
        Tok::Plus => "`+`".into(),
        Tok::Minus => "`-`".into(),
        Tok::Colon => "`:`".into(),
        Tok::Sense(Cmp::Le) => "`<=`".into(),
        Tok::Sense(Cmp::Ge) => "`>=`".into(),
        Tok::Sense(Cmp::Eq) => "`=`".into(),
        Tok::Arrow => "`->`".into(),
        Tok::Quad(c) => format!("`{c}`"),
    }
}

/// Reads a model in CPLEX LP format; `file` names it in errors and, by its stem, the
/// model.
pub fn parse_lp(text: &str, file: &Path) -> Result<Model, ReadError> {
    let err = Errors::new(file);
    let clean = strip_comments(text, &err)?;
    let mut lines: Vec<Vec<Token>> = Vec::new();
    for (i, l) in clean.lines().enumerate() {
        let toks = lex_line(l, i + 1, &err)?;
        if !toks.is_empty() {
            lines.push(toks);
        }
    }
    if lines.is_empty() {
        return Err(err.at(0, "empty file: no objective, no rows"));
    }
    // Split into sections: the objective's and the rows' tokens run over lines; bounds
    // are read line by line; integrality sections are lists of names.
    let mut sense = None;
    let mut objective: Vec<Token> = Vec::new();
    let mut constraints: Vec<Token> = Vec::new();
    let mut bounds: Vec<Vec<Token>> = Vec::new();
    let mut generals: Vec<Token> = Vec::new();
    let mut binaries: Vec<Token> = Vec::new();
    let mut section: Option<Section> = None;
    for toks in lines {
        let mut rest = &toks[..];
        if let Some((s, n)) = section_of(&toks) {
            if let Section::Objective(sn) = s {
                if sense.is_some() {
                    return Err(err.at(toks[0].line, "a second objective section"));
                }
                sense = Some(sn);
            }
            section = Some(s);
            rest = &toks[n..];
        }
        if rest.is_empty() {
            continue;
        }
        match section {
            None => {
                return Err(err.at(
                    rest[0].line,
                    "expected `Minimize` or `Maximize` before the first expression",
                ))
            }
            Some(Section::Objective(_)) => objective.extend_from_slice(rest),
            Some(Section::Constraints) => constraints.extend_from_slice(rest),
            Some(Section::Bounds) => bounds.push(rest.to_vec()),
            Some(Section::Generals) => generals.extend_from_slice(rest),
            Some(Section::Binaries) => binaries.extend_from_slice(rest),
            Some(Section::Unsupported(what, line)) => {
                return Err(err.at(line, format!("{what} are not supported")))
            }
            Some(Section::End) => break,
        }
    }
    let mut d = Draft::new();
    let mut offset = 0.0;

    // Objective.
    {
        let mut p = Parser {
            toks: &objective,
            pos: 0,
            err: &err,
            last_line: objective.last().map_or(0, |t| t.line),
        };
        p.label();
        let e = p.expr()?;
        if !p.done() {
            return Err(p.unexpected("expected `+` or `-` in the objective"));
        }
        if !e.constant.is_finite() {
            return Err(err.at(p.last_line, "the objective's constant is not finite"));
        }
        offset += e.constant;
        for (n, c, line) in e.terms {
            check_coef(c, line, &err)?;
            let j = d.var(&n);
            d.vars[j].objective += c;
        }
    }

    // Rows.
    let mut unnamed: Vec<usize> = Vec::new();
    let mut names: HashSet<String> = HashSet::new();
    {
        let mut p = Parser {
            toks: &constraints,
            pos: 0,
            err: &err,
            last_line: constraints.last().map_or(0, |t| t.line),
        };
        while !p.done() {
            let start_line = p.line();
            let label = p.label();
            let e1 = p.expr()?;
            let Some(s1) = p.sense() else {
                return Err(p.unexpected("expected a sense (`<=`, `>=` or `=`) in the row"));
            };
            let sense_line = p.toks[p.pos - 1].line;
            let (terms, lower, upper) = if !e1.terms.is_empty() {
                let Some(rhs) = p.constant() else {
                    return Err(p.unexpected("expected a number on the right-hand side"));
                };
                check_finite_side(e1.constant, sense_line, &err)?;
                let (l, u) = sides(s1, rhs - e1.constant);
                (e1.terms, l, u)
            } else {
                // `c sense c` (an empty row), `c sense expr` or `lo <= expr <= hi`.
                let mark = p.pos;
                let alone = p.constant().is_some()
                    && (p.done() || p.toks[p.pos].line != p.toks[p.pos - 1].line);
                p.pos = mark;
                if alone {
                    let rhs = p.constant().unwrap_or(0.0);
                    check_finite_side(e1.constant, sense_line, &err)?;
                    let (l, u) = sides(s1, rhs - e1.constant);
                    (Vec::new(), l, u)
                } else {
                    let e2 = p.expr()?;
                    check_finite_side(e2.constant, sense_line, &err)?;
                    let near = e1.constant - e2.constant;
                    match p.peek() {
                        Some(Tok::Sense(_)) => {
                            let s2 = p.sense().unwrap_or(Cmp::Eq);
                            let Some(far) = p.constant() else {
                                return Err(
                                    p.unexpected("expected a number on the right-hand side")
                                );
                            };
                            let far = far - e2.constant;
                            match (s1, s2) {
                                (Cmp::Le, Cmp::Le) => (e2.terms, near, far),
                                (Cmp::Ge, Cmp::Ge) => (e2.terms, far, near),
                                _ => {
                                    return Err(err
                                        .at(sense_line, "a ranged row needs two `<=` or two `>=`"))
                                }
                            }
                        }
                        _ => {
                            // `c sense expr`: the expression on the right.
                            let flipped = match s1 {
                                Cmp::Le => Cmp::Ge,
                                Cmp::Ge => Cmp::Le,
                                Cmp::Eq => Cmp::Eq,
                            };
                            let (l, u) = sides(flipped, near);
                            (e2.terms, l, u)
                        }
                    }
                }
            };
            if let Some(Tok::Sense(_)) = p.peek() {
                return Err(p.unexpected("expected the end of the row"));
            }
            let mut row_terms = Vec::with_capacity(terms.len());
            for (n, c, line) in terms {
                check_coef(c, line, &err)?;
                row_terms.push((d.var(&n), c));
            }
            match &label {
                Some(n) => {
                    if !names.insert(n.clone()) {
                        return Err(err.at(start_line, format!("a second row named `{n}`")));
                    }
                }
                None => unnamed.push(d.rows.len()),
            }
            d.rows.push(RowDraft {
                name: label.unwrap_or_default(),
                terms: row_terms,
                lower,
                upper,
            });
        }
    }
    for i in unnamed {
        let mut name = format!("c{}", i + 1);
        while names.contains(&name) {
            name.push('_');
        }
        names.insert(name.clone());
        d.rows[i].name = name;
    }

    // Bounds.
    for toks in &bounds {
        bound_line(toks, &mut d, &err)?;
    }

    // Integrality.
    for (toks, binary) in [(&generals, false), (&binaries, true)] {
        for t in toks {
            match &t.tok {
                Tok::Name(n) if !is_infinity(n) => {
                    let j = d.var(n);
                    d.vars[j].integer = true;
                    if binary {
                        d.vars[j].binary_declared = true;
                    }
                }
                other => {
                    return Err(err.at(
                        t.line,
                        format!(
                            "expected a variable name in the integrality section, found {}",
                            describe(other)
                        ),
                    ))
                }
            }
        }
    }
    let Some(sense) = sense else {
        return Err(err.at(0, "no `Minimize` or `Maximize` section"));
    };
    Ok(d.finish(stem(file), sense, offset))
}

fn check_coef(c: f64, line: usize, err: &Errors) -> Result<(), ReadError> {
    if c.is_finite() {
        Ok(())
    } else {
        Err(err.at(line, format!("the coefficient {c} is not finite")))
    }
}

fn check_finite_side(c: f64, line: usize, err: &Errors) -> Result<(), ReadError> {
    if c.is_finite() {
        Ok(())
    } else {
        Err(err.at(line, "an infinite constant beside variables"))
    }
}

/// Lower and upper side of `expr cmp rhs`.
fn sides(cmp: Cmp, rhs: f64) -> (f64, f64) {
    match cmp {
        Cmp::Le => (f64::NEG_INFINITY, rhs),
        Cmp::Ge => (rhs, f64::INFINITY),
        Cmp::Eq => (rhs, rhs),
    }
}

/// One line of the `Bounds` section.
fn bound_line(toks: &[Token], d: &mut Draft, err: &Errors) -> Result<(), ReadError> {
    let line = toks[0].line;
    let mut p = Parser {
        toks,
        pos: 0,
        err,
        last_line: line,
    };
    let shape = "a bound must read `x <= u`, `x >= l`, `l <= x <= u`, `x = v` or `x free`";
    let var_at = |p: &Parser| match p.peek() {
        Some(Tok::Name(n)) if !is_infinity(n) => Some(n.clone()),
        _ => None,
    };
    let set = |d: &mut Draft, j: usize, cmp: Cmp, v: f64, var_left: bool| {
        let cmp = match (cmp, var_left) {
            (Cmp::Le, false) => Cmp::Ge,
            (Cmp::Ge, false) => Cmp::Le,
            (c, _) => c,
        };
        let var = &mut d.vars[j];
        match cmp {
            Cmp::Le => var.upper = Some(v),
            Cmp::Ge => var.lower = Some(v),
            Cmp::Eq => {
                var.lower = Some(v);
                var.upper = Some(v);
            }
        }
    };
    if let Some(v) = p.constant() {
        let (Some(c1), Some(name)) = (p.sense(), var_at(&p)) else {
            return Err(p.unexpected(shape));
        };
        p.pos += 1;
        let j = d.var(&name);
        set(d, j, c1, v, false);
        if !p.done() {
            let (Some(c2), Some(w)) = (p.sense(), p.constant()) else {
                return Err(p.unexpected(shape));
            };
            set(d, j, c2, w, true);
        }
    } else if let Some(name) = var_at(&p) {
        p.pos += 1;
        if is_word(toks.get(1), "free") && toks.len() == 2 {
            let j = d.var(&name);
            d.vars[j].lower = Some(f64::NEG_INFINITY);
            d.vars[j].upper = Some(f64::INFINITY);
            return Ok(());
        }
        let (Some(c), Some(v)) = (p.sense(), p.constant()) else {
            return Err(p.unexpected(shape));
        };
        let j = d.var(&name);
        set(d, j, c, v, true);
    } else {
        return Err(p.unexpected(shape));
    }
    if !p.done() {
        return Err(p.unexpected("expected the end of the bound"));
    }
    Ok(())
}

// Writing.

/// `model` in CPLEX LP, its own names; a ranged row is written as two rows.
pub fn write(model: &Model) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "\\ Problem: {}", model.name);
    s.push_str(match model.sense {
        Sense::Minimize => "Minimize\n",
        Sense::Maximize => "Maximize\n",
    });
    s.push_str(" obj:");
    let obj = model.objective_terms();
    write_terms(&mut s, model, &obj);
    if model.objective_offset != 0.0 {
        let _ = write!(
            s,
            " {} {}",
            sign(model.objective_offset),
            num(model.objective_offset.abs())
        );
    } else if obj.is_empty() {
        s.push_str(" 0");
    }
    s.push_str("\nSubject To\n");
    for r in &model.rows {
        let _ = write!(s, " {}:", r.name);
        if r.terms.is_empty() {
            s.push_str(" 0");
        }
        write_terms(&mut s, model, &r.terms);
        match (r.lower.is_finite(), r.upper.is_finite()) {
            (true, true) if r.lower == r.upper => {
                let _ = writeln!(s, " = {}", num(r.lower));
            }
            (true, true) => {
                // A ranged row: write it as two rows in the LP format.
                let _ = writeln!(s, " >= {}", num(r.lower));
                let _ = write!(s, " {}_ub:", r.name);
                write_terms(&mut s, model, &r.terms);
                let _ = writeln!(s, " <= {}", num(r.upper));
            }
            (true, false) => {
                let _ = writeln!(s, " >= {}", num(r.lower));
            }
            (false, true) => {
                let _ = writeln!(s, " <= {}", num(r.upper));
            }
            (false, false) => {
                let _ = writeln!(s, " >= -inf");
            }
        }
    }
    s.push_str("Bounds\n");
    for v in &model.vars {
        if v.kind == VarKind::Binary {
            continue;
        }
        match (v.lower, v.upper) {
            (l, u) if l == u => {
                let _ = writeln!(s, " {} = {}", v.name, num(l));
            }
            (l, u) if l == f64::NEG_INFINITY && u == f64::INFINITY => {
                let _ = writeln!(s, " {} free", v.name);
            }
            (l, u) => {
                let lo = if l == f64::NEG_INFINITY {
                    "-inf".to_string()
                } else {
                    num(l)
                };
                let up = if u == f64::INFINITY {
                    "+inf".to_string()
                } else {
                    num(u)
                };
                let _ = writeln!(s, " {lo} <= {} <= {up}", v.name);
            }
        }
    }
    let binaries: Vec<String> = model
        .vars
        .iter()
        .filter(|v| v.kind == VarKind::Binary)
        .map(|v| v.name.to_string())
        .collect();
    let generals: Vec<String> = model
        .vars
        .iter()
        .filter(|v| v.kind == VarKind::Integer)
        .map(|v| v.name.to_string())
        .collect();
    write_section(&mut s, "Binaries", &binaries);
    write_section(&mut s, "Generals", &generals);
    s.push_str("End\n");
    s
}

/// CPLEX LP of `model` as a minimisation, columns `C0`, ... and rows `R0`, ..., for a
/// defined engine's program.
pub fn write_minimisation(model: &Model) -> String {
    let mut m = model.clone();
    for (j, (v, c)) in m
        .vars
        .iter_mut()
        .zip(super::minimisation(model))
        .enumerate()
    {
        v.objective = c;
        v.name = Name::Text(format!("C{j}"));
    }
    for (i, r) in m.rows.iter_mut().enumerate() {
        r.name = Name::Text(format!("R{i}"));
    }
    m.sense = Sense::Minimize;
    m.objective_offset = 0.0;
    write(&m)
}

fn write_terms(s: &mut String, m: &Model, terms: &[(VarId, f64)]) {
    for (i, (v, c)) in terms.iter().enumerate() {
        let name = &m.vars[v.0].name;
        let mag = c.abs();
        let sg = if i == 0 && *c >= 0.0 { "" } else { sign(*c) };
        let sep = if sg.is_empty() { "" } else { " " };
        if mag == 1.0 {
            let _ = write!(s, " {sg}{sep}{name}");
        } else {
            let _ = write!(s, " {sg}{sep}{} {name}", num(mag));
        }
        // Keep lines readable: break long rows.
        if i % 8 == 7 && i + 1 < terms.len() {
            s.push_str("\n   ");
        }
    }
}

fn write_section(s: &mut String, title: &str, names: &[String]) {
    if names.is_empty() {
        return;
    }
    let _ = writeln!(s, "{title}");
    for chunk in names.chunks(8) {
        let _ = writeln!(s, " {}", chunk.join(" "));
    }
}

fn sign(c: f64) -> &'static str {
    if c < 0.0 {
        "-"
    } else {
        "+"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::VarKind;

    fn lp(text: &str) -> Model {
        parse_lp(text, Path::new("t.lp")).unwrap_or_else(|e| panic!("{e}"))
    }

    fn fails(text: &str, line: usize, word: &str) {
        let e = parse_lp(text, Path::new("t.lp")).unwrap_err();
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(word), "{e}");
        assert!(e.to_string().starts_with("t.lp"), "{e}");
    }

    fn var<'m>(m: &'m Model, name: &str) -> &'m crate::model::Var {
        m.vars
            .iter()
            .find(|v| v.name.to_string() == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    #[test]
    fn objective_rows_and_sections() {
        let m = lp("\\* pulp header *\\\n\\ comment\nMAXIMIZE\n OBJ: 3x + 2 y\n  - 0.5e1 z + 7 \\ constant\n\
             Subject To\n c1: x + y <= 4\n x + y + x >= -2\n- y = 1\n 3 >= z\nr5: 1 <= x + z <= 3\n\
             r6: 5 >= y >= 1\nBounds\n x <= 10\n -inf <= y <= +INF\n z free\nGenerals\n x\nEnd\n");
        assert_eq!(m.sense, Sense::Maximize);
        assert_eq!(m.objective_offset, 7.0);
        let names: Vec<String> = m.vars.iter().map(|v| v.name.to_string()).collect();
        assert_eq!(names, ["x", "y", "z"]);
        assert_eq!(var(&m, "z").objective, -5.0);
        assert_eq!(m.rows.len(), 6);
        let rn: Vec<String> = m.rows.iter().map(|r| r.name.to_string()).collect();
        assert_eq!(rn, ["c1", "c2", "c3", "c4", "r5", "r6"].map(String::from));
        // Repeated variables summed, sorted by column.
        assert_eq!(
            m.rows[1].terms,
            vec![(crate::model::VarId(0), 2.0), (crate::model::VarId(1), 1.0)]
        );
        assert_eq!((m.rows[1].lower, m.rows[1].upper), (-2.0, f64::INFINITY));
        assert_eq!((m.rows[3].lower, m.rows[3].upper), (f64::NEG_INFINITY, 3.0));
        assert_eq!((m.rows[2].lower, m.rows[2].upper), (1.0, 1.0));
        assert_eq!(m.rows[2].terms[0].1, -1.0);
        assert_eq!((m.rows[4].lower, m.rows[4].upper), (1.0, 3.0));
        assert_eq!((m.rows[5].lower, m.rows[5].upper), (1.0, 5.0));
        assert_eq!(var(&m, "x").kind, VarKind::Integer);
        assert_eq!((var(&m, "x").lower, var(&m, "x").upper), (0.0, 10.0));
        assert_eq!(var(&m, "y").lower, f64::NEG_INFINITY);
        assert_eq!(var(&m, "z").kind, VarKind::Continuous);
        assert_eq!(var(&m, "z").upper, f64::INFINITY);
    }

    #[test]
    fn keywords_and_senses() {
        let m = lp(
            "min obj: x\nst\n a: x < 1\n b: x =< 2\n c: x > 0\n d: x => 0\nsuch that\n e: x = 1\n\
             bound\n x >= -infinity\nbin\n b1\nEND\nthis is ignored",
        );
        assert_eq!(m.sense, Sense::Minimize);
        assert_eq!(m.rows[0].upper, 1.0);
        assert_eq!(m.rows[1].upper, 2.0);
        assert_eq!(m.rows[2].lower, 0.0);
        assert_eq!(m.rows[3].lower, 0.0);
        assert_eq!(var(&m, "x").lower, f64::NEG_INFINITY);
        assert_eq!(var(&m, "b1").kind, VarKind::Binary);
        let m = lp("Minimise\n x\nS.T.\n min: x >= 1\nsubject to\n st: x <= 2\n");
        assert_eq!(m.rows[0].name.to_string(), "min");
        assert_eq!(m.rows[1].name.to_string(), "st");
    }

    #[test]
    fn bounds_forms() {
        let m = lp(
            "max\n a + b + c + d + e1x\nst\nBounds\n2 <= a\n -3 <= b <= 5\n c = 2\n d <= -1\n\
             e1x >= 1\n e1x <= 4\n e1x >= 2\nbinaries\n f\n g\nbounds\n g = 1\n",
        );
        assert_eq!(
            (var(&m, "a").lower, var(&m, "a").upper),
            (2.0, f64::INFINITY)
        );
        assert_eq!((var(&m, "b").lower, var(&m, "b").upper), (-3.0, 5.0));
        assert_eq!((var(&m, "c").lower, var(&m, "c").upper), (2.0, 2.0));
        // CPLEX LP: a negative upper bound keeps the default lower bound 0.
        assert_eq!((var(&m, "d").lower, var(&m, "d").upper), (0.0, -1.0));
        // The last bound wins.
        assert_eq!((var(&m, "e1x").lower, var(&m, "e1x").upper), (2.0, 4.0));
        assert_eq!(var(&m, "f").kind, VarKind::Binary);
        assert_eq!((var(&m, "f").lower, var(&m, "f").upper), (0.0, 1.0));
        // A binary fixed by its bounds is an integer column with those bounds.
        assert_eq!(var(&m, "g").kind, VarKind::Integer);
        assert_eq!((var(&m, "g").lower, var(&m, "g").upper), (1.0, 1.0));
        // Generals with bounds 0..1 are binary.
        let m = lp("min\n x\nst\nbounds\n x <= 1\ngenerals\n x\n");
        assert_eq!(var(&m, "x").kind, VarKind::Binary);
    }

    #[test]
    fn names_and_generated_row_names() {
        let m =
            lp("min\n x(1,2) + y#{a}.b + z!\"$%&/;?@_`'|~\nst\n x(1,2) >= 1\n c1: y#{a}.b >= 2\n");
        assert_eq!(m.vars.len(), 3);
        assert_eq!(m.vars[2].name.to_string(), "z!\"$%&/;?@_`'|~");
        assert_eq!(m.rows[0].name.to_string(), "c1_");
        assert_eq!(m.rows[1].name.to_string(), "c1");
    }

    #[test]
    fn empty_and_constant_rows() {
        let m = lp("min\n obj: 0\nst\n r: 0 >= 3\n r_ub: <= 5\n f: x >= -inf\n g: 2 + x <= 3\n");
        assert_eq!(m.objective_offset, 0.0);
        assert!(m.rows[0].terms.is_empty());
        assert_eq!(m.rows[0].lower, 3.0);
        assert_eq!((m.rows[1].lower, m.rows[1].upper), (f64::NEG_INFINITY, 5.0));
        assert_eq!(
            (m.rows[2].lower, m.rows[2].upper),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
        assert_eq!(m.rows[3].upper, 1.0);
    }

    #[test]
    fn errors_name_the_line() {
        fails("", 0, "empty");
        fails("\\ only a comment\n", 0, "empty");
        fails("x + y\n", 1, "Minimize");
        fails("min\n x\nst\n c: x + y\n d: x <= 1\n", 5, "sense");
        fails("min\n x\nst\n c: x + y\n", 4, "sense");
        fails("min\n x\nst\n c: x <= y\n", 4, "right-hand side");
        fails("min\n x\nst\n c: x <= 1\n c: x >= 0\n", 5, "second row");
        fails("min\n x\nst\n c: x + 1..2 y <= 1\n", 4, "number");
        fails("min\n x + [ x ^ 2 ]\n", 2, "quadratic");
        fails("min\n x\nst\n c: y = 1 -> x <= 2\n", 4, "indicator");
        fails(
            "min\n x\nst\n c: x <= 1\nsemi-continuous\n x\n",
            5,
            "semi-continuous",
        );
        fails("min\n x\nst\n c: x <= 1\nSOS\n s1: S1:: x:1\n", 5, "SOS");
        fails("min\n x\nbounds\n x <=\n", 4, "bound");
        fails("min\n x\nbounds\n 3 x\n", 4, "bound");
        fails("min\n x\ngenerals\n x 3\n", 4, "variable name");
        fails("min\n x\nst\n c: 1 <= x >= 0\n", 4, "ranged");
        fails("min\n x\nst\n c: x <= 1 <= 2\n", 4, "end of the row");
        fails("min\n x\n\\* open\n", 3, "not closed");
        fails("min\n .x\n", 2, "period");
        fails("min\n x\nst\n c: x + é <= 1\n", 4, "character");
        fails("min\n x + inf\n", 2, "not finite");
        fails("min\n x\nmax\n y\n", 3, "second objective");
        fails("st\n x >= 1\n", 0, "Maximize");
        fails("min\n x y\n", 2, "objective");
    }
}
