//! Measured data as pasted or uploaded: a small, strict CSV reader.
//!
//! Columns are separated by commas, semicolons or tabs (one separator per
//! file, detected from the first data line); a header line is optional,
//! and when it names the columns (`time,p`, `p, time (s)`, `processes;
//! seconds`) they are read by name in any order, other named columns
//! ignored; blank lines, '#' comments, a leading byte-order mark and Windows (or old
//! Mac) line ends are fine; a field may be quoted as spreadsheets export it
//! (`"1.5"` is the number 1.5, `""` inside quotes is one quote); numbers use
//! a decimal point. Each column says what a measurement of it is (a count
//! of processes is a whole number ≥ 1, a time is positive, a percentage is
//! in (0, 100]) and a value that is not one is refused. Every error names
//! the line and the column at fault; text without a row of data is an
//! error too.

use std::borrow::Cow;

use crate::error::AnalysisError;
use crate::format::echo;

/// What a value of a column must be to be a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// A whole number ≥ 1 (processes, nodes).
    Count,
    /// A positive number (a time, a size).
    Positive,
    /// A percentage in (0, 100].
    Percent,
}

impl Measure {
    /// Why `x` is not a measurement of this kind, if it is not.
    fn refuse(self, x: f64) -> Option<&'static str> {
        match self {
            Measure::Count if x < 1.0 || x.fract() != 0.0 => Some("a whole number ≥ 1"),
            Measure::Positive if x <= 0.0 => Some("a number > 0"),
            Measure::Percent if x <= 0.0 || x > 100.0 => Some("a percentage with 0 < value ≤ 100"),
            _ => None,
        }
    }
}

/// A column of a data set: its name, the other names a header may give it,
/// and what its values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    /// Other header names read as this column (lower case, no unit).
    pub aliases: &'static [&'static str],
    pub measure: Measure,
}

impl Column {
    /// Whether a header field names this column: its first word, in lower
    /// case and without a unit (`Time (s)`, `time_s`, `p;` → `time`, `time`, `p`).
    fn named(&self, field: &str) -> bool {
        let word: String =
            field.trim().chars().take_while(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
        !word.is_empty() && (word == self.name || self.aliases.contains(&word.as_str()))
    }
}

/// The column names, as the registry lists them.
pub fn names<S: serde::Serializer>(columns: &&'static [Column], ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_seq(columns.iter().map(|c| c.name))
}

/// Which field of a line holds each column, and how many fields a line has.
struct Layout {
    fields: Vec<usize>,
    width: usize,
    /// The header line it was read from, if the header named the columns.
    header: Option<usize>,
}

impl Layout {
    fn in_order(columns: &[Column]) -> Layout {
        Layout { fields: (0..columns.len()).collect(), width: columns.len(), header: None }
    }

    /// The layout a header line gives: by name when it names every column
    /// (other named fields ignored), in order when it names none (or only
    /// columns already in their place), else an error that says what to name.
    fn from_header(line: usize, header: &[Cow<'_, str>], columns: &[Column]) -> Result<Layout, AnalysisError> {
        let expected = || columns.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
        let mut fields = vec![None; columns.len()];
        for (at, field) in header.iter().enumerate() {
            let Some(c) = columns.iter().position(|c| c.named(field)) else { continue };
            match fields.get_mut(c) {
                Some(Some(first)) => {
                    let name = columns.get(c).map_or("a column", |c| c.name);
                    let first = *first + 1;
                    return Err(AnalysisError::at(
                        line,
                        at + 1,
                        format!("the header names {name} twice (columns {first} and {})", at + 1),
                    ));
                }
                Some(slot) => *slot = Some(at),
                None => {}
            }
        }
        if let Some(fields) = fields.iter().copied().collect::<Option<Vec<usize>>>() {
            return Ok(Layout { fields, width: header.len(), header: Some(line) });
        }
        let in_place = fields.iter().enumerate().all(|(c, f)| f.is_none_or(|f| f == c));
        if in_place && header.len() == columns.len() {
            return Ok(Layout::in_order(columns));
        }
        let missing: Vec<&str> =
            columns.iter().zip(&fields).filter(|(_, f)| f.is_none()).map(|(c, _)| c.name).collect();
        Err(AnalysisError::at(
            line,
            0,
            format!(
                "the header does not name {}: name the columns {} (in any order) or leave the header out",
                missing.join(" or "),
                expected()
            ),
        ))
    }
}

/// The byte-order mark some editors and spreadsheets write first in a UTF-8 file.
const BOM: char = '\u{feff}';

/// The separator of a file: tab if its first data line has one outside
/// quotes, else semicolon if it has one, else comma.
fn separator(line: &str) -> char {
    let (mut quoted, mut tab, mut semicolon) = (false, false, false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            '\t' if !quoted => tab = true,
            ';' if !quoted => semicolon = true,
            _ => {}
        }
    }
    if tab {
        '\t'
    } else if semicolon {
        ';'
    } else {
        ','
    }
}

/// The lines of `text` numbered from 1, ended by "\n" or "\r\n", or by
/// "\r" alone in a text without "\n" (old Mac spreadsheets).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let end = if text.contains('\n') { '\n' } else { '\r' };
    text.split(end).map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate().map(|(i, l)| (i + 1, l))
}

/// The fields of `line` split at `sep`, trimmed; a field in double quotes
/// may hold the separator, and `""` inside it stands for one quote. An
/// error is the 1-based column at fault and what is wrong there.
fn fields(line: &str, sep: char) -> Result<Vec<Cow<'_, str>>, (usize, &'static str)> {
    // Most lines have no quote: split them without copying.
    if !line.contains('"') {
        return Ok(line.split(sep).map(|f| Cow::Borrowed(f.trim())).collect());
    }
    let space = |c: char| c.is_whitespace() && c != sep;
    let mut out = Vec::new();
    let mut rest = line;
    loop {
        let column = out.len() + 1;
        let field = rest.trim_start_matches(space);
        let after = if let Some(quoted) = field.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices().peekable();
            let end = loop {
                match chars.next() {
                    None => return Err((column, "has an opening quote that is not closed on this line")),
                    Some((_, '"')) if chars.next_if(|&(_, c)| c == '"').is_some() => value.push('"'),
                    Some((i, '"')) => break i + 1,
                    Some((_, c)) => value.push(c),
                }
            };
            out.push(Cow::Owned(value.trim().to_string()));
            let after = quoted.get(end..).unwrap_or_default().trim_start_matches(space);
            if !after.is_empty() && !after.starts_with(sep) {
                return Err((column, "has text after its closing quote"));
            }
            after
        } else {
            let end = field.find(sep).unwrap_or(field.len());
            out.push(Cow::Borrowed(field.get(..end).unwrap_or_default().trim()));
            field.get(end..).unwrap_or_default()
        };
        match after.strip_prefix(sep) {
            Some(next) => rest = next,
            None => return Ok(out),
        }
    }
}

/// The number in `field` of column `name`, or why it is not one: empty, a
/// decimal comma, not a number, not finite.
fn number(field: &str, name: &str) -> Result<f64, String> {
    if field.is_empty() {
        return Err(format!("{name} is empty"));
    }
    if field.contains(',') {
        return Err(format!("{name} '{}' has a decimal comma; use a decimal point", echo(field)));
    }
    let x: f64 = field.parse().map_err(|_| format!("{name} '{}' is not a number", echo(field)))?;
    if !x.is_finite() {
        return Err(format!("{name} must be finite, not '{}'", echo(field)));
    }
    Ok(x)
}

/// Reads one row of `columns.len()` measurements per data line, in the
/// order of `columns`. A first line with no number in it is the header; when
/// it names the columns they are read by name.
///
/// # Errors
///
/// Text that gives no row, a header that names some columns but not all,
/// and the first line that is not a row of measurements, with its line and
/// column.
pub fn read(text: &str, columns: &[Column]) -> Result<Vec<Vec<f64>>, AnalysisError> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let mut rows = Vec::new();
    let (mut sep, mut header) = (None, None);
    let mut layout = Layout::in_order(columns);
    // Blank lines and '#' comment lines (e.g. "# synthetic data") are skipped.
    for (line, content) in lines(text).map(|(i, l)| (i, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    {
        let first = sep.is_none();
        let sep = *sep.get_or_insert_with(|| separator(content));
        let name = |column: usize| {
            let at = column.checked_sub(1);
            layout
                .fields
                .iter()
                .position(|&f| Some(f) == at)
                .and_then(|c| columns.get(c))
                .map_or("the field", |c| c.name)
        };
        // Text with NUL bytes is a binary file or UTF-16 read as UTF-8.
        if let Some(at) = content.find('\0') {
            let column = content.get(..at).unwrap_or_default().matches(sep).count() + 1;
            return Err(AnalysisError::at(
                line,
                column,
                format!(
                    "{} contains a NUL byte: the data must be UTF-8 text, not a binary or UTF-16 file",
                    name(column)
                ),
            ));
        }
        let fields = fields(content, sep)
            .map_err(|(column, what)| AnalysisError::at(line, column, format!("{} {what}", name(column))))?;
        if first && fields.iter().all(|f| f.parse::<f64>().is_err()) {
            header = Some(line);
            layout = Layout::from_header(line, &fields, columns)?;
            continue;
        }
        if fields.len() != layout.width {
            let names = columns.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
            let expected = match layout.header {
                Some(h) => format!("expected {} columns, as the header on line {h} has", layout.width),
                None => format!("expected {} columns ({names})", layout.width),
            };
            let hint = if sep == ',' && fields.len() > layout.width {
                " (a decimal comma? use a decimal point, or separate columns with ';' or tabs)"
            } else {
                ""
            };
            return Err(AnalysisError::at(line, 0, format!("{expected}, found {}{hint}", fields.len())));
        }
        let mut row = Vec::with_capacity(columns.len());
        for (column, &at) in columns.iter().zip(&layout.fields) {
            let (name, field) = (column.name, fields.get(at).map_or("", |f| f.as_ref()));
            let err = |message: String| AnalysisError::at(line, at + 1, message);
            let x = number(field, name).map_err(err)?;
            if let Some(valid) = column.measure.refuse(x) {
                // The number as read (a 50-digit field reads back as 1.1111111111111111e49).
                let x = crate::format::field_text(x);
                return Err(err(format!("{name} = {x} is not a measurement: expected {valid}")));
            }
            row.push(x);
        }
        rows.push(row);
    }
    if rows.is_empty() {
        let what = match header {
            Some(line) => format!("no data below the header on line {line}"),
            None => "no data".to_string(),
        };
        let names = columns.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
        return Err(AnalysisError::general(format!("{what}: expected rows of {names}")));
    }
    Ok(rows)
}

/// A data set whose header names its columns, read as they come: the
/// header's fields (trimmed) and each data line's numbers with its line.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The header line (1-based) and its fields.
    pub header_line: usize,
    pub header: Vec<String>,
    pub rows: Vec<(usize, Vec<f64>)>,
}

/// Reads a data set with a header line that names every column (blank
/// lines, comments, quotes, separators and line ends as [`read`] takes
/// them); every value must be a finite number.
///
/// # Errors
///
/// No header (a first line of numbers), no data below it, a line of
/// another width, and any field that is not a finite number, each with its
/// line and column.
pub fn read_named(text: &str) -> Result<Named, AnalysisError> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let mut sep = None;
    let mut named: Option<Named> = None;
    for (line, content) in lines(text).map(|(i, l)| (i, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    {
        let sep = *sep.get_or_insert_with(|| separator(content));
        if let Some(at) = content.find('\0') {
            let column = content.get(..at).unwrap_or_default().matches(sep).count() + 1;
            return Err(AnalysisError::at(
                line,
                column,
                "contains a NUL byte: the data must be UTF-8 text, not a binary or UTF-16 file",
            ));
        }
        let fields = fields(content, sep)
            .map_err(|(column, what)| AnalysisError::at(line, column, format!("the field {what}")))?;
        let Some(table) = named.as_mut() else {
            if fields.iter().any(|f| f.parse::<f64>().is_ok()) {
                return Err(AnalysisError::at(
                    line,
                    0,
                    "the first line must be a header that names the columns (parameter keys and one measured output, e.g. N,M,T)",
                ));
            }
            named = Some(Named {
                header_line: line,
                header: fields.iter().map(|f| f.to_string()).collect(),
                rows: Vec::new(),
            });
            continue;
        };
        if fields.len() != table.header.len() {
            return Err(AnalysisError::at(
                line,
                0,
                format!(
                    "expected {} columns, as the header on line {} has, found {}",
                    table.header.len(),
                    table.header_line,
                    fields.len()
                ),
            ));
        }
        let mut row = Vec::with_capacity(fields.len());
        for (at, (field, name)) in fields.iter().zip(&table.header).enumerate() {
            row.push(number(field, &echo(name)).map_err(|message| AnalysisError::at(line, at + 1, message))?);
        }
        table.rows.push((line, row));
    }
    match named {
        Some(table) if !table.rows.is_empty() => Ok(table),
        Some(table) => Err(AnalysisError::general(format!("no data below the header on line {}", table.header_line))),
        None => Err(AnalysisError::general("no data: expected a header naming the columns, then rows of numbers")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: [Column; 2] = [
        Column { name: "p", aliases: &["processes"], measure: Measure::Count },
        Column { name: "time", aliases: &["t", "seconds"], measure: Measure::Positive },
    ];

    #[test]
    fn header_blank_lines_and_windows_line_ends() {
        let rows = read("p,time\r\n\r\n18, 3.5\r\n36,2.0\r\n", &COLS).unwrap();
        assert_eq!(rows, vec![vec![18.0, 3.5], vec![36.0, 2.0]]);
        assert_eq!(
            read("18;3,5\n36;2", &COLS).unwrap_err().to_string(),
            "line 1, column 2: time '3,5' has a decimal comma; use a decimal point"
        );
        assert_eq!(read("18\t3.5\n36\t2", &COLS).unwrap().len(), 2);
        // Old Mac spreadsheets end lines with a lone CR.
        assert_eq!(read("p,time\r18,3.5\r36,2.0\r", &COLS).unwrap(), rows);
        let e = read("p,time\r\n18,3.5\r\n36,x\r\n", &COLS).unwrap_err();
        assert_eq!((e.line, e.column), (3, 2));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("p,time\n18,3.5\n36,abc\n", &COLS).unwrap_err();
        assert_eq!((e.line, e.column), (3, 2));
        assert!(e.to_string().contains("'abc' is not a number"));
        let e = read("18,3,5\n", &COLS).unwrap_err();
        assert!(e.to_string().contains("decimal comma"), "{e}");
        assert_eq!(read("18,NaN", &COLS).unwrap_err().column, 2);
        assert_eq!(read("18,\n", &COLS).unwrap_err().to_string(), "line 1, column 2: time is empty");
        // A long field is quoted cut, not whole.
        let e = read(&format!("18,{}\n", "x".repeat(100_000)), &COLS).unwrap_err().to_string();
        assert!(e.len() < 200 && e.contains("(100000 characters)"), "{e}");
    }

    #[test]
    fn no_rows_is_an_error_not_an_empty_data_set() {
        for text in ["", "  \n\n", "\u{feff}", "# only a comment\n"] {
            assert_eq!(read(text, &COLS).unwrap_err().to_string(), "no data: expected rows of p, time", "{text:?}");
        }
        for text in ["p,time\n", "# synthetic\np,time\r\n\r\n"] {
            let e = read(text, &COLS).unwrap_err();
            assert_eq!(e.line, 0);
            assert!(e.to_string().starts_with("no data below the header on line"), "{text:?}: {e}");
        }
    }

    /// Issue 13: a byte-order mark made the first line unreadable: a comment
    /// became the header and the real header a bad row, a first data row
    /// was taken for a header and silently lost.
    #[test]
    fn a_leading_byte_order_mark_is_ignored() {
        for plain in
            ["p,time\n18,3.5\n36,2\n", "# synthetic\np,time\n18,3.5\n36,2\n", "18,3.5\n36,2\n", "18;3.5\n36;2\n"]
        {
            let with_bom = format!("{BOM}{plain}");
            assert_eq!(read(&with_bom, &COLS), read(plain, &COLS), "{plain:?}");
            assert_eq!(read(&with_bom, &COLS).unwrap(), vec![vec![18.0, 3.5], vec![36.0, 2.0]]);
        }
        // Errors keep their line and column.
        let e = read(&format!("{BOM}18,3.5\n36,x\n"), &COLS).unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        // Only one, and only at the start: a second one is not a number.
        assert!(read(&format!("{BOM}{BOM}18,3.5\n"), &COLS).is_err());
    }

    /// Spreadsheets quote fields on export: a quoted number is a number.
    #[test]
    fn quoted_fields() {
        let want = vec![vec![1.0, 2.0], vec![4.0, 0.5]];
        assert_eq!(read("\"p\",\"time\"\n\"1\",\"2\"\n\"4\", \" 0.5 \"\n", &COLS).unwrap(), want);
        assert_eq!(read("p;time\n\"1\";2\n4;\"0.5\"\n", &COLS).unwrap(), want);
        assert_eq!(read("\"p, processes\",\"time; s\"\n1,2\n4,0.5\n", &COLS).unwrap(), want);
        assert_eq!(read("\"a \"\"quoted\"\" p\"\t\"t\"\n1\t2\n4\t0.5\n", &COLS).unwrap(), want);
        // A quoted decimal comma is one field, refused as a decimal comma.
        assert_eq!(
            read("\"1,5\",2\n", &COLS).unwrap_err().to_string(),
            "line 1, column 1: p '1,5' has a decimal comma; use a decimal point"
        );
        assert_eq!(read("1,\"\"\n", &COLS).unwrap_err().to_string(), "line 1, column 2: time is empty");
        assert_eq!(
            read("1,2\n4,\"0.5\n", &COLS).unwrap_err().to_string(),
            "line 2, column 2: time has an opening quote that is not closed on this line"
        );
        assert_eq!(
            read("1,2\n\"4\"x,0.5\n", &COLS).unwrap_err().to_string(),
            "line 2, column 1: p has text after its closing quote"
        );
        assert_eq!(
            read("1,2\n4,5\"\n", &COLS).unwrap_err().to_string(),
            "line 2, column 2: time '5\"' is not a number"
        );
    }

    #[test]
    fn nul_bytes_name_line_and_column() {
        assert_eq!(
            read("p,time\n18,3.5\n36,2\0.1\n", &COLS).unwrap_err().to_string(),
            "line 3, column 2: time contains a NUL byte: the data must be UTF-8 text, not a binary or UTF-16 file"
        );
        // UTF-16 read as bytes: a NUL after every ASCII character.
        let utf16: String = "p,time\n18,3.5\n".chars().flat_map(|c| [c, '\0']).collect();
        let e = read(&utf16, &COLS).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1), "{e}");
    }

    /// Issue 14: a header `time,p` was ignored and the columns silently
    /// swapped. A header that names the columns is read by name.
    #[test]
    fn a_naming_header_gives_the_column_order() {
        let want = vec![vec![18.0, 3.5], vec![36.0, 2.0]];
        for text in [
            "time,p\n3.5,18\n2,36\n",
            "Time (s);Processes\n3.5;18\n2;36\n",
            "run,seconds,note,p\n1,3.5,warm,18\n2,2,cold,36\n",
            "\"p, processes\",\"time; s\"\n18,3.5\n36,2\n",
            "x,y\n18,3.5\n36,2\n",
        ] {
            assert_eq!(read(text, &COLS).unwrap(), want, "{text:?}");
        }
        // Rows of a wider header keep its width; errors name the column in the file.
        let e = read("run,time,p\n1,3.5,18\n2,2\n", &COLS).unwrap_err();
        assert_eq!(e.to_string(), "line 3: expected 3 columns, as the header on line 1 has, found 2");
        let e = read("time,p\n3.5,18\n2,x\n", &COLS).unwrap_err();
        assert_eq!((e.line, e.column), (3, 2));
        assert!(e.to_string().contains("p 'x' is not a number"), "{e}");
        // A header that names one column out of place, or one twice, says what to name.
        let e = read("time,x\n3.5,18\n", &COLS).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: the header does not name p: name the columns p, time (in any order) or leave the header out"
        );
        let e = read("p,time,t\n1,2,3\n", &COLS).unwrap_err();
        assert_eq!(e.to_string(), "line 1, column 3: the header names time twice (columns 2 and 3)");
    }

    /// Issue 14: all-zero times and p = 1.5 were accepted.
    #[test]
    fn values_that_are_not_measurements_are_refused_at_their_line() {
        let e = read("p,time\n1,10\n2,0\n", &COLS).unwrap_err();
        assert_eq!(e.to_string(), "line 3, column 2: time = 0 is not a measurement: expected a number > 0");
        let e = read("time,p\n10,1\n8,1.5\n", &COLS).unwrap_err();
        assert_eq!(e.to_string(), "line 3, column 2: p = 1.5 is not a measurement: expected a whole number ≥ 1");
        assert_eq!(read("-1,2\n", &COLS).unwrap_err().column, 1);
        let pct = [Column { name: "bandwidth", aliases: &[], measure: Measure::Percent }];
        assert!(read("100\n0.5\n", &pct).is_ok());
        for bad in ["0", "100.5", "-3"] {
            assert_eq!(read(bad, &pct).unwrap_err().column, 1, "{bad}");
        }
    }
}
