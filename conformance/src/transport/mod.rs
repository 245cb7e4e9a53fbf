//! Running a plugin as a supervised child process.
//!
//! Every plugin runs in its own process group so that proctor can signal the
//! whole tree (the plugin and anything it spawned) and never wait on a pipe
//! held open by a grandchild. Deadlines are named ([`Deadlines`]) so a timeout
//! always says which phase ran out.

mod command;
mod deadline;
mod exit;
mod group;
pub mod idle;
mod process;
pub mod reaper;
mod refusal;
mod spawner;
mod stderr;
mod stdout;
pub mod tree;

pub use command::{MissingScript, PluginCommand};
pub use deadline::{Deadlines, Ending, EofWait, PIPE_BUFFER, Phase, Pipes};
pub use exit::ExitOutcome;
pub use process::{Collected, Leftover, MAX_LINE_BYTES, PluginProcess, Shutdown, ShutdownHow, SpawnError, WriteError};
pub use refusal::interpreter_refusal;
pub use stderr::StderrTail;
pub use stdout::{LineEnding, ReadEvent, StdoutReader};
