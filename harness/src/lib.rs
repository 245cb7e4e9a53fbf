//! proctor: conformance harness and mock-provider simulator for the stdio
//! plugin protocols of LLM agent runtimes.
//!
//! - [`cli`]: the command line (`proctor certify`, `checks`, `mock-plugin`).
//! - [`pipeline`]: each runtime's semantics, played against real plugins.
//! - [`runner`]: run one scenario: transcript, summary, expectations.
//! - [`scenario`]: the scenario format, loader and discovery.
//! - [`testing`]: the `cargo test` entry, one trial per scenario file.
//! - [`report`]: one renderer per output format, all from the same report.
//! - [`interrupt`]: kill every plugin when proctor itself is interrupted.
//! - [`output`]: terminal colour decisions and atomic report files.
//! - [`verify`]: judge a runtime from its mock plugins' records and the LLM journal.
//!
//! The protocol work lives in `proctor-conformance`; the scripted peers in
//! `proctor-mocks`.

pub mod cli;
pub mod interrupt;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod testing;
pub mod verify;
