//! proctor-conformance: talk to a plugin the way its runtime does, and judge it.
//!
//! - [`transport`]: run a plugin as a supervised child process (process group,
//!   named deadlines, bounded reads, nothing left behind).
//! - [`framing`]: classify exactly what a plugin wrote: one-shot documents,
//!   JSON lines, JSON-RPC 2.0 envelopes.
//! - [`protocol`]: the four families, their roles, and the wire-fidelity
//!   profiles (documented vs each runtime as implemented).
//! - [`check`]: the check catalogue (stable ids, levels, spec references,
//!   hints) and typed outcomes with their evidence.
//! - [`client`]: the runtime's end of a plugin conversation (one-shot and
//!   JSON-RPC), shared by certification and the reference pipelines.
//! - [`verify`]: judge a runtime from what its plugins received.
//! - [`gojson`]: Go's `json.Unmarshal` modelled for a described Go type, so
//!   replies are judged as the Go runtimes decode them.
//! - [`certify`]: run the probes of a family against a plugin and produce a
//!   [`certify::Report`].

#![warn(missing_docs)]

pub mod certify;
pub mod check;
pub mod client;
pub mod framing;
pub mod gojson;
pub mod load;
pub mod protocol;
pub mod transport;
pub mod verify;
