//! Isolines of a field sampled on a grid, by marching squares with linear
//! interpolation along cell edges; segments are joined into polylines.
//!
//! The field is `values[j * nx + i]` at grid node (i, j); NaN is a gap, and
//! a cell with any gap corner yields no segment. Coordinates returned are
//! fractional grid indices (i + t, j + t), which the caller maps to
//! parameter units (linearly or logarithmically).

/// A point in grid-index coordinates.
pub type Point = (f64, f64);

/// Where `level` crosses the edge from corner value `a` to `b` (0..1).
fn crossing(a: f64, b: f64, level: f64) -> f64 {
    if a == b {
        0.5
    } else {
        ((level - a) / (b - a)).clamp(0.0, 1.0)
    }
}

/// A segment's end points and the grid edges they lie on. An edge is
/// identified exactly by its cell and side, so joining needs no hashing of
/// floating-point coordinates: horizontal edge (i, j)–(i+1, j) is
/// 2(j·nx + i), vertical edge (i, j)–(i, j+1) is 2(j·nx + i) + 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub a: Point,
    pub b: Point,
    edges: [usize; 2],
}

/// Segments of `level` in each cell, in grid-index coordinates.
pub fn segments(values: &[f64], nx: usize, ny: usize, level: f64) -> Vec<Segment> {
    let mut out = Vec::new();
    if nx < 2 || ny < 2 || values.len() < nx * ny {
        return out;
    }
    for j in 0..ny - 1 {
        let (Some(r0), Some(r1)) = (values.get(j * nx..(j + 1) * nx), values.get((j + 1) * nx..(j + 2) * nx)) else {
            continue;
        };
        let (next0, next1) = (r0.get(1..).unwrap_or(&[]), r1.get(1..).unwrap_or(&[]));
        for (i, (((&v0, &v1), &v3), &v2)) in r0.iter().zip(next0).zip(r1).zip(next1).enumerate() {
            // Corners counter-clockwise from (i, j): v0 (i,j), v1 (i+1,j), v2 (i+1,j+1), v3 (i,j+1).
            // NaN compares below every level, so a gap can only hide in a crossed cell.
            let code = usize::from(v0 >= level)
                | usize::from(v1 >= level) << 1
                | usize::from(v2 >= level) << 2
                | usize::from(v3 >= level) << 3;
            if code == 0 || code == 15 {
                continue; // the level does not cross this cell (most cells)
            }
            let v = [v0, v1, v2, v3];
            if v.iter().any(|x| !x.is_finite()) {
                continue; // a gap (an infinite corner has no crossing point: ∞ − ∞ is NaN)
            }
            let (x, y) = (i as f64, j as f64);
            // Edge k joins corner k and k+1.
            let edge = |k: usize| -> (Point, usize) {
                let corner = |c: usize| v.get(c % 4).copied().unwrap_or(f64::NAN);
                let t = crossing(corner(k), corner(k + 1), level);
                match k {
                    0 => ((x + t, y), 2 * (j * nx + i)),
                    1 => ((x + 1.0, y + t), 2 * (j * nx + i + 1) + 1),
                    2 => ((x + 1.0 - t, y + 1.0), 2 * ((j + 1) * nx + i)),
                    _ => ((x, y + 1.0 - t), 2 * (j * nx + i) + 1),
                }
            };
            let mut pair = |p: usize, q: usize| {
                let ((a, ea), (b, eb)) = (edge(p), edge(q));
                out.push(Segment { a, b, edges: [ea, eb] });
            };
            match code {
                1 | 14 => pair(3, 0),
                2 | 13 => pair(0, 1),
                3 | 12 => pair(3, 1),
                4 | 11 => pair(1, 2),
                6 | 9 => pair(0, 2),
                7 | 8 => pair(2, 3),
                5 | 10 => {
                    // Saddle: the cell centre decides which corners connect.
                    let centre_above = v.iter().sum::<f64>() / 4.0 >= level;
                    if (code == 5) == centre_above {
                        pair(0, 1);
                        pair(2, 3);
                    } else {
                        pair(3, 0);
                        pair(1, 2);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Joins segments that share an edge into polylines (closed ones end where
/// they start). `edge_count` bounds the edge ids (2 · nx · ny).
pub fn join(segments: &[Segment], edge_count: usize) -> Vec<Vec<Point>> {
    const NONE: usize = usize::MAX;
    // At most two segments meet on an edge.
    let mut on_edge = vec![[NONE; 2]; edge_count];
    for (k, s) in segments.iter().enumerate() {
        for e in s.edges {
            if let Some(slot) = on_edge.get_mut(e) {
                if slot[0] == NONE {
                    slot[0] = k;
                } else {
                    slot[1] = k;
                }
            }
        }
    }
    let mut used = vec![false; segments.len()];
    let mut lines = Vec::new();
    for start in 0..segments.len() {
        if used.get(start).copied().unwrap_or(true) {
            continue;
        }
        let Some(first) = segments.get(start) else { continue };
        if let Some(u) = used.get_mut(start) {
            *u = true;
        }
        let mut line = std::collections::VecDeque::from([first.a, first.b]);
        // Grow from the b end, then from the a end.
        for (front, mut edge) in [(false, first.edges[1]), (true, first.edges[0])] {
            loop {
                let next = on_edge
                    .get(edge)
                    .and_then(|ks| ks.iter().copied().find(|k| *k != NONE && !used.get(*k).copied().unwrap_or(true)));
                let Some(k) = next else { break };
                if let Some(u) = used.get_mut(k) {
                    *u = true;
                }
                let Some(s) = segments.get(k) else { break };
                let (point, far) = if s.edges[0] == edge { (s.b, s.edges[1]) } else { (s.a, s.edges[0]) };
                if front {
                    line.push_front(point);
                } else {
                    line.push_back(point);
                }
                edge = far;
            }
        }
        lines.push(line.into_iter().collect());
    }
    lines
}

/// Polylines of `level`, in grid-index coordinates.
pub fn isolines(values: &[f64], nx: usize, ny: usize, level: f64) -> Vec<Vec<Point>> {
    join(&segments(values, nx, ny, level), 2 * nx * ny)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(n: usize, scale: f64) -> Vec<f64> {
        let c = (n - 1) as f64 / 2.0;
        (0..n * n)
            .map(|k| {
                let (i, j) = ((k % n) as f64, (k / n) as f64);
                ((i - c) / scale).powi(2) + ((j - c) / scale).powi(2)
            })
            .collect()
    }

    #[test]
    fn circles_close_and_lie_within_a_cell_of_the_true_radius() {
        let n = 64;
        let scale = 10.0; // one cell = 0.1 units
        let v = disc(n, scale);
        let c = (n - 1) as f64 / 2.0;
        for r in [0.5f64, 1.0, 2.0, 3.0] {
            let lines = isolines(&v, n, n, r * r);
            assert_eq!(lines.len(), 1, "r = {r}: one closed line");
            let line = &lines[0];
            let (first, last) = (line[0], line[line.len() - 1]);
            assert!((first.0 - last.0).abs() < 1e-9 && (first.1 - last.1).abs() < 1e-9, "closed");
            for p in line {
                let d = ((p.0 - c).powi(2) + (p.1 - c).powi(2)).sqrt() / scale;
                assert!((d - r).abs() < 1.0 / scale, "r = {r}: point at {d}");
            }
        }
    }

    #[test]
    fn gaps_break_lines_and_never_produce_segments() {
        let n = 32;
        let mut v = disc(n, 5.0);
        for j in 0..n {
            v[j * n + n / 2] = f64::NAN; // a vertical gap through the middle
        }
        let lines = isolines(&v, n, n, 4.0);
        assert_eq!(lines.len(), 2, "the circle is cut in two");
        for line in &lines {
            assert!(line.iter().all(|p| (p.0 - (n / 2) as f64).abs() >= 1.0 - 1e-9));
        }
        assert!(isolines(&vec![f64::NAN; n * n], n, n, 1.0).is_empty());
    }

    /// Found by scripts/fuzz.mjs: a cell from −∞ to +∞ gave a NaN crossing
    /// point; infinite corners are gaps like NaN ones.
    #[test]
    fn infinite_values_are_gaps() {
        let v = [f64::NEG_INFINITY, f64::INFINITY, f64::INFINITY, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0];
        for level in [0.5, 1.5, 2.5, 4294967296.0] {
            for line in isolines(&v, 3, 3, level) {
                assert!(line.iter().all(|p| p.0.is_finite() && p.1.is_finite()), "{level}: {line:?}");
            }
        }
        assert!(!isolines(&v, 3, 3, 1.5).is_empty(), "the finite cells still have their line");
    }
}
