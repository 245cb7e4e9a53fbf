//! JSON-RPC 2.0 requests and notifications as each runtime writes them.

use serde_json::{Value, json};

use super::{Family, Profile};

/// A request with an integer id. PromptKit's server executor writes the id
/// last (Go struct order); everyone else writes it second.
pub fn request(family: Family, profile: Profile, id: u64, method: &str, params: Value) -> Value {
    if family == Family::PromptkitServer && profile.promptkit_server_id_last() {
        json!({"jsonrpc": "2.0", "method": method, "params": params, "id": id})
    } else {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }
}

/// A notification: no `id` member at all (PicoClaw omits a zero id).
pub fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}
