//! The independent Zebra checker: reads only the instance and a solution table, never
//! formulation code. A solution is accepted when it has one row per house and one value
//! per attribute in each row, every attribute's values are spread one per house, and
//! every clue holds.

use super::{Relation, Solution, Zebra};

/// `Ok(())` when `solution` solves `puzzle`, else the first broken rule.
pub fn check(puzzle: &Zebra, solution: &Solution) -> Result<(), String> {
    let h = puzzle.houses;
    let na = puzzle.attributes.len();
    if solution.len() != h {
        return Err(format!("{} houses in the answer, not {h}", solution.len()));
    }
    // where_is[a][v] = the house holding value v of attribute a.
    let mut where_is = vec![vec![None; h]; na];
    for (house, row) in solution.iter().enumerate() {
        if row.len() != na {
            return Err(format!(
                "house {} has {} values, not one per attribute ({na})",
                house + 1,
                row.len()
            ));
        }
        for (a, &v) in row.iter().enumerate() {
            let at = &puzzle.attributes[a];
            if v >= h {
                return Err(format!("house {} has no valid {}", house + 1, at.name));
            }
            if let Some(other) = where_is[a][v].replace(house) {
                return Err(format!(
                    "{} is in houses {} and {}",
                    at.values[v],
                    other + 1,
                    house + 1
                ));
            }
        }
    }
    // Every value placed once: h values in h houses without repeats.
    for (k, clue) in puzzle.clues.iter().enumerate() {
        let house = |p: super::Prop| where_is[p.attr][p.value].expect("every value placed") as i64;
        let holds = match clue.relation {
            Relation::Same(p, q) => house(p) == house(q),
            Relation::At(p, i) => house(p) == i as i64,
            Relation::LeftOf(p, q) => house(p) + 1 == house(q),
            Relation::RightOf(p, q) => house(p) == house(q) + 1,
            Relation::NextTo(p, q) => (house(p) - house(q)).abs() == 1,
        };
        if holds == clue.negated {
            return Err(format!(
                "clue {} ({}) does not hold",
                k + 1,
                puzzle.clue_line(clue)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_str;
    use super::*;

    #[test]
    fn accepts_and_rejects() {
        let z = parse_str(
            "houses 3\nattribute c R G B\nattribute p D C F\nsame R D\nright G R\nnot next B F\n",
        )
        .unwrap();
        // R D | G C | B F: fine. R D | G F | B C: B next to F, clue 3 broken.
        assert_eq!(check(&z, &vec![vec![0, 0], vec![1, 1], vec![2, 2]]), Ok(()));
        let e = check(&z, &vec![vec![0, 0], vec![1, 2], vec![2, 1]]).unwrap_err();
        assert!(e.contains("clue 3"), "{e}");
        let e = check(&z, &vec![vec![0, 0], vec![0, 2], vec![2, 1]]).unwrap_err();
        assert!(e.contains("houses 1 and 2"), "{e}");
        assert!(check(&z, &vec![vec![0, 0], vec![1, 2]]).is_err());
        assert!(check(&z, &vec![vec![0, 0], vec![1, 2], vec![2, 3]]).is_err());
        assert!(check(&z, &vec![vec![0, 0], vec![1, 2], vec![2]]).is_err());
    }
}
