//! A certification as a check × profile grid: one row per check (and `--cases` case), one cell per
//! profile. It only arranges the report's results; every cell is a result the report holds.

use proctor_conformance::certify::{CheckResult, Report};

/// One check (for one case) across the profiles.
pub struct Row<'r> {
    /// The check id.
    pub id: &'static str,
    /// The `--cases` case (or, for runtime checks, the plugin), when the result is about one.
    pub case: Option<&'r str>,
    /// Per profile, in the report's profile order: the result's index in `report.checks`, and the
    /// result. `None` when the check did not run under that profile (a selection left it out).
    pub cells: Vec<Option<(usize, &'r CheckResult)>>,
}

impl Row<'_> {
    /// Whether the profiles disagree on this check: it passes under one and not another, say.
    pub fn diverges(&self) -> bool {
        let mut statuses = self.cells.iter().map(|c| c.map(|(_, r)| r.status));
        let first = statuses.next().flatten();
        statuses.any(|s| s != first)
    }
}

/// The rows of `report`, in the order the checks first appear.
pub fn rows(report: &Report) -> Vec<Row<'_>> {
    let mut rows: Vec<Row> = Vec::new();
    for (i, c) in report.checks.iter().enumerate() {
        let Some(column) = report.profiles.iter().position(|p| *p == c.profile) else { continue };
        let case = c.case.as_deref();
        let at = match rows.iter().position(|r| r.id == c.id && r.case == case && r.cells[column].is_none()) {
            Some(at) => at,
            None => {
                rows.push(Row { id: c.id, case, cells: vec![None; report.profiles.len()] });
                rows.len() - 1
            }
        };
        rows[at].cells[column] = Some((i, c));
    }
    rows
}
