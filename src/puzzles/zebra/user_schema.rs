//! Zebra puzzles for formulations written outside Rust ([`crate::puzzles::user`]): the
//! instance as JSON and the answer variables `house_H_A_V` (docs/puzzles/zebra.md,
//! "Formulations without Rust"), the report's x[a,v,h] with the house first.

use super::{Prop, Relation, Solution, Zebra};
use crate::puzzles::user::{AnswerVar, UserSchema};

/// Zebra's JSON shape and answer variables.
pub const SCHEMA: UserSchema<Zebra> = UserSchema {
    instance: to_json,
    answer_vars,
    answer: |p, v| p.answer(solution(p, v)),
    meaning: "house_H_A_V = 1 iff house H has value V of attribute A (houses from 1 at the left; attributes and their values numbered from 1 in the order of the JSON's attributes)",
};

/// The answer variables `house_H_A_V`, by house, then attribute, then value: H × A × H
/// of them for H houses and A attributes.
fn answer_vars(p: &Zebra) -> Vec<AnswerVar> {
    let (h, a) = (p.houses, p.attributes.len());
    (1..=h)
        .flat_map(|house| {
            (1..=a).flat_map(move |attr| {
                (1..=h).map(move |v| AnswerVar::binary(format!("house_{house}_{attr}_{v}")))
            })
        })
        .collect()
}

/// The solution table from values in the order of [`answer_vars`]: each house takes the
/// value of each attribute whose variable is 1; where none or several are, the value index
/// H, which is no value (the verifier says the house has no valid value).
fn solution(p: &Zebra, values: &[u32]) -> Solution {
    let (h, a) = (p.houses, p.attributes.len());
    (0..h)
        .map(|house| {
            (0..a)
                .map(|attr| {
                    let at = (house * a + attr) * h;
                    let ones: Vec<usize> = (0..h).filter(|&v| values[at + v] == 1).collect();
                    match ones.as_slice() {
                        [one] => *one,
                        _ => h,
                    }
                })
                .collect()
        })
        .collect()
}

/// The instance as JSON: `houses` H (numbered 1..=H from the left); `attributes`, each
/// `{"name", "values": [H names]}` (attribute A is the A-th, value V the V-th of its list,
/// both from 1); every house has one value of every attribute and every value is in one
/// house. `clues`, each `{"relation", "negated", "first": [A, V]}` plus `"second": [A, V]`
/// or, for `at`, `"house": H`. The relations: `same` (first and second in one house),
/// `at` (first in house H), `left` (first's house immediately left of second's: its
/// number one less), `right` (first's house immediately right of second's), `next`
/// (their houses neighbours); `negated`: the relation does not hold.
pub fn to_json(p: &Zebra) -> serde_json::Value {
    let prop = |q: Prop| [q.attr + 1, q.value + 1];
    let attributes: Vec<serde_json::Value> = p
        .attributes
        .iter()
        .map(|a| serde_json::json!({ "name": a.name, "values": a.values }))
        .collect();
    let clues: Vec<serde_json::Value> = p
        .clues
        .iter()
        .map(|c| {
            let (relation, first, second) = match c.relation {
                Relation::Same(x, y) => ("same", x, Some(y)),
                Relation::At(x, _) => ("at", x, None),
                Relation::LeftOf(x, y) => ("left", x, Some(y)),
                Relation::RightOf(x, y) => ("right", x, Some(y)),
                Relation::NextTo(x, y) => ("next", x, Some(y)),
            };
            let mut j = serde_json::json!({
                "relation": relation,
                "negated": c.negated,
                "first": prop(first),
            });
            match (second, c.relation) {
                (Some(y), _) => j["second"] = serde_json::json!(prop(y)),
                (None, Relation::At(_, house)) => j["house"] = serde_json::json!(house + 1),
                (None, _) => {}
            }
            j
        })
        .collect();
    serde_json::json!({
        "puzzle": "zebra",
        "name": p.name,
        "houses": p.houses,
        "attributes": attributes,
        "clues": clues,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::user::testing::{assert_names, at, committed, solved, values};

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        let p: Zebra = committed("zebra/life_1962.txt");
        let built = solved(&p, "ip");
        let sol = p.from_json(&built.json).unwrap();
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, 5 * 5 * 5);
        assert_eq!(vars[5].name, "house_1_2_1");
        let mut v = values(&vars, |i| u32::from(sol[i[0] - 1][i[1] - 1] == i[2] - 1));
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        // The Norwegian (nationality 3) lives in house 1 (clue 9).
        assert_eq!(answer.json["houses"][0]["nationality"], "Norwegian");
        assert_eq!(v[at(&vars, "house_1_2_3")], 1);
        // Houses 1 and 2 swap their pets: a permutation still, but a clue breaks.
        let swapped = values(&vars, |i| {
            let house = if i[1] == 5 && i[0] <= 2 {
                3 - i[0]
            } else {
                i[0]
            };
            u32::from(sol[house - 1][i[1] - 1] == i[2] - 1)
        });
        let e = (SCHEMA.answer)(&p, &swapped).verdict.unwrap_err();
        assert!(e.contains("clue"), "{e}");
        // House 1 with a second nationality.
        v[at(&vars, "house_1_2_1")] = 1;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        // House 1 with none.
        v[at(&vars, "house_1_2_1")] = 0;
        v[at(&vars, "house_1_2_3")] = 0;
        let e = (SCHEMA.answer)(&p, &v).verdict.unwrap_err();
        assert!(e.contains("house 1 has no valid nationality"), "{e}");
    }

    #[test]
    fn the_instance_as_json() {
        let p: Zebra = committed("zebra/life_1962.txt");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "zebra");
        assert_eq!(j["houses"], 5);
        assert_eq!(j["attributes"][0]["name"], "colour");
        assert_eq!(j["attributes"][0]["values"][3], "Red");
        // 1. same Englishman Red: nationality 1, colour 4.
        assert_eq!(
            j["clues"][0],
            serde_json::json!({"relation": "same", "negated": false, "first": [2, 1], "second": [1, 4]})
        );
        // 5. right Green Ivory; 8. at Milk 3.
        assert_eq!(j["clues"][4]["relation"], "right");
        assert_eq!(j["clues"][4]["first"], serde_json::json!([1, 2]));
        assert_eq!(
            j["clues"][7],
            serde_json::json!({"relation": "at", "negated": false, "first": [3, 2], "house": 3})
        );
        let mut q = p.clone();
        q.clues[0].negated = true;
        assert_eq!(to_json(&q)["clues"][0]["negated"], true);
    }
}
