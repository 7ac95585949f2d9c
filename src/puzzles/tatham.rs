//! The block structure of Simon Tatham's game IDs, shared by Keen's cages and Solo's
//! jigsaw regions and killer cages: the walls between the cells of a w×w grid.
//!
//! The inner edges are walked in one order, first the w(w−1) vertical edges in reading
//! order (edge (y, x) between cells (y, x) and (y, x+1)), then the w(w−1) horizontal edges
//! column by column (edge (x, y) between cells (y, x) and (y+1, x)), and one virtual edge
//! at the end. The text gives, for each wall, the number of open edges before it: `_` is
//! none, `a` one, `b` two, and so on; open edges join their two cells into one block.
//! Facts from keen.c (`parse_block_structure`) and solo.c (`spec_to_dsf`) of Tatham's
//! collection, whose readers differ in two points, both given by [`Dialect`]: Keen allows a
//! repeat count after a letter (`_5` is five walls) and reads `y` as 25 open edges with no
//! wall after them and `z` as 26 open edges and a wall; Solo has no repeat counts and reads
//! `z` as 26 open edges with no wall. Their writers only ever write such long runs for
//! grids far larger than the generators make, so this follows the readers: an ID means
//! here what it means in the puzzle program.

/// Which program's reader to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// keen.c: repeat counts; `y` is the letter without a wall.
    Keen,
    /// solo.c: no repeat counts; `z` is the letter without a wall.
    Solo,
}

/// Decodes the block structure `spec` of a `w`×`w` grid: for each cell in reading order,
/// the smallest cell (in reading order) of its block.
pub fn decode_blocks(spec: &str, w: usize, dialect: Dialect) -> Result<Vec<usize>, String> {
    if w < 2 {
        return Err("a block structure needs a grid of at least 2x2".into());
    }
    let edges = 2 * w * (w - 1);
    let no_wall = match dialect {
        Dialect::Keen => 25,
        Dialect::Solo => 26,
    };
    let mut parent: Vec<usize> = (0..w * w).collect();
    fn root(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    let chars: Vec<char> = spec.chars().collect();
    let mut pos = 0usize;
    let mut k = 0;
    while k < chars.len() {
        let ch = chars[k];
        let open = match ch {
            '_' => 0,
            'a'..='z' => ch as usize - 'a' as usize + 1,
            _ => {
                return Err(format!(
                    "unexpected character '{ch}' in the block structure"
                ))
            }
        };
        k += 1;
        let start = k;
        while dialect == Dialect::Keen && k < chars.len() && chars[k].is_ascii_digit() {
            k += 1;
        }
        let repeat = if k > start {
            let s: String = chars[start..k].iter().collect();
            s.parse::<usize>()
                .ok()
                .filter(|&r| (1..=edges + 1).contains(&r))
                .ok_or_else(|| {
                    format!("repeat count '{s}' in the block structure is out of range")
                })?
        } else {
            1
        };
        for _ in 0..repeat {
            for _ in 0..open {
                if pos >= edges {
                    return Err("too much data in the block structure".into());
                }
                let (p0, p1) = if pos < w * (w - 1) {
                    let (y, x) = (pos / (w - 1), pos % (w - 1));
                    (y * w + x, y * w + x + 1)
                } else {
                    let (x, y) = (pos / (w - 1) - w, pos % (w - 1));
                    (y * w + x, (y + 1) * w + x)
                };
                let (a, b) = (root(&mut parent, p0), root(&mut parent, p1));
                parent[a.max(b)] = a.min(b);
                pos += 1;
            }
            if open != no_wall {
                pos += 1;
                if pos > edges + 1 {
                    return Err("too much data in the block structure".into());
                }
            }
        }
    }
    if pos != edges + 1 {
        return Err(format!(
            "the block structure describes {} of the {edges} inner edges of a {w}x{w} grid",
            pos.saturating_sub(1)
        ));
    }
    Ok((0..w * w).map(|c| root(&mut parent, c)).collect())
}

/// The blocks of a decoded structure, each as its cells (row, column) in reading order,
/// blocks in the reading order of their first cell.
pub fn blocks(first_of: &[usize], w: usize) -> Vec<Vec<(usize, usize)>> {
    let mut index = vec![usize::MAX; w * w];
    let mut out: Vec<Vec<(usize, usize)>> = Vec::new();
    for (cell, &root) in first_of.iter().enumerate() {
        if index[root] == usize::MAX {
            index[root] = out.len();
            out.push(Vec::new());
        }
        out[index[root]].push((cell / w, cell % w));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_by_hand() {
        // 2x2: one open edge and a wall (the two top cells join), a wall, one open edge
        // (top right joins bottom right) and the final wall.
        let b = blocks(&decode_blocks("a_a", 2, Dialect::Keen).unwrap(), 2);
        assert_eq!(b, vec![vec![(0, 0), (0, 1), (1, 1)], vec![(1, 0)]]);
        assert_eq!(
            blocks(&decode_blocks("_5", 2, Dialect::Keen).unwrap(), 2).len(),
            4
        );
        // Solo reads the digit as an error, not a repeat count.
        assert!(decode_blocks("_5", 2, Dialect::Solo).is_err());
        assert_eq!(
            blocks(&decode_blocks("_____", 2, Dialect::Solo).unwrap(), 2).len(),
            4
        );
        // Every edge open: one block; one edge too many or too few.
        assert_eq!(
            blocks(&decode_blocks("d", 2, Dialect::Solo).unwrap(), 2).len(),
            1
        );
        let e = decode_blocks("e", 2, Dialect::Solo).unwrap_err();
        assert!(e.contains("too much"), "{e}");
        let e = decode_blocks("c", 2, Dialect::Solo).unwrap_err();
        assert!(e.contains("describes 3 of the 4"), "{e}");
    }

    #[test]
    fn the_letter_without_a_wall() {
        // A 6x6 grid has 60 inner edges. Keen: 'y' is 25 open edges and no wall, so "yyj"
        // is 25 + 25 + 10 open edges and the final wall: one block.
        assert_eq!(
            blocks(&decode_blocks("yyj", 6, Dialect::Keen).unwrap(), 6).len(),
            1
        );
        // Solo: 'z' is 26 open edges and no wall: "zzh" is 26 + 26 + 8 and the wall.
        assert_eq!(
            blocks(&decode_blocks("zzh", 6, Dialect::Solo).unwrap(), 6).len(),
            1
        );
        assert!(decode_blocks("yyj", 6, Dialect::Solo).is_err());
    }

    #[test]
    fn errors() {
        assert!(decode_blocks("a_a!", 2, Dialect::Keen)
            .unwrap_err()
            .contains("'!'"));
        assert!(decode_blocks("a_a_", 2, Dialect::Keen)
            .unwrap_err()
            .contains("too much"));
        assert!(decode_blocks("a_a", 1, Dialect::Keen).is_err());
    }
}
