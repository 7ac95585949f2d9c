//! `puzzlebench list`: puzzles, their formulations (with the kind of problem each hands
//! an engine) and input formats, the built-in engines with what they take, and apart
//! from them the engines that definitions add, each with the file it came from, and the
//! formulations written outside Rust (`user:...`), each with its file.

use crate::engines::{registry, Engine, ENGINES};
use crate::puzzles::user;
use crate::puzzles::FormulationSource;
use crate::puzzles::PUZZLES;

fn engine_lines(s: &mut String, e: Engine) {
    s.push_str(&format!(
        "  {:<12} {} [{}]\n      {}\n",
        e.key(),
        e.description(),
        e.version(),
        e.capabilities().summary()
    ));
}

/// The listing, as printed.
pub fn text() -> String {
    let mut s = String::from("Puzzles and formulations (the first is the default; [kind]):\n");
    for p in PUZZLES.iter().filter(|p| !p.hidden()) {
        s.push_str(&format!("  {:<12} {}\n", p.key(), p.description()));
        for f in p
            .formulations()
            .iter()
            .filter(|f| f.source == FormulationSource::BuiltIn)
        {
            s.push_str(&format!(
                "      {:<10} [{}] {}\n",
                f.key,
                f.kind.key(),
                f.description
            ));
        }
        s.push_str(&format!("      input: {}\n", p.formats()));
        if let Some(meaning) = p.user_meaning() {
            s.push_str(&format!(
                "      outside Rust: export --json; answer variables {meaning}\n"
            ));
        }
        if p.generator().is_some() {
            s.push_str(&format!(
                "      generator: puzzlebench generate {} --help\n",
                p.key()
            ));
        }
    }
    s.push_str("Engines (--backend):\n");
    for &e in ENGINES {
        engine_lines(&mut s, e);
    }
    let defined = registry::defined();
    let folders: Vec<String> = registry::folders()
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    s.push_str(&format!(
        "Engine definitions (--backend; from {}):\n",
        if folders.is_empty() {
            "no definition folder".to_string()
        } else {
            folders.join(", ")
        }
    ));
    if defined.is_empty() {
        s.push_str("  none\n");
    }
    for d in defined {
        engine_lines(&mut s, d.engine);
        s.push_str(&format!("      defined in {}\n", d.file.display()));
    }
    let folders: Vec<String> = user::registry::folders()
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    s.push_str(&format!(
        "Formulations written outside Rust (--formulation; from {}):\n",
        if folders.is_empty() {
            "no definition folder".to_string()
        } else {
            folders.join(", ")
        }
    ));
    let all = user::registry::all();
    if all.is_empty() {
        s.push_str("  none\n");
    }
    for f in all {
        s.push_str(&format!(
            "  {:<12} {:<16} [mip] {}\n      writes {} by {}\n      defined in {}\n",
            f.puzzle,
            f.key,
            f.description,
            match f.format {
                crate::formats::Format::Lp => "LP",
                crate::formats::Format::Mps => "MPS",
            },
            f.command.join(" "),
            f.file.display()
        ));
    }
    s
}
