//! The Zebra text format: one puzzle per file, one statement per line, words separated
//! by spaces; blank lines and everything after `#` are ignored.
//!
//! ```text
//! houses 5
//! attribute colour Blue Green Ivory Red Yellow
//! attribute pet Dog Fox Horse Snails Zebra
//! same Red Dog          # the red house has the dog
//! at Blue 2             # houses count from 1 at the left
//! not next Fox Horse    # any clue may be negated with a leading 'not'
//! ```
//!
//! * `houses H` comes first (H from 1 to 64).
//! * `attribute NAME V1 … VH` declares an attribute and its H values. Names are words
//!   of letters, digits, `_`, `-` and `'`. A value may be used as `NAME.VALUE`; a bare
//!   value must belong to one attribute only.
//! * Clues, after the attributes they mention: `same A B` (same house), `at A I` (house I),
//!   `left A B` (A's house is immediately left of B's), `right A B` (immediately right
//!   of), `next A B` (neighbouring houses); `not` before any of them negates it. A clue
//!   may not relate a property to itself.

use super::{Attribute, Clue, Prop, Relation, Zebra};
use crate::puzzles::InputError;
use std::path::Path;

/// Parses the puzzle in `text` (the contents of `path`), named after the file stem.
pub fn parse_file(path: &Path, text: &str) -> Result<Zebra, InputError> {
    let name = path
        .file_stem()
        .map_or("zebra".into(), |s| s.to_string_lossy().to_string());
    let mut z = parse_str(text).map_err(|(line, m)| InputError::new(path, line, m))?;
    z.name = name;
    Ok(z)
}

fn is_word(w: &str) -> bool {
    !w.is_empty()
        && w.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '\'')
}

/// Parses the text of a puzzle; errors carry the line (from 1; 0 for the whole text).
pub fn parse_str(text: &str) -> Result<Zebra, (usize, String)> {
    let mut z = Zebra {
        name: String::new(),
        houses: 0,
        attributes: Vec::new(),
        clues: Vec::new(),
    };
    for (no, raw) in text.lines().enumerate() {
        let line = no + 1;
        let content = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = content.split_whitespace().collect();
        let Some(&first) = words.first() else {
            continue;
        };
        let err = |m: String| (line, m);
        match first {
            "houses" => {
                if z.houses != 0 {
                    return Err(err("'houses' is given twice".into()));
                }
                if words.len() != 2 {
                    return Err(err("'houses' takes one number: houses H".into()));
                }
                let h: usize = words[1]
                    .parse()
                    .map_err(|_| err(format!("'{}' is not a number of houses", words[1])))?;
                if !(1..=64).contains(&h) {
                    return Err(err(format!("{h} houses: the format allows 1 to 64")));
                }
                z.houses = h;
            }
            "attribute" => {
                if z.houses == 0 {
                    return Err(err("'houses H' must come before the attributes".into()));
                }
                if !z.clues.is_empty() {
                    return Err(err("attributes must come before the clues".into()));
                }
                if words.len() < 2 {
                    return Err(err("'attribute' needs a name and its values".into()));
                }
                let name = words[1];
                let values: Vec<String> = words[2..].iter().map(|w| w.to_string()).collect();
                for w in std::iter::once(name).chain(words[2..].iter().copied()) {
                    if !is_word(w) {
                        return Err(err(format!(
                            "'{w}' is not a name (letters, digits, '_', '-' or ''')"
                        )));
                    }
                }
                if values.len() != z.houses {
                    return Err(err(format!(
                        "attribute {name} has {} values; there are {} houses",
                        values.len(),
                        z.houses
                    )));
                }
                if z.attributes.iter().any(|a| a.name == name) {
                    return Err(err(format!("attribute {name} is declared twice")));
                }
                for (i, v) in values.iter().enumerate() {
                    if values[..i].contains(v) {
                        return Err(err(format!("attribute {name} lists {v} twice")));
                    }
                }
                z.attributes.push(Attribute {
                    name: name.to_string(),
                    values,
                });
            }
            _ => {
                let clue = parse_clue(&z, &words).map_err(err)?;
                z.clues.push(clue);
            }
        }
    }
    if z.houses == 0 {
        return Err((0, "no 'houses H' line".into()));
    }
    if z.attributes.is_empty() {
        return Err((0, "no attribute declared".into()));
    }
    Ok(z)
}

fn parse_clue(z: &Zebra, words: &[&str]) -> Result<Clue, String> {
    let (negated, rest) = match words {
        ["not", rest @ ..] => (true, rest),
        _ => (false, words),
    };
    let Some((&kind, args)) = rest.split_first() else {
        return Err("'not' needs a clue after it".into());
    };
    if !matches!(kind, "same" | "at" | "left" | "right" | "next") {
        return Err(format!(
            "unknown statement '{kind}'; expected houses, attribute, same, at, left, right, next or not"
        ));
    }
    if z.attributes.is_empty() {
        return Err("clues must come after the attributes".into());
    }
    if args.len() != 2 {
        return Err(format!("'{kind}' takes two arguments, not {}", args.len()));
    }
    let p = prop(z, args[0])?;
    let relation = if kind == "at" {
        let h: usize = args[1]
            .parse()
            .map_err(|_| format!("'{}' is not a house number", args[1]))?;
        if !(1..=z.houses).contains(&h) {
            return Err(format!("house {h} is not in 1..{}", z.houses));
        }
        Relation::At(p, h - 1)
    } else {
        let q = prop(z, args[1])?;
        if p == q {
            return Err(format!("the clue relates {} to itself", args[0]));
        }
        match kind {
            "same" => Relation::Same(p, q),
            "left" => Relation::LeftOf(p, q),
            "right" => Relation::RightOf(p, q),
            _ => Relation::NextTo(p, q),
        }
    };
    Ok(Clue { relation, negated })
}

/// Finds a property by `VALUE` or `ATTRIBUTE.VALUE`.
fn prop(z: &Zebra, word: &str) -> Result<Prop, String> {
    if let Some((a, v)) = word.split_once('.') {
        let attr = z
            .attributes
            .iter()
            .position(|at| at.name == a)
            .ok_or_else(|| format!("no attribute named {a}"))?;
        let value = z.attributes[attr]
            .values
            .iter()
            .position(|x| x == v)
            .ok_or_else(|| format!("attribute {a} has no value {v}"))?;
        return Ok(Prop { attr, value });
    }
    let found: Vec<Prop> = z
        .attributes
        .iter()
        .enumerate()
        .filter_map(|(attr, at)| {
            at.values
                .iter()
                .position(|x| x == word)
                .map(|value| Prop { attr, value })
        })
        .collect();
    match found.as_slice() {
        [p] => Ok(*p),
        [] => Err(format!("no attribute has a value named {word}")),
        _ => Err(format!(
            "{word} is a value of several attributes; write ATTRIBUTE.{word}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "houses 3\nattribute colour Red Green Blue\nattribute pet Dog Cat Fox\n\
                         same Red Dog\nnot at colour.Green 2 # comment\nnext Cat Fox\n";

    #[test]
    fn reads_and_writes_the_format() {
        let z = parse_str(SMALL).unwrap();
        assert_eq!(z.houses, 3);
        assert_eq!(z.clues.len(), 3);
        assert!(z.clues[1].negated);
        let back = parse_str(&z.to_text()).unwrap();
        assert_eq!(back, z);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("houses 3\nattribute c A B\n", 2, "2 values"),
            (
                "houses 2\nattribute c A B\nsame A Q\n",
                3,
                "no attribute has a value named Q",
            ),
            ("houses 2\nattribute c A B\nat A 3\n", 3, "house 3"),
            ("houses 2\nattribute c A B\nsame A A\n", 3, "itself"),
            (
                "houses 2\nattribute c A B\nnear A B\n",
                3,
                "unknown statement",
            ),
            ("attribute c A B\n", 1, "before"),
            (
                "houses 2\nattribute c A B\nattribute d A C\nsame A C\n",
                4,
                "several",
            ),
            ("houses 2\nattribute c A B\nnot\n", 3, "needs a clue"),
        ];
        for (text, line, want) in cases {
            let (l, m) = parse_str(text).unwrap_err();
            assert_eq!(l, line, "{text}: {m}");
            assert!(m.contains(want), "{text}: {m}");
        }
        assert_eq!(parse_str("# nothing\n").unwrap_err().0, 0);
    }
}
