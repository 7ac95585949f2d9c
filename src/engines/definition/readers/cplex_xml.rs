//! CPLEX's XML solution file, as the interactive optimizer's `write FILE.sol` and the
//! callable library's `CPXsolwrite` (the Python API's `solution.write`) write it:
//! `<CPLEXSolution version="1.2">` holding a `<header .../>` whose attributes give the
//! status (`solutionStatusValue`, CPLEX's status code, and `solutionStatusString`),
//! then `<quality>`, `<linearConstraints>` and `<variables>` with a `<variable
//! name="C0" index="0" value="1"/>` per column (the nonzero ones only where the
//! `writelevel` parameter is 3 or 4: the engine takes the others as 0). CPLEX writes no
//! file when it has no solution (an infeasible model, a time limit without an
//! incumbent): the definition's log patterns say why. A solution pool's file
//! (`<CPLEXSolutions>`) holds several: the first, the incumbent, is read. Attributes
//! come in any order and either quotes; `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`
//! and `&#N;` are decoded.

use super::{number, ParseError, Reading, Said};

/// Reads `text`.
pub fn read(text: &str) -> Result<Reading, ParseError> {
    if text.trim().is_empty() {
        return Ok(Reading::default());
    }
    let mut scan = Scanner {
        text,
        pos: 0,
        line: 1,
    };
    let start = loop {
        match scan.tag()? {
            Some(t) if !t.closing && t.name == "CPLEXSolution" => break t,
            Some(_) => {}
            None => {
                return Err(ParseError {
                    line: 1,
                    why: "no <CPLEXSolution> element: no CPLEX solution file".into(),
                })
            }
        }
    };
    if start.empty {
        return Ok(Reading::default());
    }
    let mut status = None;
    let mut values: Option<Vec<(String, f64)>> = None;
    // The line of an open <variables>.
    let mut open_variables = None;
    loop {
        let Some(t) = scan.tag()? else {
            let (what, line) = match open_variables {
                Some(line) => ("<variables>", line),
                None => ("<CPLEXSolution>", start.line),
            };
            return Err(ParseError {
                line,
                why: format!("the file ends before the {what} of this line is closed"),
            });
        };
        match (t.closing, t.name) {
            (true, "CPLEXSolution") => break,
            (false, "header") => status = header_status(&t)?,
            (false, "variables") => {
                values.get_or_insert_with(Vec::new);
                if !t.empty {
                    open_variables = Some(t.line);
                }
            }
            (true, "variables") => open_variables = None,
            (false, "variable") if open_variables.is_some() => {
                let (name, _) = t.attr("name").ok_or_else(|| ParseError {
                    line: t.line,
                    why: "a <variable> without a name".into(),
                })?;
                let (value, line) = t.attr("value").ok_or_else(|| ParseError {
                    line: t.line,
                    why: format!("variable {name} without a value"),
                })?;
                let value = number(value, &format!("variable {name}"))
                    .map_err(|why| ParseError { line, why })?;
                values
                    .get_or_insert_with(Vec::new)
                    .push((name.to_string(), value));
            }
            _ => {}
        }
    }
    let values = match status {
        Some(Said::Infeasible | Said::Error(_)) => None,
        _ => values,
    };
    Ok(Reading { status, values })
}

/// The status the `<header>` `t` states, if it states one.
fn header_status(t: &Tag) -> Result<Option<Said>, ParseError> {
    let text = t.attr("solutionStatusString").map(|(s, _)| s);
    let code = match t.attr("solutionStatusValue") {
        Some((v, line)) => Some(v.trim().parse::<u32>().map_err(|_| ParseError {
            line,
            why: format!("solutionStatusValue '{v}' is no CPLEX status code"),
        })?),
        None => text.and_then(code_of),
    };
    if code.is_none() && text.is_none() {
        return Ok(None);
    }
    let s = code.and_then(said).unwrap_or_else(|| {
        let code = code.map_or(String::new(), |c| format!(" (status {c})"));
        Said::Error(format!(
            "CPLEX's solution file says: {}{code}",
            text.unwrap_or("an unknown status")
        ))
    });
    Ok(Some(s))
}

/// What CPLEX's status `code` says, `None` for the codes that are errors here (CPX_STAT_*
/// and CPXMIP_*: unbounded, node, iteration, memory and solution limits, aborts, failed
/// runs, the relaxations of feasopt, the conflict refiner's statuses).
fn said(code: u32) -> Option<Said> {
    Some(match code {
        // Optimal; integer optimal; within the MIP gap; populated, optimal and within
        // the gap; multi-objective optimal.
        1 | 101 | 102 | 129 | 130 | 301 => Said::Optimal,
        // Infeasible; integer infeasible; multi-objective infeasible.
        3 | 103 | 302 => Said::Infeasible,
        // Time limit and deterministic time limit, with and without an incumbent.
        11 | 25 | 107 | 108 | 131 | 132 => Said::TimeLimit,
        // A feasible solution, optimality not proved.
        23 | 127 => Said::Feasible,
        _ => return None,
    })
}

/// The status code of CPLEX's status string `text` (CPXgetstatstring), for the codes
/// [`said`] reads.
fn code_of(text: &str) -> Option<u32> {
    Some(match text {
        "optimal" => 1,
        "integer optimal solution" => 101,
        "integer optimal, tolerance" => 102,
        "all reachable solutions enumerated, integer optimal" => 129,
        "all reachable solutions enumerated, pool tolerance" => 130,
        "multi-objective optimal" => 301,
        "infeasible" => 3,
        "integer infeasible" => 103,
        "multi-objective infeasible" => 302,
        "time limit exceeded" => 107,
        "time limit exceeded, no integer solution" => 108,
        "deterministic time limit exceeded" => 131,
        "deterministic time limit exceeded, no integer solution" => 132,
        "feasible solution" => 23,
        "integer feasible solution" => 127,
        _ => return None,
    })
}

/// A tag of the file.
struct Tag<'a> {
    /// Its name.
    name: &'a str,
    /// Its attributes: name, value with its entities decoded, line.
    attrs: Vec<(&'a str, String, usize)>,
    /// The line of its `<`.
    line: usize,
    /// An end tag, `</name>`.
    closing: bool,
    /// An empty-element tag, `<name .../>`.
    empty: bool,
}

impl Tag<'_> {
    /// The value of attribute `name` and its line, if the tag has it.
    fn attr(&self, name: &str) -> Option<(&str, usize)> {
        self.attrs
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, v, l)| (v.as_str(), *l))
    }
}

/// The tags of an XML text, one after another, with their lines.
struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Scanner<'a> {
    /// Moves to byte `to`, counting the lines passed.
    fn go(&mut self, to: usize) {
        self.line += self.text[self.pos..to].matches('\n').count();
        self.pos = to;
    }

    /// Moves past the next `end` (or to the end of the text); false if there is none.
    fn past(&mut self, end: &str) -> bool {
        match self.text[self.pos..].find(end) {
            Some(i) => {
                self.go(self.pos + i + end.len());
                true
            }
            None => {
                self.go(self.text.len());
                false
            }
        }
    }

    /// Moves past white space.
    fn blank(&mut self) {
        let rest = &self.text[self.pos..];
        let n = rest.len() - rest.trim_start().len();
        self.go(self.pos + n);
    }

    /// The next tag (passing over text, comments, declarations and CDATA), `None` at
    /// the end of the text.
    fn tag(&mut self) -> Result<Option<Tag<'a>>, ParseError> {
        loop {
            if !self.past("<") {
                return Ok(None);
            }
            let line = self.line;
            let rest = &self.text[self.pos..];
            let skip = if rest.starts_with("!--") {
                Some(("-->", "a comment"))
            } else if rest.starts_with("![CDATA[") {
                Some(("]]>", "a CDATA section"))
            } else if rest.starts_with('?') {
                Some(("?>", "a declaration"))
            } else if rest.starts_with('!') {
                Some((">", "a declaration"))
            } else {
                None
            };
            match skip {
                Some((end, what)) if !self.past(end) => {
                    return Err(ParseError {
                        line,
                        why: format!("the file ends inside {what}"),
                    })
                }
                Some(_) => continue,
                None => return self.element(line).map(Some),
            }
        }
    }

    /// The rest of a start or end tag whose `<` is on line `line`.
    fn element(&mut self, line: usize) -> Result<Tag<'a>, ParseError> {
        let text = self.text;
        let closing = text[self.pos..].starts_with('/');
        if closing {
            self.go(self.pos + 1);
        }
        let delimiter = |c: char| c.is_whitespace() || matches!(c, '/' | '>' | '=' | '<');
        let word = move |from: usize| {
            let n = text[from..].find(delimiter).unwrap_or(text.len() - from);
            &text[from..from + n]
        };
        let name = word(self.pos);
        if name.is_empty() {
            return Err(ParseError {
                line,
                why: "a '<' without a tag name".into(),
            });
        }
        self.go(self.pos + name.len());
        let ends = |what: &str| ParseError {
            line,
            why: format!("the file ends inside the <{name}> tag{what}"),
        };
        let mut tag = Tag {
            name,
            attrs: Vec::new(),
            line,
            closing,
            empty: false,
        };
        loop {
            self.blank();
            let rest = &text[self.pos..];
            if rest.is_empty() {
                return Err(ends(""));
            }
            if rest.starts_with('>') {
                self.go(self.pos + 1);
                return Ok(tag);
            }
            if rest.starts_with("/>") {
                self.go(self.pos + 2);
                tag.empty = true;
                return Ok(tag);
            }
            let at = self.line;
            let bad = |why: String| ParseError { line: at, why };
            let attr = word(self.pos);
            if attr.is_empty() || closing {
                let c = rest.chars().next().unwrap_or(' ');
                return Err(bad(format!("'{c}' in the <{name}> tag")));
            }
            self.go(self.pos + attr.len());
            self.blank();
            if !text[self.pos..].starts_with('=') {
                return Err(bad(format!(
                    "attribute {attr} of the <{name}> tag without a value"
                )));
            }
            self.go(self.pos + 1);
            self.blank();
            let quote = match text[self.pos..].chars().next() {
                Some(q @ ('"' | '\'')) => q,
                Some(_) => {
                    return Err(bad(format!(
                        "attribute {attr} of the <{name}> tag: its value is not quoted"
                    )))
                }
                None => return Err(ends("")),
            };
            let from = self.pos + 1;
            let Some(n) = text[from..].find(quote) else {
                return Err(ends(&format!(" (in attribute {attr})")));
            };
            let value = unescape(&text[from..from + n])
                .map_err(|why| bad(format!("attribute {attr}: {why}")))?;
            self.go(from + n + 1);
            tag.attrs.push((attr, value, at));
        }
    }
}

/// `raw` with its entity and character references decoded.
fn unescape(raw: &str) -> Result<String, String> {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after
            .find(';')
            .ok_or_else(|| format!("'&' without ';' in '{raw}'"))?;
        let entity = &after[..end];
        let c = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix('#')
                .and_then(|n| match n.strip_prefix(['x', 'X']) {
                    Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                        u32::from_str_radix(hex, 16).ok()
                    }
                    None if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                        n.parse::<u32>().ok()
                    }
                    _ => None,
                })
                .and_then(char::from_u32),
        };
        out.push(c.ok_or_else(|| format!("'&{entity};' is no entity XML knows"))?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(v: &[(&str, f64)]) -> Option<Vec<(String, f64)>> {
        Some(v.iter().map(|&(n, x)| (n.to_string(), x)).collect())
    }

    // The samples are CPLEX 22.1's (PyPI's cplex 22.2.0.0): `c = cplex.Cplex("M.mps");
    // c.solve(); c.solution.write("S.xml")` on free MPS files written by hand as the
    // engine writes them: `knap` (minimise -5 C0 - 4 C1 - 3 C2 over binaries, 2 C0 + 3 C1
    // + C2 <= 4) and `ms2` (a market-split instance: 10 binaries and 4 slack columns in
    // two equality rows) with `c.parameters.timelimit.set(0.001)`. On `infeas` (binaries
    // C0 + C1 >= 3) CPLEX says 103 "integer infeasible" and writes no file ("CPLEX Error
    // 1217: No solution exists"); so does a time limit without an incumbent (108).
    const OPTIMAL: &str = r#"<?xml version = "1.0" encoding="UTF-8" standalone="yes"?>
<CPLEXSolution version="1.2">
 <header
   problemName="knap.mps"
   solutionName="incumbent"
   solutionIndex="-1"
   objectiveValue="-8"
   solutionTypeValue="3"
   solutionTypeString="primal"
   solutionStatusValue="101"
   solutionStatusString="integer optimal solution"
   solutionMethodString="mip"
   primalFeasible="1"
   dualFeasible="1"
   MIPNodes="0"
   MIPIterations="0"
   writeLevel="1"/>
 <quality
   epInt="1.0000000000000001e-05"
   epRHS="9.9999999999999995e-07"
   maxIntInfeas="0"
   maxPrimalInfeas="0"
   maxX="1"
   maxSlack="1"/>
 <linearConstraints>
  <constraint name="R0" index="0" slack="1"/>
 </linearConstraints>
 <variables>
  <variable name="C0" index="0" value="1"/>
  <variable name="C1" index="1" value="0"/>
  <variable name="C2" index="2" value="1"/>
 </variables>
</CPLEXSolution>
"#;

    const TIME_LIMIT: &str = r#"<?xml version = "1.0" encoding="UTF-8" standalone="yes"?>
<CPLEXSolution version="1.2">
 <header
   problemName="ms2_1.mps"
   solutionName="incumbent"
   solutionIndex="-1"
   objectiveValue="515"
   solutionTypeValue="3"
   solutionTypeString="primal"
   solutionStatusValue="107"
   solutionStatusString="time limit exceeded"
   solutionMethodString="mip"
   primalFeasible="1"
   dualFeasible="0"
   MIPNodes="0"
   MIPIterations="0"
   writeLevel="1"/>
 <quality
   epInt="1.0000000000000001e-05"
   epRHS="9.9999999999999995e-07"
   maxIntInfeas="0"
   maxPrimalInfeas="0"
   maxX="259"
   maxSlack="0"/>
 <linearConstraints>
  <constraint name="R0" index="0" slack="0"/>
  <constraint name="R1" index="1" slack="0"/>
 </linearConstraints>
 <variables>
  <variable name="C0" index="0" value="0"/>
  <variable name="C1" index="1" value="0"/>
  <variable name="C2" index="2" value="0"/>
  <variable name="C3" index="3" value="0"/>
  <variable name="C4" index="4" value="0"/>
  <variable name="C5" index="5" value="0"/>
  <variable name="C6" index="6" value="0"/>
  <variable name="C7" index="7" value="0"/>
  <variable name="C8" index="8" value="0"/>
  <variable name="C9" index="9" value="0"/>
  <variable name="C10" index="10" value="259"/>
  <variable name="C11" index="11" value="0"/>
  <variable name="C12" index="12" value="256"/>
  <variable name="C13" index="13" value="0"/>
 </variables>
</CPLEXSolution>
"#;

    #[test]
    fn optimal_and_time_limit_files() {
        let r = read(OPTIMAL).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(r.values, pairs(&[("C0", 1.0), ("C1", 0.0), ("C2", 1.0)]));
        let r = read(TIME_LIMIT).unwrap();
        assert_eq!(r.status, Some(Said::TimeLimit));
        let values = r.values.unwrap();
        assert_eq!(values.len(), 14);
        assert_eq!(values[10], ("C10".to_string(), 259.0));
        assert_eq!(read("").unwrap(), Reading::default());
    }

    #[test]
    fn statuses_by_code_and_by_string() {
        let with = |value: &str, string: &str| {
            let header =
                "solutionStatusValue=\"101\"\n   solutionStatusString=\"integer optimal solution\"";
            let mut replaced = String::new();
            if !value.is_empty() {
                replaced += &format!("solutionStatusValue=\"{value}\"\n   ");
            }
            if !string.is_empty() {
                replaced += &format!("solutionStatusString=\"{string}\"");
            }
            read(&OPTIMAL.replace(header, &replaced)).unwrap()
        };
        let r = with("103", "integer infeasible");
        assert_eq!((r.status, r.values), (Some(Said::Infeasible), None));
        assert_eq!(
            with("102", "integer optimal, tolerance").status,
            Some(Said::Optimal)
        );
        assert_eq!(with("1", "optimal").status, Some(Said::Optimal));
        assert_eq!(
            with("11", "time limit exceeded").status,
            Some(Said::TimeLimit)
        );
        assert_eq!(with("127", "").status, Some(Said::Feasible));
        assert_eq!(
            with("", "integer optimal solution").status,
            Some(Said::Optimal)
        );
        assert_eq!(
            with("", "time limit exceeded").status,
            Some(Said::TimeLimit)
        );
        assert_eq!(with("", "").status, None);
        let r = with("118", "integer unbounded");
        assert!(
            matches!(r.status, Some(Said::Error(ref why)) if why.contains("integer unbounded") && why.contains("118")),
            "{:?}",
            r.status
        );
        assert_eq!(r.values, None);
        let r = with("", "node limit exceeded");
        assert!(matches!(r.status, Some(Said::Error(ref why)) if why.contains("node limit")));
    }

    #[test]
    fn quotes_entities_order_zeros_left_out_and_a_pool() {
        // Names with XML's special characters: CPLEX 22.1 writes them as entities.
        let names = r#"<CPLEXSolution version="1.2">
 <header solutionStatusValue="101"/>
 <variables>
  <variable name="a&amp;b" index="0" value="-0"/>
  <variable name="x&lt;1&gt;" index="1" value="1"/>
  <variable name="q&quot;r" index="2" value="1"/>
  <variable name="s&apos;" index="3" value="0"/>
  <variable value = '2.5e0' index='4' name='t&#38;&#x41;"'/>
 </variables>
</CPLEXSolution>"#;
        let r = read(names).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(
            r.values,
            pairs(&[
                ("a&b", -0.0),
                ("x<1>", 1.0),
                ("q\"r", 1.0),
                ("s'", 0.0),
                ("t&A\"", 2.5)
            ])
        );
        // The `writelevel` parameter at 3: the nonzero values only, or none at all.
        let nonzero = OPTIMAL.replace("  <variable name=\"C1\" index=\"1\" value=\"0\"/>\n", "");
        assert_eq!(
            read(&nonzero).unwrap().values,
            pairs(&[("C0", 1.0), ("C2", 1.0)])
        );
        let none =
            "<CPLEXSolution><header solutionStatusValue=\"101\"/><variables/></CPLEXSolution>";
        assert_eq!(read(none).unwrap().values, Some(Vec::new()));
        // `c.populate_solution_pool(); c.solution.pool.write(...)` on `knap`: the
        // incumbent (status 129) first, then the pool's (status 127).
        let body = |status: &str, c1: &str| {
            format!(
                " <CPLEXSolution version=\"1.2\">\n  <header\n    solutionStatusValue=\"{status}\"/>\n  <variables>\n   <variable name=\"C0\" index=\"0\" value=\"1\"/>\n   <variable name=\"C1\" index=\"1\" value=\"{c1}\"/>\n  </variables>\n </CPLEXSolution>\n"
            )
        };
        let pool = format!(
            "<?xml version = \"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<CPLEXSolutions version=\"1.2\">\n{}{}</CPLEXSolutions>\n",
            body("129", "0"),
            body("127", "1")
        );
        let r = read(&pool).unwrap();
        assert_eq!(r.status, Some(Said::Optimal));
        assert_eq!(r.values, pairs(&[("C0", 1.0), ("C1", 0.0)]));
        // Comments and a declaration are passed over.
        let commented = OPTIMAL.replace(
            " <variables>",
            " <!-- <variable name=\"C9\" value=\"9\"/> -->\n <!DOCTYPE x>\n <variables>",
        );
        assert_eq!(read(&commented).unwrap().values.unwrap().len(), 3);
    }

    #[test]
    fn a_bad_or_truncated_file_is_an_error_with_its_line() {
        let e = read(&OPTIMAL.replace("index=\"1\" value=\"0\"", "index=\"1\" value=\"zero\""))
            .unwrap_err();
        assert_eq!(e.line, 30);
        assert!(e.why.contains("C1") && e.why.contains("zero"), "{}", e.why);
        let e = read(&OPTIMAL.replace("value=\"0\"", "")).unwrap_err();
        assert_eq!(e.line, 30, "{}", e.why);
        let e = read(&OPTIMAL.replace("\"101\"", "\"many\"")).unwrap_err();
        assert_eq!(e.line, 10, "{}", e.why);
        let e = read(&OPTIMAL.replace("\"integer optimal solution\"", "integer")).unwrap_err();
        assert_eq!(e.line, 11, "{}", e.why);
        let e = read(&OPTIMAL.replace("C1", "C&one;")).unwrap_err();
        assert_eq!(e.line, 30, "{}", e.why);
        // Cut inside <variables>, inside a tag, inside an attribute, after </variables>.
        let cut = |at: &str| read(&OPTIMAL[..OPTIMAL.find(at).unwrap()]).unwrap_err();
        assert_eq!(cut("  <variable name=\"C2\"").line, 28);
        assert_eq!(cut(" index=\"2\"").line, 31);
        assert_eq!(cut("2\" value=\"1\"").line, 31);
        assert_eq!(cut("</CPLEXSolution>").line, 2);
        assert_eq!(read("Optimal - objective value 2\n").unwrap_err().line, 1);
        assert_eq!(
            read("<?xml version=\"1.0\"?>\n<!-- cut").unwrap_err().line,
            2
        );
    }
}
