//! Protocol families, roles, wire-fidelity profiles and the requests proctor
//! sends, each family in its own module.

pub mod agent_hook;
mod family;
pub mod jsonrpc;
pub mod picoclaw_hook;
mod profile;
pub mod promptkit_exec;
pub mod promptkit_server;
pub mod reply_types;
pub mod runok_extension;
pub mod timing;
pub mod wire;

pub use family::*;
pub use profile::{DIVERGENCES, Divergence, Profile};
