//! Star Battle for formulations written outside Rust ([`crate::puzzles::user`]): the
//! instance as JSON and the answer variables `star_R_C` (docs/puzzles/starbattle.md,
//! "Formulations without Rust").

use super::StarBattle;
use crate::puzzles::user::{self, UserSchema};

/// Star Battle's JSON shape and answer variables.
pub const SCHEMA: UserSchema<StarBattle> = UserSchema {
    instance: to_json,
    answer_vars: |p| user::grid_vars("star", p.height(), p.width()),
    answer: |p, v| p.answer(&user::grid_of(v, p.width())),
    meaning: "star_R_C = 1 iff cell (R, C) holds a star (rows and columns from 1)",
};

/// The instance as JSON: `rows` and `cols` (the grid's height and width), `row_stars`,
/// `col_stars` and `region_stars` (the stars in every row, every column and every
/// region: all three m in a square puzzle), `region_count` and `regions` (one list per
/// row of one region number per cell, regions numbered from 1 in the order they first
/// appear, row by row; 0 for a cell outside every region, which takes no star).
pub fn to_json(p: &StarBattle) -> serde_json::Value {
    let regions: Vec<Vec<usize>> = p
        .regions
        .iter()
        .map(|row| row.iter().map(|r| r.map_or(0, |k| k + 1)).collect())
        .collect();
    serde_json::json!({
        "puzzle": "starbattle",
        "name": p.name,
        "rows": p.height(),
        "cols": p.width(),
        "row_stars": p.row_stars,
        "col_stars": p.col_stars,
        "region_stars": p.stars,
        "region_count": p.region_count(),
        "regions": regions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::user::testing::{assert_names, at, committed, values};

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        let p: StarBattle = committed("starbattle/generated/sb_10x10_m2_s1.txt");
        let solution = p.solution.clone().unwrap();
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, 100);
        let mut v = values(&vars, |i| u32::from(solution[i[0] - 1][i[1] - 1]));
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        assert_eq!(answer.json["grid"][0], "..*.....*.");
        // The star at (1, 3) moves to (1, 4): it touches the star at (2, 5).
        v[at(&vars, "star_1_3")] = 0;
        v[at(&vars, "star_1_4")] = 1;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        // A row with one star too few.
        v[at(&vars, "star_1_4")] = 0;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
    }

    #[test]
    fn the_instance_as_json() {
        let p: StarBattle = committed("starbattle/generated/sb_10x10_m2_s1.txt");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "starbattle");
        assert_eq!(
            (j["rows"].clone(), j["cols"].clone()),
            (10.into(), 10.into())
        );
        assert_eq!(j["region_stars"], 2);
        assert_eq!(j["region_count"], 10);
        let regions: Vec<Vec<usize>> = serde_json::from_value(j["regions"].clone()).unwrap();
        // Row 1 is DDDDDCBBBB: the same number for each letter, none 0.
        assert_eq!(regions[0][0], regions[0][4]);
        assert_ne!(regions[0][4], regions[0][5]);
        assert!(regions.iter().flatten().all(|&k| (1..=10).contains(&k)));
        // A puzzle with cells outside every region writes them as 0.
        let q: StarBattle = committed("starbattle/generated/sb_08x08_m1_out4_s1.txt");
        let outside = to_json(&q)["regions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().clone())
            .filter(|k| k == &serde_json::json!(0))
            .count();
        assert_eq!(outside, 4);
    }
}
