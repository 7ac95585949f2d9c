//! The Circuit Board game for formulations written outside Rust
//! ([`crate::puzzles::user`]): the instance as JSON and the answer variables `edge_I_J`
//! (docs/puzzles/circuit.md, "Formulations without Rust"). The points are the cells that
//! are not blacked out, in row-major order, numbered from 1 (the report's V, as
//! [`Graph`] numbers them from 0); a model may link a point to the point on its right
//! and the point below it, so the candidate pairs are [`Graph`]'s edges (the report's E)
//! and each has its answer variable.

use super::graph::Graph;
use super::Circuit;
use crate::puzzles::user::{AnswerVar, UserSchema};

/// Circuit Board's JSON shape and answer variables.
pub const SCHEMA: UserSchema<Circuit> = UserSchema {
    instance: to_json,
    answer_vars,
    answer: |p, v| {
        let g = Graph::new(p);
        let chosen: Vec<bool> = v.iter().map(|&x| x == 1).collect();
        p.answer(g.links(&chosen), None)
    },
    meaning: "edge_I_J = 1 iff points I and J are linked (points numbered from 1 in the order of the JSON's points; one variable per candidate pair I < J)",
};

/// The answer variables: `edge_I_J` for each candidate pair (I, J) of [`to_json`]'s
/// `pairs`, in that order.
fn answer_vars(p: &Circuit) -> Vec<AnswerVar> {
    Graph::new(p)
        .edges
        .iter()
        .map(|&(i, j)| AnswerVar::binary(format!("edge_{}_{}", i + 1, j + 1)))
        .collect()
}

/// The instance as JSON: `rows` and `cols` (the grid's size); `points`, the cells that
/// are not blacked out as `[row, col]` (from 1) in row-major order, point I being the
/// I-th (from 1); `pairs`, the candidate links `[I, J]` (I < J: each point and the point
/// on its right, then the point below it, in point order), one answer variable each;
/// `given`, the links `[I, J]` the board shows, which every solution keeps; `s` and `t`,
/// the points at the ends of the shortest-path variant (CM3) where the board names them,
/// else `null` (the answer's tree is verified, not the length of its s–t path). Every
/// point needs one or three links, and the links form a tree over all points.
pub fn to_json(p: &Circuit) -> serde_json::Value {
    let g = Graph::new(p);
    let points: Vec<[usize; 2]> = g.cells.iter().map(|&(r, c)| [r + 1, c + 1]).collect();
    let pairs: Vec<[usize; 2]> = g.edges.iter().map(|&(i, j)| [i + 1, j + 1]).collect();
    let given: Vec<[usize; 2]> = g
        .edges
        .iter()
        .zip(&g.given)
        .filter(|(_, &given)| given)
        .map(|(&(i, j), _)| [i + 1, j + 1])
        .collect();
    let end = |k: usize| {
        p.endpoints
            .and_then(|e| g.vertex(if k == 0 { e.0 } else { e.1 }))
            .map(|v| v + 1)
    };
    serde_json::json!({
        "puzzle": "circuit",
        "name": p.name,
        "rows": p.rows,
        "cols": p.cols,
        "points": points,
        "pairs": pairs,
        "given": given,
        "s": end(0),
        "t": end(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::circuit::Link;
    use crate::puzzles::user::testing::{assert_names, at, committed, values};

    #[test]
    fn the_solution_read_from_answer_variables_is_verified() {
        let p: Circuit = committed("circuit/ladder/4x4.txt");
        let solution = p.solution.clone().unwrap();
        let json = to_json(&p);
        let points: Vec<(usize, usize)> =
            serde_json::from_value::<Vec<[usize; 2]>>(json["points"].clone())
                .unwrap()
                .iter()
                .map(|c| (c[0] - 1, c[1] - 1))
                .collect();
        let vars = (SCHEMA.answer_vars)(&p);
        assert_names(&vars, json["pairs"].as_array().unwrap().len());
        assert_eq!(vars.len(), 15);
        let linked = |i: &[usize]| {
            let l = Link::new(points[i[0] - 1], points[i[1] - 1]).unwrap();
            u32::from(solution.contains(&l))
        };
        let mut v = values(&vars, linked);
        assert_eq!(v.iter().sum::<u32>(), 11);
        let answer = (SCHEMA.answer)(&p, &v);
        assert_eq!(answer.verdict, Ok(()), "{}", answer.text);
        assert_eq!(answer.json["links"].as_array().unwrap().len(), 11);
        // Point 4, (1, 4), loses its one link.
        v[at(&vars, "edge_3_4")] = 0;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        v[at(&vars, "edge_3_4")] = 1;
        // A link closing the square of points 2, 3, 6, 5.
        v[at(&vars, "edge_5_6")] = 1;
        assert!((SCHEMA.answer)(&p, &v).verdict.is_err());
        v[at(&vars, "edge_5_6")] = 0;
        // The given link of points 2 and 5 left out.
        v[at(&vars, "edge_2_5")] = 0;
        let e = (SCHEMA.answer)(&p, &v).verdict.unwrap_err();
        assert!(e.contains("given link"), "{e}");
    }

    #[test]
    fn the_instance_as_json() {
        let p: Circuit = committed("circuit/ladder/4x4.txt");
        let j = to_json(&p);
        assert_eq!(j["puzzle"], "circuit");
        assert_eq!(j["points"].as_array().unwrap().len(), 12);
        assert_eq!(j["points"][4], serde_json::json!([2, 2]));
        assert_eq!(j["pairs"][0], serde_json::json!([1, 2]));
        assert_eq!(j["pairs"][2], serde_json::json!([2, 5]));
        assert_eq!(j["given"], serde_json::json!([[2, 5], [3, 6]]));
        assert_eq!(j["s"], serde_json::Value::Null);
        // The shortest-path boards name s and t by their point numbers.
        let q: Circuit = committed("circuit/cm3/6x6.txt");
        let jq = to_json(&q);
        let (s, t) = q.endpoints.unwrap();
        let point = |k: &serde_json::Value| jq["points"][k.as_u64().unwrap() as usize - 1].clone();
        assert_eq!(point(&jq["s"]), serde_json::json!([s.0 + 1, s.1 + 1]));
        assert_eq!(point(&jq["t"]), serde_json::json!([t.0 + 1, t.1 + 1]));
    }
}
