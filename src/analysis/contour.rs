//! Isolines of a field sampled on a grid, by marching squares with linear
//! interpolation along cell edges; segments are joined into polylines.
//!
//! The field is `values[j * nx + i]` at grid node (i, j); NaN is a gap, and
//! a cell with any gap corner yields no segment. Coordinates returned are
//! fractional grid indices (i + t, j + t), which the caller maps to
//! parameter units (linearly or logarithmically).

use std::collections::HashMap;

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

/// Segments of `level` in each cell, in grid-index coordinates.
pub fn segments(values: &[f64], nx: usize, ny: usize, level: f64) -> Vec<(Point, Point)> {
    let mut out = Vec::new();
    if nx < 2 || ny < 2 || values.len() < nx * ny {
        return out;
    }
    let at = |i: usize, j: usize| values.get(j * nx + i).copied().unwrap_or(f64::NAN);
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            // Corners counter-clockwise from (i, j): v0 (i,j), v1 (i+1,j), v2 (i+1,j+1), v3 (i,j+1).
            let v = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
            if v.iter().any(|x| x.is_nan()) {
                continue;
            }
            let (x, y) = (i as f64, j as f64);
            // Edge k joins corner k and k+1.
            let edge = |k: usize| -> Point {
                let corner = |c: usize| v.get(c % 4).copied().unwrap_or(f64::NAN);
                let (a, b) = (corner(k), corner(k + 1));
                let t = crossing(a, b, level);
                match k {
                    0 => (x + t, y),
                    1 => (x + 1.0, y + t),
                    2 => (x + 1.0 - t, y + 1.0),
                    _ => (x, y + 1.0 - t),
                }
            };
            let above: Vec<bool> = v.iter().map(|x| *x >= level).collect();
            let code = above.iter().enumerate().fold(0usize, |c, (k, a)| c | (usize::from(*a) << k));
            let mut pair = |a: usize, b: usize| out.push((edge(a), edge(b)));
            match code {
                0 | 15 => {}
                1 | 14 => pair(3, 0),
                2 | 13 => pair(0, 1),
                3 | 12 => pair(3, 1),
                4 | 11 => pair(1, 2),
                6 | 9 => pair(0, 2),
                7 | 8 => pair(2, 3),
                5 | 10 => {
                    // Saddle: the cell centre decides which corners connect.
                    let centre = v.iter().sum::<f64>() / 4.0;
                    let centre_above = centre >= level;
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

/// Joins segments that share end points into polylines (closed ones end
/// where they start).
pub fn join(segments: &[(Point, Point)]) -> Vec<Vec<Point>> {
    let key = |p: Point| ((p.0 * 1e6).round() as i64, (p.1 * 1e6).round() as i64);
    let mut by_end: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (k, (a, b)) in segments.iter().enumerate() {
        by_end.entry(key(*a)).or_default().push(k);
        by_end.entry(key(*b)).or_default().push(k);
    }
    let mut used = vec![false; segments.len()];
    let mut lines = Vec::new();
    for start in 0..segments.len() {
        if used.get(start).copied().unwrap_or(true) {
            continue;
        }
        if let Some(u) = used.get_mut(start) {
            *u = true;
        }
        let Some(&(a, b)) = segments.get(start) else { continue };
        let mut line = std::collections::VecDeque::from([a, b]);
        // Grow at the back, then at the front.
        for front in [false, true] {
            loop {
                let end = if front { line.front() } else { line.back() };
                let Some(&end) = end else { break };
                let next = by_end
                    .get(&key(end))
                    .and_then(|ks| ks.iter().copied().find(|k| !used.get(*k).copied().unwrap_or(true)));
                let Some(k) = next else { break };
                if let Some(u) = used.get_mut(k) {
                    *u = true;
                }
                let Some(&(p, q)) = segments.get(k) else { break };
                let other = if key(p) == key(end) { q } else { p };
                if front {
                    line.push_front(other);
                } else {
                    line.push_back(other);
                }
            }
        }
        lines.push(line.into_iter().collect());
    }
    lines
}

/// Polylines of `level`, in grid-index coordinates.
pub fn isolines(values: &[f64], nx: usize, ny: usize, level: f64) -> Vec<Vec<Point>> {
    join(&segments(values, nx, ny, level))
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
}
