//! Hashi for formulations written outside Rust ([`crate::puzzles::user`]): the instance
//! as JSON and the answer variables `bridges_I_J` (docs/puzzles/hashi.md, "Formulations
//! without Rust"). The islands are numbered from 1 in row-major order (the report's
//! islands, [`Hashi::islands`], from 0), and the pairs that can be joined are
//! [`Hashi::pairs`] (the report's B): each island and the next island to its right and
//! below it.

use super::Hashi;
use crate::puzzles::user::{AnswerVar, UserSchema};

/// Hashi's JSON shape and answer variables.
pub const SCHEMA: UserSchema<Hashi> = UserSchema {
    instance: to_json,
    answer_vars,
    answer: |p, v| p.answer(&p.pairs(), v),
    meaning: "bridges_I_J = the number of bridges between islands I and J, 0 to max_bridges (islands numbered from 1 in the order of the JSON's islands; one variable per pair I < J that can be joined)",
};

/// The answer variables: `bridges_I_J`, 0..=`max_bridges`, for each pair of
/// [`to_json`]'s `pairs`, in that order.
fn answer_vars(p: &Hashi) -> Vec<AnswerVar> {
    p.pairs()
        .iter()
        .map(|q| AnswerVar {
            name: format!("bridges_{}_{}", q.a + 1, q.b + 1),
            upper: p.max_bridges,
        })
        .collect()
}

/// The instance as JSON: `rows` and `cols` (the grid's size), `max_bridges` (the most
/// bridges between one pair of islands, 2 in the usual rules), `islands` (each `[row,
/// col, label]`, rows and columns from 1, in row-major order: island I is the I-th, from
/// 1; its label is the number of bridges it needs), `pairs` (the pairs `[I, J]`, I < J,
/// that a bridge can join: an island and the next island to its right, then the next
/// below it, in island order; one answer variable each) and `crossings` (each `[I, J, K,
/// L]`: the horizontal bridges of pair I–J would cross the vertical ones of pair K–L, so
/// at most one of the two pairs has bridges). All islands must end up connected.
pub fn to_json(p: &Hashi) -> serde_json::Value {
    let pairs = p.pairs();
    let islands: Vec<[usize; 3]> = p
        .islands
        .iter()
        .map(|i| [i.row + 1, i.col + 1, i.label as usize])
        .collect();
    let json_pairs: Vec<[usize; 2]> = pairs.iter().map(|q| [q.a + 1, q.b + 1]).collect();
    let crossings: Vec<[usize; 4]> = p
        .crossings(&pairs)
        .iter()
        .map(|&(h, v)| {
            let (h, v) = (pairs[h], pairs[v]);
            [h.a + 1, h.b + 1, v.a + 1, v.b + 1]
        })
        .collect();
    serde_json::json!({
        "puzzle": "hashi",
        "name": p.name,
        "rows": p.rows,
        "cols": p.cols,
        "max_bridges": p.max_bridges,
        "islands": islands,
        "pairs": json_pairs,
        "crossings": crossings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::hashi::parse::parse_game_id;
    use crate::puzzles::user::testing::{assert_names, at, committed, solved, values};

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        // 5x5m2:3c4f2b53a2f1, seven islands.
        let p: Hashi = committed("hashi/report_range/a4_05x05.txt");
        let built = solved(&p, "base");
        let bridges: Vec<[usize; 5]> =
            serde_json::from_value(built.json["bridges"].clone()).unwrap();
        let json = to_json(&p);
        let islands: Vec<[usize; 3]> = serde_json::from_value(json["islands"].clone()).unwrap();
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, json["pairs"].as_array().unwrap().len());
        assert_eq!(vars.len(), 6);
        assert!(vars.iter().all(|v| v.upper == 2));
        let count = |i: &[usize]| {
            let (a, b) = (islands[i[0] - 1], islands[i[1] - 1]);
            bridges
                .iter()
                .find(|x| [x[0] + 1, x[1] + 1, x[2] + 1, x[3] + 1] == [a[0], a[1], b[0], b[1]])
                .map_or(0, |x| x[4] as u32)
        };
        let mut v = values(&vars, count);
        // Islands 1 and 2, (1, 1) and (1, 5), labels 3 and 4.
        assert!(v[at(&vars, "bridges_1_2")] >= 1);
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        assert_eq!(answer.json, built.json);
        // One bridge fewer between islands 1 and 2.
        v[at(&vars, "bridges_1_2")] -= 1;
        let e = (SCHEMA.answer)(&p, &v).verdict.unwrap_err();
        assert!(e.contains("bridges, its label is"), "{e}");
        // No bridges at all.
        assert!((SCHEMA.answer)(&p, &[0; 6]).verdict.is_err());
    }

    #[test]
    fn crossing_bridges_are_refused() {
        // .1. / 1.1 / .1.: the pair 2-3 crosses the pair 1-4.
        let p = parse_game_id("3x3m2:a1a1a1a1a").unwrap();
        let j = to_json(&p);
        assert_eq!(j["pairs"], serde_json::json!([[1, 4], [2, 3]]));
        assert_eq!(j["crossings"], serde_json::json!([[2, 3, 1, 4]]));
        let vars = (SCHEMA.answer_vars)(&p);
        assert_eq!(vars[0].name, "bridges_1_4");
        let e = (SCHEMA.answer)(&p, &[1, 1]).verdict.unwrap_err();
        assert!(e.contains("crosses"), "{e}");
    }

    #[test]
    fn the_instance_as_json() {
        let p: Hashi = committed("hashi/report_range/a4_05x05.txt");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "hashi");
        assert_eq!((j["rows"].clone(), j["cols"].clone()), (5.into(), 5.into()));
        assert_eq!(j["max_bridges"], 2);
        assert_eq!(j["islands"][0], serde_json::json!([1, 1, 3]));
        assert_eq!(j["islands"][6], serde_json::json!([5, 5, 1]));
        assert_eq!(
            j["pairs"],
            serde_json::json!([[1, 2], [1, 5], [2, 4], [3, 4], [4, 7], [5, 6]])
        );
        assert_eq!(j["crossings"], serde_json::json!([]));
    }
}
