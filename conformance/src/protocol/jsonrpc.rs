//! JSON-RPC 2.0 requests and notifications as each runtime writes them.

use std::io::Write;

use serde_json::{Value, json};

use super::{Family, Profile, wire};

/// A request with an integer id. PromptKit's server executor writes the id
/// last (Go struct order); everyone else writes it second.
pub fn request(family: Family, profile: Profile, id: u64, method: &str, params: Value) -> Value {
    if family == Family::PromptkitServer && profile.promptkit_server_id_last() {
        json!({"jsonrpc": "2.0", "method": method, "params": params, "id": id})
    } else {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }
}

/// The line a runtime writes for a request, newline included: the bytes of
/// `wire::encode(&request(..))`, written around the encoded params instead
/// of building the envelope as a `Value` first. It is on every exchange's
/// hot path, where the envelope's map, its keys and their hashing were a
/// large share of proctor's own CPU per round trip (BENCHMARKS.md).
pub fn encode_request(family: Family, profile: Profile, id: u64, method: &str, params: &Value) -> Vec<u8> {
    enum Member<'a> {
        Id,
        Version,
        Method,
        Params(&'a Value),
    }
    let members = if profile.sorted_keys() {
        [Member::Id, Member::Version, Member::Method, Member::Params(params)]
    } else if family == Family::PromptkitServer && profile.promptkit_server_id_last() {
        [Member::Version, Member::Method, Member::Params(params), Member::Id]
    } else {
        [Member::Version, Member::Id, Member::Method, Member::Params(params)]
    };
    let mut out = Vec::with_capacity(256);
    for (i, member) in members.into_iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"{" } else { b"," });
        match member {
            Member::Id => {
                out.extend_from_slice(b"\"id\":");
                // Into the line itself: writing to a Vec cannot fail.
                let _ = write!(out, "{id}");
            }
            Member::Version => out.extend_from_slice(b"\"jsonrpc\":\"2.0\""),
            Member::Method => {
                out.extend_from_slice(b"\"method\":");
                wire::append(&mut out, method, profile);
            }
            Member::Params(params) => {
                out.extend_from_slice(b"\"params\":");
                wire::encode_into(&mut out, params, profile);
            }
        }
    }
    out.extend_from_slice(b"}\n");
    out
}

/// A notification: no `id` member at all (PicoClaw omits a zero id).
pub fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// The line a runtime writes for a notification, newline included.
pub fn encode_notification(profile: Profile, method: &str, params: Value) -> Vec<u8> {
    let mut line = wire::encode(&notification(method, params), profile);
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_requests_are_the_bytes_of_the_value_path() {
        let params = [Value::Null, json!({}), json!({"z": 1, "a": {"y": [1, "<b>&</b>"], "b": "line\u{2028}sep"}, "m": "é\"\\\n"})];
        for family in Family::ALL {
            for profile in Profile::ALL {
                for method in ["execute", "hook.before_tool", "odd \"<method>\""] {
                    for p in &params {
                        let mut want = wire::encode(&request(family, profile, 42, method, p.clone()), profile);
                        want.push(b'\n');
                        let got = encode_request(family, profile, 42, method, p);
                        assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&want), "{family:?} {profile:?} {method}");
                    }
                }
            }
        }
    }
}
