//! `puzzlebench list`: puzzles, their formulations (with the kind of problem each hands
//! an engine) and input formats, and the engines with what they take.

use crate::engines::ENGINES;
use crate::puzzles::PUZZLES;

/// The listing, as printed.
pub fn text() -> String {
    let mut s = String::from("Puzzles and formulations (the first is the default; [kind]):\n");
    for p in PUZZLES.iter().filter(|p| !p.hidden()) {
        s.push_str(&format!("  {:<12} {}\n", p.key(), p.description()));
        for f in p.formulations() {
            s.push_str(&format!(
                "      {:<10} [{}] {}\n",
                f.key,
                f.kind.key(),
                f.description
            ));
        }
        s.push_str(&format!("      input: {}\n", p.formats()));
        if p.generator().is_some() {
            s.push_str(&format!(
                "      generator: puzzlebench generate {} --help\n",
                p.key()
            ));
        }
    }
    s.push_str("Engines (--backend):\n");
    for e in ENGINES {
        s.push_str(&format!(
            "  {:<12} {} [{}]\n      {}\n",
            e.key(),
            e.description(),
            e.version(),
            e.capabilities().summary()
        ));
    }
    s
}
