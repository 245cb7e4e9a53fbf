//! Reading what a plugin wrote, without trusting it.
//!
//! Each reader turns raw bytes into a value *and* an exact account of every
//! way the bytes deviated from the framing the runtime expects: a garbage
//! prefix with its byte offset, a BOM, invalid UTF-8, two documents, a
//! pretty-printed document, a CRLF line.

mod document;
mod jsonrpc;
mod line;
mod text;
mod violation;

pub use document::{Document, read_document};
pub use jsonrpc::{Envelope, Id, ReplyBody, error_object_problem, parse_envelope};
pub use line::{Line, json_type as json_type_name, read_line};
pub use text::read_value;
pub use violation::{Violation, excerpt};
