//! The smallest native plugin there is, for benchmarks and `proctor load`:
//! std only, no JSON parser, so what is measured is proctor, not the plugin.
//!
//! Line mode (default): for every line read, write
//! `{"jsonrpc":"2.0","id":<id>,"result":{}}` and flush, where `<id>` is copied
//! from the request's `"id":` member as written. It answers `hook.hello` like
//! any other request, so it serves PicoClaw hooks, PromptKit servers and the
//! raw loops of the benchmarks alike.
//!
//! `--oneshot`: read stdin to EOF and write one such document (a one-shot
//! PromptKit exec plugin or runok extension), then exit.
//!
//! Build: `cargo build --release --example echo_plugin -p proctor-conformance`.

use std::io::{BufRead, Read, Write};

/// The raw text of the `"id":` member (number or string), `null` if absent.
fn id_of(line: &[u8]) -> &[u8] {
    let key = b"\"id\":";
    let Some(at) = line.windows(key.len()).position(|w| w == key) else { return b"null" };
    let rest = &line[at + key.len()..];
    let rest = &rest[rest.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(rest.len())..];
    let end = if rest.first() == Some(&b'"') {
        rest[1..].iter().position(|&b| b == b'"').map_or(rest.len(), |e| e + 2)
    } else {
        rest.iter().position(|&b| b == b',' || b == b'}' || b.is_ascii_whitespace()).unwrap_or(rest.len())
    };
    if end == 0 { b"null" } else { &rest[..end] }
}

fn reply(out: &mut impl Write, id: &[u8]) -> std::io::Result<()> {
    out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":")?;
    out.write_all(id)?;
    out.write_all(b",\"result\":{}}\n")?;
    out.flush()
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    if std::env::args().any(|a| a == "--oneshot") {
        let mut all = Vec::new();
        stdin.lock().read_to_end(&mut all)?;
        return reply(&mut out, id_of(&all));
    }
    let mut input = stdin.lock();
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        reply(&mut out, id_of(&line))?;
    }
}
