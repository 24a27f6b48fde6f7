//! Number formatting: tables, chart labels, the page's outputs and field
//! hints. Every front end prints the same digits because they all come
//! from here.

/// Shortest text that reads back as the same number, in plain or
/// scientific notation, whichever is shorter.
pub fn num(x: f64) -> String {
    let plain = format!("{x}");
    let sci = format!("{x:e}");
    if sci.len() < plain.len() {
        sci
    } else {
        plain
    }
}

/// The text a number field shows for a value: exact, plain between 1e-4
/// and 1e6, otherwise the shorter of `1e13` and `10000000000000`.
pub fn field_text(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || (1e-4..1e6).contains(&a) {
        format!("{x}")
    } else {
        num(x)
    }
}

/// `x` rounded to `digits` significant figures (1 to 15) as decimal digits
/// and the decade of the first: ("6764", -8) for 6.7644e-8. Ties round away from
/// zero, as JavaScript's `toPrecision` does (Rust's own formatting rounds
/// them to even).
fn significant(x: f64, digits: usize) -> (String, i32) {
    let a = x.abs();
    let split = |text: String| -> (String, i32) {
        let (mant, exp) = text.split_once('e').unwrap_or((&text, "0"));
        (mant.chars().filter(char::is_ascii_digit).collect(), exp.parse().unwrap_or(0))
    };
    // A tie shows as "5" then only zeros after the kept digits of the exact
    // expansion (an f64 has at most 767 significant decimal digits).
    let is_tie = |precision: usize| {
        let (ds, exp) = split(format!("{:.*e}", precision, a));
        let tail = ds.get(digits..).unwrap_or("");
        (tail.starts_with('5') && tail.bytes().skip(1).all(|b| b == b'0')).then_some((ds, exp))
    };
    // Cheap first: a tie's shortest round-trip text is its exact value,
    // `digits` + 1 significant figures ending in 5 (for digits ≤ 15).
    let (shortest, _) = split(format!("{a:e}"));
    let maybe = shortest.len() == digits + 1 && shortest.ends_with('5');
    let tie = if maybe { is_tie(800) } else { None };
    let Some((ds, exp)) = tie else { return split(format!("{:.*e}", digits - 1, a)) };
    // Round the kept digits up (Rust rounded an even one down).
    let mut kept: Vec<u8> = ds.bytes().take(digits).collect();
    for b in kept.iter_mut().rev() {
        if *b == b'9' {
            *b = b'0';
        } else {
            *b += 1;
            return (String::from_utf8_lossy(&kept).into_owned(), exp);
        }
    }
    kept.insert(0, b'1');
    kept.truncate(digits);
    (String::from_utf8_lossy(&kept).into_owned(), exp + 1)
}

const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

fn superscript(n: i32) -> String {
    let digits = n.unsigned_abs().to_string();
    let sign = if n < 0 { "⁻" } else { "" };
    sign.chars().chain(digits.bytes().map(|b| SUPERSCRIPT.get(usize::from(b - b'0')).copied().unwrap_or('?'))).collect()
}

/// An output as the page shows it: `digits` significant figures, whole
/// numbers below 10⁷ as they are, and `6.764 × 10⁻⁸` far from 1. Never
/// prints NaN: a missing or non-finite value is an em dash.
pub fn number(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "—".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    if x.fract() == 0.0 && x.abs() < 1e7 {
        return format!("{x}");
    }
    let digits = digits.clamp(1, 15);
    let (ds, decade) = significant(x, digits);
    let sign = if x < 0.0 { "-" } else { "" };
    if (-3..digits as i32).contains(&decade) {
        // Plain notation with `digits` significant figures.
        let d = decade;
        let text = if d < 0 {
            format!("0.{}{ds}", "0".repeat((-d - 1) as usize))
        } else {
            let (int, frac) = ds.split_at((d as usize + 1).min(ds.len()));
            if frac.is_empty() {
                int.to_string()
            } else {
                format!("{int}.{frac}")
            }
        };
        format!("{sign}{text}")
    } else {
        let (first, rest) = ds.split_at(1.min(ds.len()));
        let mant = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
        format!("{sign}{mant} × 10{}", superscript(decade))
    }
}

/// A value in base units: six figures without trailing zeros
/// (`1.28 × 10⁹`, `23720`).
pub fn base(x: f64) -> String {
    let text = number(x, 6);
    let (mant, rest) = match text.find(" ×") {
        Some(k) => text.split_at(k),
        None => (text.as_str(), ""),
    };
    let mant = if mant.contains('.') { mant.trim_end_matches('0').trim_end_matches('.') } else { mant };
    format!("{mant}{rest}")
}

/// `≈ 1.6 h` for a time in seconds long enough (two minutes or more) to be
/// hard to read in seconds; empty otherwise.
pub fn duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 4] = [(365.25 * 86400.0, "years"), (86400.0, "days"), (3600.0, "h"), (60.0, "min")];
    if seconds.is_nan() || seconds < 120.0 || seconds.is_infinite() {
        return String::new();
    }
    let (size, unit) = UNITS.iter().copied().find(|(size, _)| seconds >= 2.0 * size).unwrap_or((60.0, "min"));
    format!("≈ {} {unit}", number(seconds / size, 3))
}

/// A few items of a long vector and its length: `1, 2, 3, …, 9 (9 values)`.
pub fn array(xs: &[f64]) -> String {
    let items: Vec<String> = if xs.len() <= 6 {
        xs.iter().map(|x| number(*x, 4)).collect()
    } else {
        let head = xs.iter().take(3).map(|x| number(*x, 4));
        head.chain(["…".to_string(), number(xs.last().copied().unwrap_or(f64::NAN), 4)]).collect()
    };
    let count = if xs.len() > 6 { format!(" ({} values)", xs.len()) } else { String::new() };
    format!("{}{count}", items.join(", "))
}

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

/// The longest piece of the user's own text a message quotes.
const ECHO_CHARS: usize = 40;

/// The user's text as a message quotes it: control characters (a NUL, a
/// newline) escaped, and cut after [`ECHO_CHARS`] characters with the full
/// length said, so a 100 kB value does not come back whole.
pub fn echo(text: &str) -> String {
    let total = text.chars().count();
    let mut out: String = text
        .chars()
        .take(ECHO_CHARS)
        .flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] })
        .collect();
    if total > ECHO_CHARS {
        out.push_str(&format!("… ({total} characters)"));
    }
    out
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

    /// The page's output text, as JavaScript's `toPrecision` and
    /// `toExponential` print these values.
    #[test]
    fn page_numbers() {
        assert_eq!(number(6.7644e-8, 4), "6.764 × 10⁻⁸");
        assert_eq!(number(9.2593e-12, 4), "9.259 × 10⁻¹²");
        assert_eq!(number(123.456, 4), "123.5");
        assert_eq!(number(72.0, 4), "72");
        assert_eq!(number(1e7, 4), "1.000 × 10⁷");
        assert_eq!(number(999999.9, 4), "1.000 × 10⁶");
        assert_eq!(number(0.001234, 4), "0.001234");
        assert_eq!(number(0.0001234, 4), "1.234 × 10⁻⁴");
        assert_eq!(number(-2.5e20, 4), "-2.500 × 10²⁰");
        assert_eq!(number(0.5, 4), "0.5000");
        // A tie: 1.0625 is exact in binary; toPrecision(4) gives 1.063.
        assert_eq!(number(1.0625, 4), "1.063");
        assert_eq!(number(9.9995, 4), "9.999"); // 9.9995 is below the tie in binary
        assert_eq!(number(f64::NAN, 4), "—");
        assert_eq!(base(1.28e9), "1.28 × 10⁹");
        assert_eq!(base(23720.0), "23720");
        assert_eq!(base(0.25), "0.25");
        assert_eq!(duration(5760.0), "≈ 96 min");
        assert_eq!(duration(9000.0), "≈ 2.50 h");
        assert_eq!(duration(100.0), "");
        assert_eq!(duration(3.0 * 365.25 * 86400.0), "≈ 3 years");
        assert_eq!(array(&[1.0, 2.5]), "1, 2.500");
        assert_eq!(array(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]), "1, 2, 3, …, 7 (7 values)");
        assert_eq!(field_text(1e13), "1e13");
        assert_eq!(field_text(0.0001), "0.0001");
        assert_eq!(field_text(2.5e-6), "2.5e-6");
        assert_eq!(field_text(1e-6), "1e-6");
        assert_eq!(field_text(123456.0), "123456");
    }
}
