//! Short fuzzing of the instance parsers (proptest): no input makes them panic, and every
//! error names the file and, where there is one, the line.

use proptest::prelude::*;
use puzzlebench::puzzles::hashi::parse as hashi_parse;
use puzzlebench::puzzles::sudoku::parse;
use puzzlebench::puzzles::zebra::parse as zebra_parse;
use std::path::Path;

const SOLO: &str = "3x3:a4_9_7h3c4b6d2_7_9_8a7a9b5a2g8a9b8a7a6_5_2_3d1b1c8h3_5_6a";
const LINE: &str =
    "3..4..9......7..65.976......8.23.5...7.....9...2.97.8......573.74..8..5...5..1..8";

fn check(text: &str) {
    match parse::parse_file(Path::new("fuzz.txt"), text) {
        Ok(ps) => {
            for p in ps {
                let n = p.box_rows * p.box_cols;
                assert_eq!(p.givens.len(), n);
                assert!(p
                    .givens
                    .iter()
                    .all(|r| r.len() == n && r.iter().all(|&v| v as usize <= n)));
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt:"), "{e}"),
    }
}

const BRIDGES: &str = "7x7m2:2b5b3b2h2b4a3g2d1b5a32f";
const HAS: &str = "4 5 4\n2 0 0 0 1\n0 0 0 0 0\n0 0 0 0 0\n3 0 0 0 2\n";

fn check_hashi(name: &str, text: &str) {
    match hashi_parse::parse_file(Path::new(name), text) {
        Ok(hs) => {
            for h in hs {
                assert!(!h.islands.is_empty());
                assert!(h
                    .islands
                    .iter()
                    .all(|i| i.row < h.rows && i.col < h.cols && i.label >= 1));
                assert!(h
                    .islands
                    .windows(2)
                    .all(|w| (w[0].row, w[0].col) < (w[1].row, w[1].col)));
                // Building the models must not panic either.
                let pairs = h.pairs();
                let _ = h.crossings(&pairs);
            }
        }
        Err(e) => assert!(e.to_string().starts_with(&format!("{name}:")), "{e}"),
    }
}

const ZEBRA: &str = "houses 3\nattribute colour Red Green Blue\nattribute pet Dog Cat Fox\n\
                     same Red Dog\nnot at colour.Green 2\nnext Cat Fox # c\nleft Blue Fox\n";

fn check_zebra(text: &str) {
    match zebra_parse::parse_file(Path::new("fuzz.txt"), text) {
        Ok(z) => {
            assert!(z.houses >= 1 && !z.attributes.is_empty());
            assert!(z.attributes.iter().all(|a| a.values.len() == z.houses));
            // What parses prints back to the same puzzle.
            let again = zebra_parse::parse_file(Path::new("fuzz.txt"), &z.to_text()).unwrap();
            assert_eq!(again, z);
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt:"), "{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text(text in "\\PC{0,300}") {
        check(&text);
    }

    #[test]
    fn puzzle_like_text(text in "[0-9a-zA-Z._:x#\\n ]{0,400}") {
        check(&text);
    }

    #[test]
    fn mutated_solo_ids(pos in 0usize..SOLO.len(), c in "[0-9a-z_:x,A-Z]", cut in 0usize..SOLO.len()) {
        let mut s: String = SOLO.to_string();
        s.replace_range(pos..pos + 1, &c);
        check(&s);
        check(&SOLO[..cut]);
    }

    #[test]
    fn mutated_lines(pos in 0usize..LINE.len(), c in "\\PC", extra in "[.0-9]{0,3}") {
        let mut s: String = LINE.to_string();
        s.replace_range(pos..pos + 1, &c);
        s.push_str(&extra);
        check(&s);
    }

    #[test]
    fn hashi_arbitrary_text(text in "\\PC{0,300}") {
        check_hashi("fuzz.txt", &text);
    }

    #[test]
    fn hashi_like_text(text in "[0-9a-zA-G:xmLide#\\n ]{0,200}") {
        check_hashi("fuzz.txt", &text);
    }

    #[test]
    fn mutated_bridges_ids(pos in 0usize..BRIDGES.len(), c in "[0-9a-zA-H:xmL#]", cut in 0usize..BRIDGES.len()) {
        let mut s: String = BRIDGES.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_hashi("fuzz.txt", &s);
        check_hashi("fuzz.txt", &BRIDGES[..cut]);
    }

    #[test]
    fn mutated_has_files(pos in 0usize..HAS.len(), c in "[0-9 \\nx-]", cut in 0usize..HAS.len()) {
        let mut s: String = HAS.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_hashi("fuzz.has", &s);
        check_hashi("fuzz.has", &HAS[..cut]);
    }
}

const BATTLESHIP: &str = "puzzle six\nlevel hard\nfleet 3 2 1\nrows 2 1 1 2 1 3\ncols 1 3 2 0 1 3\ngrid\n.~...~\n......\n......\n......\n......\n......\nsolution\no~o~~~\n~~~~o~\n~^~~~~\n~v~~~^\n~~~~~+\n~<>~~v\n";

fn check_battleship(text: &str) {
    use puzzlebench::puzzles::battleship::parse as bs;
    match bs::parse_file(Path::new("fuzz.txt"), text) {
        Ok(ps) => {
            for p in ps {
                assert_eq!(p.givens.len(), p.rows.len());
                assert!(p.givens.iter().all(|r| r.len() == p.cols.len()));
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt"), "{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn battleship_arbitrary_text(text in "\\PC{0,300}") {
        check_battleship(&text);
    }

    #[test]
    fn battleship_mutated(pos in 0usize..BATTLESHIP.len(), c in "[0-9a-z .~<>^v+o#\\n]", cut in 0usize..BATTLESHIP.len()) {
        let mut s: String = BATTLESHIP.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_battleship(&s);
        check_battleship(&BATTLESHIP[..cut]);
    }
}

proptest! {
    #[test]
    fn zebra_arbitrary_text(text in "\\PC{0,300}") {
        check_zebra(&text);
    }

    #[test]
    fn zebra_like_text(text in "(houses|attribute|same|not|at|left|right|next|[A-Za-z.0-9#]{1,6}| |\\n){0,60}") {
        check_zebra(&text);
    }

    #[test]
    fn zebra_mutated(pos in 0usize..ZEBRA.len(), c in "\\PC", cut in 0usize..ZEBRA.len()) {
        let mut s: String = ZEBRA.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_zebra(&s);
        check_zebra(&ZEBRA[..cut]);
    }
}

const CIRCUIT: &str = "puzzle c\nunique no\ngrid 3 3\no # o\n. . .\nS-o o\n| . .\no o T\nsolution\no # o\n| . |\no-o-o\n| | |\no o o\n";

fn check_circuit(text: &str) {
    use puzzlebench::puzzles::circuit::{parse as cp, verify};
    match cp::parse_file(Path::new("fuzz.txt"), text) {
        Ok(ps) => {
            for p in ps {
                assert_eq!(p.blocked.len(), p.rows * p.cols);
                assert!(p.given.iter().all(|l| p.is_point(l.0) && p.is_point(l.1)));
                if let Some(sol) = &p.solution {
                    assert_eq!(verify::check(&p, sol, None), Ok(()));
                }
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt"), "{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn circuit_arbitrary_text(text in "\\PC{0,300}") {
        check_circuit(&text);
    }

    #[test]
    fn circuit_mutated(pos in 0usize..CIRCUIT.len(), c in "[0-9a-z .#|ST\\n-]", cut in 0usize..CIRCUIT.len()) {
        let mut s: String = CIRCUIT.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_circuit(&s);
        check_circuit(&CIRCUIT[..cut]);
    }
}

const KEEN: &str = "6:_aa_a_6a__a_a__aaca__a_3a__a_b__b_a_,m12a6m36a7s2s1d2a6d2d3s1m12s2a9m20s2";
const KENKEN: &str = "kenken 3\n3+ r1c1 r1c2\n2/ r2c1 r3c1\n6* r1c3 r2c3 r3c3 # c\n1- r2c2 r3c2\n";

fn check_kenken(text: &str) {
    use puzzlebench::puzzles::kenken::parse as kp;
    match kp::parse_file(Path::new("fuzz.txt"), text) {
        Ok(ps) => {
            for p in ps {
                // Every cell in exactly one cage, every cage within the grid.
                let mut seen = vec![0; p.n * p.n];
                for c in &p.cages {
                    assert!(!c.cells.is_empty() && c.target > 0);
                    for &(i, j) in &c.cells {
                        seen[i * p.n + j] += 1;
                    }
                }
                assert!(seen.iter().all(|&k| k == 1));
                // What parses prints back to the same puzzle, and small models build.
                let again = kp::parse_text(Path::new("fuzz.txt"), &p.to_text()).unwrap();
                assert_eq!(again.cages, p.cages);
                if p.n <= 9 {
                    let _ = puzzlebench::puzzles::kenken::melkonian::build(&p);
                    let _ = puzzlebench::puzzles::kenken::log::build(&p);
                }
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt"), "{e}"),
    }
}

const KILLER: &str =
    "2x3k:zj,aa___a__a__aa_bcaaa___a_________a_aa_aa__,6a6a7_8_6_9_7f13_7_4_11e13b8b3a8a10a";
const JIGSAW: &str = "6j:c2c1c3c1_5_6_6_5_1c1c6c5c,babab__b__babaaabababff";
const VARIANT: &str = "sudoku 4\ndiagonals\nregions\nAABB\nAABB\nCCDD\nCCDD\ngivens\n1...\n....\n....\n...1\ncage 5 r1c2 r2c2\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn kenken_arbitrary_text(text in "\\PC{0,300}") {
        check_kenken(&text);
    }

    #[test]
    fn keen_mutated(pos in 0usize..KEEN.len(), c in "[0-9a-z_:,]", cut in 0usize..KEEN.len()) {
        let mut s: String = KEEN.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_kenken(&s);
        check_kenken(&KEEN[..cut]);
    }

    #[test]
    fn kenken_text_mutated(pos in 0usize..KENKEN.len(), c in "[0-9rc +*/x=#\\n-]", cut in 0usize..KENKEN.len()) {
        let mut s: String = KENKEN.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_kenken(&s);
        check_kenken(&KENKEN[..cut]);
    }

    #[test]
    fn solo_variants_mutated(which in 0usize..3, pos in 0usize..200, c in "[0-9a-z_:,#\\nABCD.]", cut in 0usize..200) {
        let base = [KILLER, JIGSAW, VARIANT][which];
        let pos = pos % base.len();
        let mut s: String = base.to_string();
        s.replace_range(pos..pos + 1, &c);
        check(&s);
        check(&base[..cut % base.len()]);
    }
}

const PATTERN: &str = "5x5:2/1/3/3/3/2/2/3/1.1/2.1,cBa";
const NON: &str = "width 3\nheight 2\nrows\n2\n1\ncolumns\n1\n2\n0\ngoal \"110010\"\n";
const NONOGRAM: &str = "nonogram\nrows\n2\n1\ncolumns\n1\n2\n-\npicture\n##.\n.#.\n";

fn check_nonogram(text: &str) {
    use puzzlebench::puzzles::nonogram::{parse as np, verify};
    match np::parse_file(Path::new("fuzz.txt"), text) {
        Ok(ps) => {
            for p in ps {
                // Clues fit their lines, a goal meets them, and the text form reads back.
                assert_eq!(p.rows.len(), p.height());
                assert_eq!(p.cols.len(), p.width());
                if let Some(goal) = &p.goal {
                    assert_eq!(verify::check(&p, goal), Ok(()));
                }
                let again = np::parse_text(Path::new("fuzz.txt"), &p.to_text()).unwrap();
                assert_eq!((again.rows, again.cols), (p.rows.clone(), p.cols.clone()));
                if p.width() * p.height() <= 400 {
                    let _ = puzzlebench::puzzles::nonogram::bosch::build(&p);
                    let _ = puzzlebench::puzzles::nonogram::dfa::build(&p);
                }
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt"), "{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn nonogram_arbitrary_text(text in "\\PC{0,300}") {
        check_nonogram(&text);
    }

    #[test]
    fn nonogram_mutated(which in 0usize..3, pos in 0usize..200, c in "[0-9a-zA-Z_:,./#\"\n -]", cut in 0usize..200) {
        let base = [PATTERN, NON, NONOGRAM][which];
        let pos = pos % base.len();
        let mut s: String = base.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_nonogram(&s);
        check_nonogram(&base[..cut % base.len()]);
    }
}

const STARBATTLE: &str =
    "starbattle 1\nAAB.  # row\nACBB\nCCDD\nCCDD\nsolution\n.*..\n...*\n*...\n..*.\n";

fn check_starbattle(text: &str) {
    use puzzlebench::puzzles::starbattle::{self, parse as sp};
    match starbattle::parse_file(Path::new("fuzz.txt"), text) {
        Ok(ps) => {
            for p in ps {
                // Every region has at least m cells, and the text form reads back.
                for k in 0..p.region_count() {
                    let size = p
                        .regions
                        .iter()
                        .flatten()
                        .filter(|r| **r == Some(k))
                        .count();
                    assert!(size >= p.stars);
                }
                let again = sp::parse_text(Path::new("fuzz.txt"), &p.to_text()).unwrap();
                assert_eq!(again.regions, p.regions);
                let _ = puzzlebench::puzzles::starbattle::window::build(&p);
                let _ = puzzlebench::puzzles::starbattle::pairwise::build(&p);
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt"), "{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn starbattle_arbitrary_text(text in "\\PC{0,300}") {
        check_starbattle(&text);
    }

    #[test]
    fn starbattle_mutated(pos in 0usize..STARBATTLE.len(), c in "[0-9A-Da-z.*#\\n -]", cut in 0usize..STARBATTLE.len()) {
        let mut s: String = STARBATTLE.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_starbattle(&s);
        check_starbattle(&STARBATTLE[..cut]);
    }
}

const QUEENS: &str =
    "# b\nqueens 4\ntarget 5\nvalue 5\n....\n.X..\n....\n..X.\nsolution\nQ.Q.\n.X..\n....\n..X.\n";

fn check_queens(text: &str) {
    use puzzlebench::puzzles::queens::parse as qp;
    match qp::parse_file(Path::new("fuzz.txt"), text) {
        Ok(ps) => {
            for p in ps {
                // The board is n by n, the text form reads back, and both models build
                // (least-walls refuses a board without a target with the reason).
                assert_eq!(p.walls.len(), p.n);
                assert!(p.walls.iter().all(|r| r.len() == p.n));
                let again = qp::parse_text(Path::new("fuzz.txt"), &p.to_text()).unwrap();
                assert_eq!((again.walls, again.target), (p.walls.clone(), p.target));
                let _ = puzzlebench::puzzles::queens::base::build(&p);
                match puzzlebench::puzzles::queens::least_walls::build(&p) {
                    Ok(_) => assert!(p.target.is_some()),
                    Err(e) => assert!(p.target.is_none() && e.contains("target"), "{e}"),
                }
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.txt"), "{e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn queens_arbitrary_text(text in "\\PC{0,300}") {
        check_queens(&text);
    }

    #[test]
    fn queens_mutated(pos in 0usize..QUEENS.len(), c in "[0-9QXqa-z.#\\n -]", cut in 0usize..QUEENS.len()) {
        let mut s: String = QUEENS.to_string();
        s.replace_range(pos..pos + 1, &c);
        check_queens(&s);
        check_queens(&QUEENS[..cut]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// puzz.link URLs with any body: a puzzle or an error naming the file, never a panic.
    #[test]
    fn starbattle_url_any_body(body in "[0-9a-z/]{0,40}") {
        check_starbattle(&format!("https://puzz.link/p?starbattle/{body}\n"));
    }

    #[test]
    fn starbattle_url_sized(w in 1usize..12, h in 1usize..12, m in 0usize..4, digits in "[0-9a-v]{0,60}") {
        check_starbattle(&format!("p?starbattle/{w}/{h}/{m}/{digits}\n"));
    }
}
