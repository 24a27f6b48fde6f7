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

/// `x` to `sig` significant figures, as the page shows every number (the
/// same text as [`number`]): tables, remarks, messages and the page's
/// cards all read `6.764 × 10⁻⁸`, never `6.764e-8`. Non-finite values
/// print as an em dash, so a gap never shows as "NaN".
pub fn sig(x: f64, sig: usize) -> String {
    number(x, sig)
}

/// A chart's tick label: four significant figures without trailing zeros
/// (`0.5`, `2.5 × 10⁶`), so neighbouring ticks 0.0015 and 0.002 never read
/// alike. A tick within rounding of zero — closer to it than
/// [`TICK_ZERO`] of the axis span — is `0`, not `1.7 × 10⁻¹⁸`.
pub fn tick(v: f64, span: f64) -> String {
    if v == 0.0 || (span.is_finite() && v.abs() <= TICK_ZERO * span.abs()) {
        return "0".into();
    }
    compact(v, 4)
}

/// A number where room is short (chart and map ticks, isoline levels, a
/// colour bar): `digits` significant figures without trailing zeros, plain
/// from 10⁻³ up to 10⁵ (`0.0015`, `25`, `12000`), in powers of ten
/// outside (`2.5 × 10⁶`, and a power of ten itself as `10⁶`), so that one
/// axis never mixes `10000` with `1e5`. The same digits as [`number`].
pub fn compact(v: f64, digits: usize) -> String {
    if !v.is_finite() {
        return "—".to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let a = v.abs();
    let (ds, decade) = significant(v, digits.clamp(1, 15));
    let sign = if v < 0.0 { "-" } else { "" };
    if (1e-3..1e5).contains(&a) {
        let text = trimmed(&number(v, digits));
        if !text.contains('×') {
            return text;
        }
        // 4842 to three figures: 4840, not 4.84 × 10³.
        if let Ok(d) = usize::try_from(decade) {
            return format!("{sign}{ds}{}", "0".repeat((d + 1).saturating_sub(ds.len())));
        }
    }
    let (first, rest) = ds.split_at(1.min(ds.len()));
    let rest = rest.trim_end_matches('0');
    match (first, rest) {
        ("1", "") => format!("{sign}10{}", superscript(decade)),
        (first, "") => format!("{sign}{first} × 10{}", superscript(decade)),
        (first, rest) => format!("{sign}{first}.{rest} × 10{}", superscript(decade)),
    }
}

/// Below this fraction of its axis span a tick is zero (ticks are steps
/// of at least a tenth of the span; sums of them stray by ~1e-16).
pub const TICK_ZERO: f64 = 1e-9;

/// A page number without the trailing zeros of its mantissa
/// (`2.500 × 10⁶` → `2.5 × 10⁶`, `0.5000` → `0.5`).
fn trimmed(text: &str) -> String {
    let (mant, rest) = match text.find(" ×") {
        Some(k) => text.split_at(k),
        None => (text, ""),
    };
    let mant = if mant.contains('.') { mant.trim_end_matches('0').trim_end_matches('.') } else { mant };
    format!("{mant}{rest}")
}

/// `n` and the noun that goes with it: `1 processor`, `4 processors`,
/// `0 processors`.
pub fn plural(n: f64, one: &str, many: &str) -> String {
    let noun = if n == 1.0 { one } else { many };
    format!("{} {noun}", count(n))
}

/// `x` with at least `digits` significant figures, and more until the
/// text is on the same side of `bound` as `x` itself: ρ = 1.0000003 reads
/// `1.0000003`, not `1.000`, so "ρ ≥ 1" and "over capacity" are visibly
/// true. Beyond 15 figures, the shortest text that reads back as `x`.
pub fn beside(x: f64, bound: f64, digits: usize) -> String {
    let side = |v: f64| v.partial_cmp(&bound);
    for d in digits.max(1)..=15 {
        let text = number(x, d);
        let shown: Option<f64> =
            text.replace(" × 10", "e").chars().map(from_superscript).collect::<String>().parse().ok();
        if shown.map(side) == Some(side(x)) {
            return text;
        }
    }
    // Closer than 15 figures can say: the shortest exact text (17 at most).
    num(x)
}

fn from_superscript(c: char) -> char {
    match SUPERSCRIPT.iter().position(|&s| s == c) {
        Some(d) => char::from(b'0' + d as u8),
        None if c == '⁻' => '-',
        None => c,
    }
}

/// How far `rho` is over 1 as a percentage with enough figures to be non-zero
/// when `rho` > 1 (`3.0 × 10⁻⁵%`, not `0%`).
pub fn over_percent(rho: f64) -> String {
    let p = 100.0 * (rho - 1.0);
    format!("{}%", if p > 0.0 { number(p, 3) } else { "0".to_string() })
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

/// Text for the page with the papers' subscripts marked: `t_{N+1}`,
/// `BW_{CTI,p}`, `α_i`, `T_comm` become `t<sub>N+1</sub>`, … The page
/// builds `<sub>` elements from the marks (never as HTML), so rich text
/// (help, captions, notes, remarks, table headers and cells) never shows
/// typed-out notation. A subscript is `_{…}` after a letter, or a run of
/// ASCII letters and digits after `_`, where the name before `_` is one
/// or two letters or holds a Greek one (`γCα_i`): identifiers such as
/// `leaf_fanin` stay as they are. Text already marked is left alone.
pub fn rich(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let slice = |from: usize, to: usize| chars.get(from..to).unwrap_or(&[]);
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    // Where the last subscript ended: a name starts there at the latest
    // (C_iα_i is C, i, α, i).
    let mut floor = 0;
    while let Some(&c) = chars.get(i) {
        if c == '_' && i > 0 && names_a_symbol(slice(0, i), floor) {
            let tail = slice(i + 1, chars.len());
            // `_{…}`: up to the closing brace; `_abc`: the letters and digits.
            let (sub, used) = match tail.split_first() {
                Some(('{', inner)) => match inner.iter().position(|&x| x == '}') {
                    Some(len) => (inner.get(..len).unwrap_or(&[]), len + 2),
                    None => (&[][..], 0),
                },
                _ => {
                    let run = tail.iter().take_while(|x| x.is_ascii_alphanumeric()).count();
                    (tail.get(..run).unwrap_or(&[]), run)
                }
            };
            if !sub.is_empty() {
                out.push_str("<sub>");
                out.extend(sub);
                out.push_str("</sub>");
                i += used + 1;
                floor = i;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

const SUBSCRIPTS: [(char, char); 33] = [
    ('0', '₀'),
    ('1', '₁'),
    ('2', '₂'),
    ('3', '₃'),
    ('4', '₄'),
    ('5', '₅'),
    ('6', '₆'),
    ('7', '₇'),
    ('8', '₈'),
    ('9', '₉'),
    ('+', '₊'),
    ('-', '₋'),
    ('−', '₋'),
    ('=', '₌'),
    ('(', '₍'),
    (')', '₎'),
    ('a', 'ₐ'),
    ('e', 'ₑ'),
    ('h', 'ₕ'),
    ('i', 'ᵢ'),
    ('j', 'ⱼ'),
    ('k', 'ₖ'),
    ('l', 'ₗ'),
    ('m', 'ₘ'),
    ('n', 'ₙ'),
    ('o', 'ₒ'),
    ('p', 'ₚ'),
    ('r', 'ᵣ'),
    ('s', 'ₛ'),
    ('t', 'ₜ'),
    ('u', 'ᵤ'),
    ('v', 'ᵥ'),
    ('x', 'ₓ'),
];

/// `text` in Unicode subscript characters, if every character has one
/// (`max` → `ₘₐₓ`; `comm` has none for `c`).
pub fn unicode_subscript(text: &str) -> Option<String> {
    text.chars().map(|c| SUBSCRIPTS.iter().find(|(k, _)| *k == c).map(|(_, s)| *s)).collect()
}

/// Text a chart draws (titles, axes, legends: one run of plain text on a
/// canvas): each subscript of the papers' notation in Unicode subscript
/// characters where they all exist (`m_max` → `mₘₐₓ`, `T_total` →
/// `Tₜₒₜₐₗ`); one without them stays as typed, so chart texts avoid those.
pub fn drawn(text: &str) -> String {
    let marked = rich(text);
    let mut out = String::with_capacity(marked.len());
    let mut rest = marked.as_str();
    while let Some((before, after)) = rest.split_once("<sub>") {
        out.push_str(before);
        let Some((sub, tail)) = after.split_once("</sub>") else {
            rest = after;
            break;
        };
        match unicode_subscript(sub) {
            Some(u) => out.push_str(&u),
            None if sub.chars().all(|c| c.is_ascii_alphanumeric()) => out.push_str(&format!("_{sub}")),
            None => out.push_str(&format!("_({sub})")),
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// Serializers for fields that hold rich text: the JSON carries the text
/// with its subscripts marked ([`rich`]); the core keeps the notation of
/// the papers.
pub(crate) mod rich_text {
    use serde::ser::{SerializeSeq, Serializer};

    pub fn one<S: Serializer, T: AsRef<str> + ?Sized>(text: &T, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(&super::rich(text.as_ref()))
    }

    pub fn many<S: Serializer, V: AsRef<[T]> + ?Sized, T: AsRef<str>>(texts: &V, ser: S) -> Result<S::Ok, S::Error> {
        let texts = texts.as_ref();
        let mut seq = ser.serialize_seq(Some(texts.len()))?;
        for t in texts {
            seq.serialize_element(&super::rich(t.as_ref()))?;
        }
        seq.end()
    }

    pub fn maybe<S: Serializer>(text: &Option<String>, ser: S) -> Result<S::Ok, S::Error> {
        match text {
            Some(t) => ser.serialize_some(&super::rich(t)),
            None => ser.serialize_none(),
        }
    }
}

/// Whether the letters that end `before` name a symbol that takes a
/// subscript: one or two letters, or a product with a Greek letter, after
/// a space, a bracket, an operator or another subscript (at `floor`), not
/// after a digit or `_`.
fn names_a_symbol(before: &[char], floor: usize) -> bool {
    let name: Vec<char> = before.iter().skip(floor).rev().take_while(|c| c.is_alphabetic()).copied().collect();
    let start = before.len() - name.len();
    let after_boundary = start == 0
        || (start == floor && floor > 0)
        || before.get(start - 1).is_some_and(|c| !c.is_alphanumeric() && *c != '_');
    let greek = name.iter().any(|c| ('\u{391}'..='\u{3C9}').contains(c));
    !name.is_empty() && after_boundary && (name.len() <= 2 || greek)
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
        // One format everywhere: sig is the page's number.
        assert_eq!(sig(6.7644e-8, 4), "6.764 × 10⁻⁸");
        assert_eq!(sig(1.5e-4, 2), "1.5 × 10⁻⁴");
        assert_eq!(sig(123.456, 4), "123.5");
        assert_eq!(sig(0.5, 3), "0.500");
        assert_eq!(sig(f64::NAN, 4), "—");
        assert_eq!(percent(0.00163), "+0.16%");
        assert_eq!(sig(9.99998, 4), "10.00");
        assert_eq!(percent(-1e-12), "0.000%");
        assert_eq!(percent(-0.5), "-50.00%");
        assert_eq!(percent(1.5), "+150%");
        for x in [6.7644e-8, 1.5e-4, 0.5, 123.456, 2.5e20, -3.25e-9] {
            assert_eq!(sig(x, 4), number(x, 4), "{x}");
        }
    }

    /// Ticks read like the page's numbers, and a tick that is zero up to
    /// the rounding of the tick arithmetic reads 0.
    #[test]
    fn ticks() {
        assert_eq!(tick(1.5e-4, 1e-3), "1.5 × 10⁻⁴");
        assert_eq!(tick(0.25, 1.0), "0.25");
        assert_eq!(tick(-2.0e-9, 1e-8), "-2 × 10⁻⁹");
        // The residual chart's zero tick: 1.7e-18 on an axis 0.4 wide.
        assert_eq!(tick(1.7e-18, 0.4), "0");
        assert_eq!(tick(-5.5e-17, 2.0), "0");
        // A small value on a small axis is not zero.
        assert_eq!(tick(1.7e-18, 1e-17), "1.7 × 10⁻¹⁸");
        // Limit: TICK_ZERO of the span is zero, ten times it is not.
        assert_eq!(tick(TICK_ZERO, 1.0), "0");
        assert_eq!(tick(10.0 * TICK_ZERO, 1.0), "10⁻⁸");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1.0, "processor", "processors"), "1 processor");
        assert_eq!(plural(0.0, "processor", "processors"), "0 processors");
        assert_eq!(plural(4096.0, "task", "tasks"), "4096 tasks");
        assert_eq!(plural(2.5, "task", "tasks"), "2.5000 tasks");
    }

    /// "ρ = … ≥ 1 (… over capacity)": the shown ρ and percentage never
    /// contradict the claim, however close ρ is to 1.
    #[test]
    fn a_claim_about_one_shows_enough_digits() {
        assert_eq!(beside(1.0000003, 1.0, 4), "1.0000003");
        assert_eq!(over_percent(1.0000003), "3.00 × 10⁻⁵%");
        assert_eq!(beside(0.99996, 1.0, 3), "0.99996");
        assert_eq!(beside(1.25, 1.0, 4), "1.250");
        assert_eq!(beside(1.0, 1.0, 4), "1");
        assert_eq!(over_percent(1.0), "0%");
        for rho in [1.0 + 1e-15, 1.0 + 3e-12, 1.0 + 4e-7, 1.0004, 1.7, 1e6] {
            let shown: f64 = beside(rho, 1.0, 4).parse().unwrap_or(f64::NAN);
            assert!(shown > 1.0 || beside(rho, 1.0, 4).contains('×'), "ρ = {rho} shows {}", beside(rho, 1.0, 4));
            assert_ne!(over_percent(rho), "0%", "{rho}");
            assert!(!over_percent(rho).starts_with("0.00"), "{rho}: {}", over_percent(rho));
        }
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

    #[test]
    fn subscripts_are_marked() {
        assert_eq!(rich("T = t_{N+1} + t_red"), "T = t<sub>N+1</sub> + t<sub>red</sub>");
        assert_eq!(rich("BW_{CTI,p′} = BW_{CTI,p*} · DC"), "BW<sub>CTI,p′</sub> = BW<sub>CTI,p*</sub> · DC");
        assert_eq!(rich("sending α_i takes S + C α_i"), "sending α<sub>i</sub> takes S + C α<sub>i</sub>");
        assert_eq!(rich("Σ(S_i + C_iα_i)"), "Σ(S<sub>i</sub> + C<sub>i</sub>α<sub>i</sub>)");
        assert_eq!(rich("γCα_i/r"), "γCα<sub>i</sub>/r");
        assert_eq!(rich("T_seq/t_red = 3"), "T<sub>seq</sub>/t<sub>red</sub> = 3");
        // Identifiers, numbers and marked text are left alone.
        assert_eq!(rich("leaf_fanin, rho_leaf1, coef_M2"), "leaf_fanin, rho_leaf1, coef_M2");
        assert_eq!(rich("x<sub>1</sub> and 1_000 and _a and a_ b"), "x<sub>1</sub> and 1_000 and _a and a_ b");
        assert_eq!(rich(&rich("t_{N+1}")), "t<sub>N+1</sub>");
        assert_eq!(rich("an open t_{N+1"), "an open t_{N+1");
    }

    #[test]
    fn drawn_text_uses_unicode_subscripts() {
        assert_eq!(drawn("E(T(m)), m = 1 … m_max"), "E(T(m)), m = 1 … mₘₐₓ");
        assert_eq!(drawn("Total time T_total (s)"), "Total time Tₜₒₜₐₗ (s)");
        assert_eq!(drawn("α_i and t_10"), "αᵢ and t₁₀");
        // No subscript c or q in Unicode: left as typed.
        assert_eq!(drawn("T_comm and T_seq"), "T_comm and T_seq");
        assert_eq!(drawn("leaf_fanin"), "leaf_fanin");
    }
}
