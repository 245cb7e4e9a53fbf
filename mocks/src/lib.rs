//! Scripted peers for proctor: the parties a plugin talks to, or the plugin
//! itself, played on cue.
//!
//! - [`provider`]: the scripted LLM provider (in process).
//! - [`plugin`]: the mock plugin. It speaks every protocol family proctor
//!   certifies, well-behaved by default, and misbehaves on request through
//!   named faults, so each conformance check can be shown to bite.
//!
//! The mock plugin is synchronous and uses only the process's own stdio, so
//! it is cheap to start many times in a test run; the provider's HTTP server
//! runs on tokio (axum).

#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod plugin;
pub mod provider;
