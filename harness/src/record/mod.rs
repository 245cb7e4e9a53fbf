//! What a run produces: the transcript (every message, in order) and the
//! summary (the same run in the terms expectations are written in).
//!
//! The pipelines write these; the runner judges and reports them. They sit
//! below both so that data flows one way.

mod summary;
mod transcript;

pub use summary::{DecisionRecord, DenialRecord, Summary, ToolResultRecord, WorkflowRecord};
pub use transcript::{Entry, Transcript};
