//! The scripted mock plugin: a stand-in plugin of any family that answers
//! correctly, or misbehaves in exactly the named ways ([`Fault`]) that
//! proctor's checks must catch.
//!
//! [`run`] is the process entry point (`proctor mock-plugin`); [`serve`] is
//! the same loop over any reader and writers, for tests; [`reply`] holds the
//! well-behaved answers as pure functions. [`run_script`] plays a behaviour
//! file instead ([`script`]), for differential tests.

mod config;
mod envelope;
mod fault;
mod frame;
mod misbehave;
mod pipe;
pub mod reply;
pub mod rpc;
mod run;
pub mod script;
mod scripted;
mod serve;
mod sleeper;
mod strict;

pub use config::{Decision, MockPluginConfig};
pub use fault::{Fault, FaultKind};
pub use frame::{HUGE_PADDING, LOG_LINE};
pub use reply::{Answer, DENY_REASON};
pub use run::{run, run_recording};
pub use script::{Script, ScriptError};
pub use scripted::{run_script, run_script_recording};
pub use serve::{Ending, FLOOD_BYTES, LATE_REPLY, LATE_REPLY_MARKER, ServeError, serve};
pub use sleeper::{Holds, Sleeper};
