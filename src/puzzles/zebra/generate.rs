//! Random Zebra puzzles with a unique solution.
//!
//! 1. A random solution: every attribute's values in a random order along the houses.
//! 2. Random clues that are true of it are added one at a time until the `cp` formulation
//!    on `propagate` (heuristics `root`, `count` 2) finds exactly one solution. A clue is
//!    drawn by kind with these weights (out of 100): same 30, next 14, left 8, right 8,
//!    at 6, not same 16, not next 8, not at 4, not left 3, not right 3; then its
//!    properties at random among those that make it true. A clue equal to one already
//!    drawn (`right A B` equals `left B A`) is drawn again.
//! 3. Redundant clues are dropped: in a random order, each clue is removed when the
//!    puzzle stays unique without it. Every clue left is needed.
//!
//! The clues keep the order in which they were drawn, which is the order heuristics
//! `none` sees. Everything follows from the seed (SplitMix64), so a seed always gives the
//! same puzzle. Value names come from twelve built-in attributes of ten values each;
//! past the tenth house a value is named after its attribute and house number
//! (`colour_11`), so H ≤ 30 and A ≤ 12 (the ladder's top rungs use H > 10).

use super::{cp, Attribute, Clue, Prop, Relation, Zebra};
use crate::engines::{propagate, Budget, Heuristics};
use crate::generate::{Generator, Param, Params};
use crate::rng::Rng;

/// `puzzlebench generate zebra`.
pub static GENERATOR: Generator = Generator {
    about: "Zebra: a random puzzle with a unique solution and no redundant clue.",
    params: &[
        Param::value("houses", "H", "Houses (2 to 30)"),
        Param::value("attributes", "A", "Attributes (1 to 12)"),
    ],
    make,
    separator: crate::generate::concatenated,
};

/// One puzzle of `puzzlebench generate zebra`, with the command that makes it.
fn make(params: &Params, seed: u64) -> Result<String, String> {
    let houses: usize = params.need("houses")?;
    let attributes: usize = params.need("attributes")?;
    let z = generate(houses, attributes, seed)?;
    Ok(format!(
        "# Made by: puzzlebench generate zebra --houses {houses} --attributes {attributes} --seed {seed}\n# {} clues, unique solution, no redundant clue.\n{}",
        z.clues.len(),
        z.to_text()
    ))
}

/// The most houses a generated puzzle has.
pub const MAX_HOUSES: usize = 30;

/// The built-in attributes and their first ten values (the first H of each are used;
/// see [`value_name`] past ten).
pub const NAMES: [(&str, [&str; 10]); 12] = [
    (
        "colour",
        [
            "Red", "Green", "Ivory", "Yellow", "Blue", "White", "Black", "Orange", "Purple", "Grey",
        ],
    ),
    (
        "nationality",
        [
            "Englishman",
            "Spaniard",
            "Ukrainian",
            "Norwegian",
            "Japanese",
            "German",
            "Swede",
            "Dane",
            "Italian",
            "Frenchman",
        ],
    ),
    (
        "drink",
        [
            "Coffee", "Tea", "Milk", "Juice", "Water", "Beer", "Cocoa", "Cider", "Lemonade", "Wine",
        ],
    ),
    (
        "smoke",
        [
            "Kools",
            "Chesterfield",
            "Old_Gold",
            "Lucky_Strike",
            "Parliament",
            "Pall_Mall",
            "Dunhill",
            "Blends",
            "Prince",
            "Camel",
        ],
    ),
    (
        "pet",
        [
            "Dog", "Snails", "Fox", "Horse", "Zebra", "Cat", "Bird", "Fish", "Hamster", "Rabbit",
        ],
    ),
    (
        "sport",
        [
            "Tennis", "Golf", "Rugby", "Hockey", "Cricket", "Polo", "Rowing", "Chess", "Cycling",
            "Skiing",
        ],
    ),
    (
        "car",
        [
            "Ford", "Fiat", "Volvo", "Skoda", "Audi", "Opel", "Saab", "Kia", "Mazda", "Seat",
        ],
    ),
    (
        "job",
        [
            "Baker", "Doctor", "Farmer", "Judge", "Nurse", "Pilot", "Tailor", "Writer", "Chef",
            "Teacher",
        ],
    ),
    (
        "flower",
        [
            "Rose", "Tulip", "Lily", "Daisy", "Orchid", "Iris", "Poppy", "Violet", "Lotus", "Aster",
        ],
    ),
    (
        "fruit",
        [
            "Apple", "Pear", "Plum", "Cherry", "Mango", "Lemon", "Grape", "Melon", "Peach", "Kiwi",
        ],
    ),
    (
        "instrument",
        [
            "Piano", "Violin", "Flute", "Harp", "Cello", "Drums", "Oboe", "Banjo", "Trumpet",
            "Guitar",
        ],
    ),
    (
        "hobby",
        [
            "Painting", "Fishing", "Knitting", "Hiking", "Dancing", "Reading", "Pottery",
            "Birding", "Baking", "Juggling",
        ],
    ),
];

/// The name of value `k` (from 0) of built-in attribute `a`: its built-in name for the
/// first ten, else the attribute's name and the value's number from 1 (`colour_11`),
/// which no built-in value uses.
pub fn value_name(a: usize, k: usize) -> String {
    let (attribute, values) = &NAMES[a];
    match values.get(k) {
        Some(v) => v.to_string(),
        None => format!("{attribute}_{}", k + 1),
    }
}

/// True when `z` has exactly one solution (the `cp` formulation on `propagate`).
pub fn is_unique(z: &Zebra) -> bool {
    solutions(z, 2) == 1
}

/// Solutions of `z`, counted up to `limit`.
pub fn solutions(z: &Zebra, limit: u32) -> u64 {
    propagate::solve(&cp::build(z), Heuristics::Root, limit, &Budget::unlimited())
        .solutions
        .unwrap_or(0)
}

/// A random puzzle with `houses` houses (2..=[`MAX_HOUSES`]) and `attributes` attributes
/// (1..=12), unique and without redundant clues, named `zebra_HxA_sSEED`.
pub fn generate(houses: usize, attributes: usize, seed: u64) -> Result<Zebra, String> {
    if !(2..=MAX_HOUSES).contains(&houses) {
        return Err(format!("--houses must be 2 to {MAX_HOUSES}, not {houses}"));
    }
    if !(1..=NAMES.len()).contains(&attributes) {
        return Err(format!(
            "--attributes must be 1 to {}, not {attributes}",
            NAMES.len()
        ));
    }
    let mut rng = Rng::new(seed);
    // at[a][h]: the value of attribute a in house h.
    let at: Vec<Vec<usize>> = (0..attributes)
        .map(|_| {
            let mut p: Vec<usize> = (0..houses).collect();
            rng.shuffle(&mut p);
            p
        })
        .collect();
    let mut z = Zebra {
        name: format!("zebra_{houses}x{attributes}_s{seed}"),
        houses,
        attributes: NAMES[..attributes]
            .iter()
            .enumerate()
            .map(|(a, (name, _))| Attribute {
                name: name.to_string(),
                values: (0..houses).map(|k| value_name(a, k)).collect(),
            })
            .collect(),
        clues: Vec::new(),
    };
    let mut keys = Vec::new();
    let limit = 200 * houses * attributes;
    for _ in 0..limit {
        let Some(c) = random_clue(&mut rng, &at) else {
            continue;
        };
        if keys.contains(&key(&c)) {
            continue;
        }
        keys.push(key(&c));
        z.clues.push(c);
        if is_unique(&z) {
            break;
        }
    }
    if !is_unique(&z) {
        return Err(format!("no unique puzzle after {limit} clue draws"));
    }
    let mut order: Vec<usize> = (0..z.clues.len()).collect();
    rng.shuffle(&mut order);
    let mut keep = vec![true; z.clues.len()];
    let all = z.clues.clone();
    for i in order {
        keep[i] = false;
        z.clues = all
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(c, _)| *c)
            .collect();
        if !is_unique(&z) {
            keep[i] = true;
        }
    }
    z.clues = all
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(c, _)| *c)
        .collect();
    Ok(z)
}

/// A key equal for clues that say the same thing.
fn key(c: &Clue) -> (u8, Prop, Prop, usize, bool) {
    let pair = |p: Prop, q: Prop| if p <= q { (p, q) } else { (q, p) };
    let none = Prop { attr: 0, value: 0 };
    let (k, p, q, h) = match c.relation {
        Relation::Same(p, q) => {
            let (p, q) = pair(p, q);
            (0, p, q, 0)
        }
        Relation::At(p, h) => (1, p, none, h),
        Relation::LeftOf(p, q) => (2, p, q, 0),
        Relation::RightOf(p, q) => (2, q, p, 0),
        Relation::NextTo(p, q) => {
            let (p, q) = pair(p, q);
            (3, p, q, 0)
        }
    };
    (k, p, q, h, c.negated)
}

/// Draws one clue that is true of the solution `at`, or None when the draw cannot be
/// completed (say, `left` from the last house).
fn random_clue(rng: &mut Rng, at: &[Vec<usize>]) -> Option<Clue> {
    let na = at.len();
    let hs = at[0].len();
    let weights: [(u8, usize); 10] = [
        (0, 30),
        (1, 14),
        (2, 8),
        (3, 8),
        (4, 6),
        (5, 16),
        (6, 8),
        (7, 4),
        (8, 3),
        (9, 3),
    ];
    let mut r = rng.below(100);
    let kind = weights
        .iter()
        .find(|(_, w)| {
            if r < *w {
                true
            } else {
                r -= w;
                false
            }
        })
        .map_or(0, |(k, _)| *k);
    let h = rng.below(hs);
    let a = rng.below(na);
    let p = Prop {
        attr: a,
        value: at[a][h],
    };
    // A property in house `h2` of a random attribute (a different one when `other`).
    let pick = |rng: &mut Rng, h2: usize, other: bool| -> Option<Prop> {
        let b = if other {
            if na < 2 {
                return None;
            }
            (a + 1 + rng.below(na - 1)) % na
        } else {
            rng.below(na)
        };
        let q = Prop {
            attr: b,
            value: at[b][h2],
        };
        (q != p).then_some(q)
    };
    let other_house = |rng: &mut Rng, bad: &dyn Fn(usize) -> bool| -> Option<usize> {
        let ok: Vec<usize> = (0..hs).filter(|&x| !bad(x)).collect();
        (!ok.is_empty()).then(|| ok[rng.below(ok.len())])
    };
    let (relation, negated) = match kind {
        0 => (Relation::Same(p, pick(rng, h, true)?), false),
        1 => {
            let h2 = if h == 0 {
                1
            } else if h + 1 == hs || rng.below(2) == 0 {
                h - 1
            } else {
                h + 1
            };
            (Relation::NextTo(p, pick(rng, h2, false)?), false)
        }
        2 => (
            Relation::LeftOf(p, pick(rng, (h + 1 < hs).then_some(h + 1)?, false)?),
            false,
        ),
        3 => (
            Relation::RightOf(p, pick(rng, h.checked_sub(1)?, false)?),
            false,
        ),
        4 => (Relation::At(p, h), false),
        5 => {
            let h2 = other_house(rng, &|x| x == h)?;
            (Relation::Same(p, pick(rng, h2, true)?), true)
        }
        6 => {
            let h2 = other_house(rng, &|x| x + 1 == h || x == h + 1 || x == h)?;
            (Relation::NextTo(p, pick(rng, h2, false)?), true)
        }
        7 => (Relation::At(p, other_house(rng, &|x| x == h)?), true),
        8 => {
            let h2 = other_house(rng, &|x| x == h + 1)?;
            (Relation::LeftOf(p, pick(rng, h2, false)?), true)
        }
        _ => {
            let h2 = other_house(rng, &|x| x + 1 == h)?;
            (Relation::RightOf(p, pick(rng, h2, false)?), true)
        }
    };
    Some(Clue { relation, negated })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_puzzles_are_unique_minimal_and_deterministic() {
        for seed in 0..5 {
            let z = generate(4, 3, seed).unwrap();
            assert_eq!(z, generate(4, 3, seed).unwrap());
            assert!(is_unique(&z));
            for i in 0..z.clues.len() {
                let mut fewer = z.clone();
                fewer.clues.remove(i);
                assert!(!is_unique(&fewer), "seed {seed}: clue {i} is redundant");
            }
            let sol = crate::puzzles::Solve::solve(
                &z,
                "cp",
                propagate::PROPAGATE,
                &crate::engines::SolveOptions::default(),
            )
            .unwrap();
            assert_eq!(sol.verified(), Some(true));
        }
        assert_ne!(generate(4, 3, 0).unwrap(), generate(4, 3, 1).unwrap());
    }

    #[test]
    fn every_value_name_of_the_largest_puzzle_is_one_word_of_one_attribute() {
        let mut seen = std::collections::HashSet::new();
        for a in 0..NAMES.len() {
            for k in 0..MAX_HOUSES {
                let v = value_name(a, k);
                assert!(seen.insert(v.clone()), "{v} names two values");
                assert!(v.chars().all(|c| c.is_alphanumeric() || c == '_'), "{v}");
            }
        }
        // A puzzle past ten houses and eight attributes parses back to itself.
        let z = generate(12, 10, 1).unwrap();
        let back = super::super::parse::parse_str(&z.to_text()).unwrap();
        assert_eq!(back.attributes, z.attributes);
        assert_eq!(back.clues, z.clues);
        assert!(generate(MAX_HOUSES + 1, 3, 1).is_err());
        assert!(generate(5, NAMES.len() + 1, 1).is_err());
    }
}
