//! Host-side clients: the runtime's end of a plugin conversation, without
//! judging anything. Certification and the reference pipelines both talk
//! to plugins through these.

mod one_shot;
mod rpc;

pub use one_shot::{OneShotReply, one_shot};
pub use rpc::{RpcClient, RpcOutcome};
