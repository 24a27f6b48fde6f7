//! Tables a model shows beside its outputs (comparisons, reproductions of
//! the paper's tables). Cells are text, formatted by the core, so every
//! front end prints the same digits.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub id: &'static str,
    pub title: String,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub caption: String,
    #[serde(serialize_with = "crate::format::rich_text::many")]
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    #[serde(serialize_with = "crate::format::rich_text::many")]
    pub notes: Vec<String>,
}

/// Whether a row agrees with its reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Plain,
    Current,
    Agrees,
    Disagrees,
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    #[serde(serialize_with = "crate::format::rich_text::many")]
    pub cells: Vec<String>,
    pub status: Status,
    /// A plain-language remark shown under the row.
    #[serde(serialize_with = "crate::format::rich_text::maybe", skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
    /// A link from the row's first cell to a view of the page (a hash,
    /// `#model=broadcast&p=5&…`; nothing else is a link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// Tables as CSV: for each, its title, its columns, its rows and a blank
/// line; a cell with a comma, quote or line break is quoted.
pub fn to_csv(tables: &[Table]) -> String {
    fn cell(c: &str) -> String {
        if c.contains([',', '"', '\n']) {
            format!("\"{}\"", c.replace('"', "\"\""))
        } else {
            c.to_string()
        }
    }
    let mut lines = Vec::new();
    for t in tables {
        lines.push(cell(&t.title));
        lines.push(t.columns.iter().map(|c| cell(c)).collect::<Vec<_>>().join(","));
        lines.extend(t.rows.iter().map(|r| r.cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",")));
        lines.push(String::new());
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_needs_it() {
        let t = Table {
            id: "t",
            title: "Fit, eq. (1)".into(),
            caption: String::new(),
            columns: vec!["a".into(), "b".into()],
            rows: vec![Row {
                cells: vec!["C1".into(), "[1, 2] \"s\"".into()],
                status: Status::Plain,
                remark: None,
                link: None,
            }],
            notes: Vec::new(),
        };
        assert_eq!(to_csv(&[t]), "\"Fit, eq. (1)\"\na,b\nC1,\"[1, 2] \"\"s\"\"\"\n");
    }
}
