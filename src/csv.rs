//! Measured data as pasted or uploaded: a small, strict CSV reader.
//!
//! Columns are separated by commas, semicolons or tabs (one separator per
//! file, detected from the first data line); a header line is optional;
//! blank lines, '#' comments and Windows line ends are fine; numbers use a decimal point.
//! Every error names the line and the column.

use crate::error::AnalysisError;

fn separator(line: &str) -> char {
    if line.contains('\t') {
        '\t'
    } else if line.contains(';') {
        ';'
    } else {
        ','
    }
}

/// Reads rows of exactly `columns.len()` numbers. A first line with no
/// number in it is taken as the header.
pub fn read(text: &str, columns: &[&str]) -> Result<Vec<Vec<f64>>, AnalysisError> {
    let lines: Vec<(usize, &str)> =
        // Blank lines and '#' comment lines (e.g. "# synthetic data") are skipped.
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r').trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
    let Some(&(_, first)) = lines.first() else {
        return Err(AnalysisError {
            line: 0,
            column: 0,
            message: format!("no data: paste rows of {}", columns.join(", ")),
        });
    };
    let sep = separator(first);
    let mut rows = Vec::new();
    for (k, &(line, content)) in lines.iter().enumerate() {
        let fields: Vec<&str> = content.split(sep).map(str::trim).collect();
        let is_header = k == 0 && fields.iter().all(|f| f.parse::<f64>().is_err());
        if is_header {
            continue;
        }
        if fields.len() != columns.len() {
            let hint = if sep == ',' && fields.len() > columns.len() {
                " (a decimal comma? use a decimal point, or separate columns with ';' or tabs)"
            } else {
                ""
            };
            return Err(AnalysisError {
                line,
                column: 0,
                message: format!(
                    "expected {} columns ({}), found {}{hint}",
                    columns.len(),
                    columns.join(", "),
                    fields.len()
                ),
            });
        }
        let mut row = Vec::with_capacity(columns.len());
        for (c, (field, name)) in fields.iter().zip(columns).enumerate() {
            let err = |message: String| AnalysisError { line, column: c + 1, message };
            if field.contains(',') {
                return Err(err(format!("{name} '{field}' has a decimal comma; use a decimal point")));
            }
            let x: f64 = field.parse().map_err(|_| err(format!("{name} '{field}' is not a number")))?;
            if !x.is_finite() {
                return Err(err(format!("{name} must be finite, not '{field}'")));
            }
            row.push(x);
        }
        rows.push(row);
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
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("p,time\n18,3.5\n36,abc\n", &COLS).unwrap_err();
        assert_eq!((e.line, e.column), (3, 2));
        assert!(e.to_string().contains("'abc' is not a number"));
        let e = read("18,3,5\n", &COLS).unwrap_err();
        assert!(e.to_string().contains("decimal comma"), "{e}");
        assert!(read("  \n\n", &COLS).unwrap_err().to_string().starts_with("no data"));
        assert_eq!(read("18,NaN", &COLS).unwrap_err().column, 2);
    }
}
