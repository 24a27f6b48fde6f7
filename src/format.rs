//! Number formatting for tables and chart labels.

/// `x` to `sig` significant figures: plain notation for moderate magnitudes,
/// scientific (`6.764e-8`) otherwise. Non-finite values print as an em dash,
/// so a gap never shows as "NaN".
pub fn sig(x: f64, sig: usize) -> String {
    if !x.is_finite() {
        return "—".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let sig = sig.max(1);
    // The decade after rounding to `sig` figures (9.99998 → 10.00, not 10.000).
    let rounded: f64 = format!("{:.*e}", sig - 1, x).parse().unwrap_or(x);
    let exp = rounded.abs().log10().floor() as i32;
    if (-3..6).contains(&exp) {
        let decimals = (sig as i32 - 1 - exp).max(0) as usize;
        format!("{x:.decimals$}")
    } else {
        let s = format!("{:.*e}", sig - 1, x);
        // Rust prints "6.764e-8"; keep it.
        s
    }
}

/// A count or processor number: whole numbers as such (72, not 72.000),
/// anything else to 5 significant figures.
pub fn count(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x}")
    } else {
        sig(x, 5)
    }
}

/// Relative difference (ours - paper) / paper as a signed percentage.
pub fn percent(x: f64) -> String {
    if !x.is_finite() {
        return "—".to_string();
    }
    let p = 100.0 * x;
    if p.abs() < 0.0005 {
        "0.000%".to_string()
    } else if p.abs() < 0.01 {
        format!("{p:+.3}%")
    } else if p.abs() < 100.0 {
        format!("{p:+.2}%")
    } else {
        format!("{p:+.0}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_figures() {
        assert_eq!(sig(6.7644e-8, 4), "6.764e-8");
        assert_eq!(sig(123.456, 4), "123.5");
        assert_eq!(sig(0.5, 3), "0.500");
        assert_eq!(sig(f64::NAN, 4), "—");
        assert_eq!(percent(0.00163), "+0.16%");
        assert_eq!(sig(9.99998, 4), "10.00");
        assert_eq!(percent(-1e-12), "0.000%");
        assert_eq!(percent(-0.5), "-50.00%");
        assert_eq!(percent(1.5), "+150%");
    }
}
