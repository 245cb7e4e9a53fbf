//! proctor: conformance harness and mock-provider simulator for the stdio
//! plugin protocols of LLM agent runtimes.
//!
//! From the top down (each module uses only the ones below it):
//!
//! - [`cli`]: the command line (`proctor certify`, `run`, `verify`, `load`, the mocks).
//! - [`testing`]: the `cargo test` entry, one trial per scenario file.
//! - [`snapshot`]: where a scenario's snapshot lives, and whether a transcript still matches it.
//! - [`runner`]: run one scenario and judge its expectations.
//! - [`pipeline`]: each runtime's semantics, played against real plugins.
//! - [`context`]: what a pipeline holds while it plays a runtime (scripted LLM, journal, plugin commands).
//! - [`record`]: what a run produces: the transcript and the summary.
//! - [`scenario`]: the scenario format, loader and discovery.
//! - [`report`]: one renderer per output format, all from the same report.
//! - [`baseline`]: failures an author accepted for now; stale entries fail the run.
//! - [`certificate`]: a certification tied to the SHA-256 of the certified files, and its badge.
//! - [`interrupt`]: kill every plugin when proctor itself is interrupted.
//! - [`templates`]: the plugins, cases, scenarios and CI workflow `proctor init` writes.
//! - [`output`]: terminal colour decisions and atomic report files.
//! - [`verify`]: judge a runtime from its mock plugins' records and the LLM journal.
//!
//! The protocol work lives in `proctor-conformance`; the scripted peers in
//! `proctor-mocks`.

pub mod baseline;
pub mod certificate;
pub mod cli;
pub mod context;
pub mod interrupt;
pub mod output;
pub mod pipeline;
pub mod record;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod snapshot;
pub mod templates;
pub mod testing;
pub mod verify;
