//! Measured data as pasted or uploaded: a small, strict CSV reader.
//!
//! Columns are separated by commas, semicolons or tabs (one separator per
//! file, detected from the first data line); a header line is optional;
//! blank lines, '#' comments, a leading byte-order mark and Windows (or old
//! Mac) line ends are fine; a field may be quoted as spreadsheets export it
//! (`"1.5"` is the number 1.5, `""` inside quotes is one quote); numbers use
//! a decimal point. Every error names the line and the column at fault;
//! text without a row of data is an error too.

use std::borrow::Cow;

use crate::error::AnalysisError;
use crate::format::echo;

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

/// Reads rows of exactly `columns.len()` numbers. A first line with no
/// number in it is taken as the header.
///
/// # Errors
///
/// Text that gives no row, and the first line that is not a row of
/// `columns.len()` finite numbers, with its line and column.
pub fn read(text: &str, columns: &[&str]) -> Result<Vec<Vec<f64>>, AnalysisError> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let mut rows = Vec::new();
    let (mut sep, mut header) = (None, None);
    // Blank lines and '#' comment lines (e.g. "# synthetic data") are skipped.
    for (line, content) in lines(text).map(|(i, l)| (i, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
    {
        let first = sep.is_none();
        let sep = *sep.get_or_insert_with(|| separator(content));
        let name = |column: usize| column.checked_sub(1).and_then(|c| columns.get(c)).copied().unwrap_or("the field");
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
            continue;
        }
        if fields.len() != columns.len() {
            let hint = if sep == ',' && fields.len() > columns.len() {
                " (a decimal comma? use a decimal point, or separate columns with ';' or tabs)"
            } else {
                ""
            };
            return Err(AnalysisError::at(
                line,
                0,
                format!("expected {} columns ({}), found {}{hint}", columns.len(), columns.join(", "), fields.len()),
            ));
        }
        let mut row = Vec::with_capacity(columns.len());
        for (c, (field, name)) in fields.iter().zip(columns).enumerate() {
            let err = |message: String| AnalysisError::at(line, c + 1, message);
            if field.is_empty() {
                return Err(err(format!("{name} is empty")));
            }
            if field.contains(',') {
                return Err(err(format!("{name} '{}' has a decimal comma; use a decimal point", echo(field))));
            }
            let x: f64 = field.parse().map_err(|_| err(format!("{name} '{}' is not a number", echo(field))))?;
            if !x.is_finite() {
                return Err(err(format!("{name} must be finite, not '{}'", echo(field))));
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
        return Err(AnalysisError::general(format!("{what}: expected rows of {}", columns.join(", "))));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: [&str; 2] = ["p", "time"];

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
}
