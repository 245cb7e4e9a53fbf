//! Property tests: the readers never panic on anything a plugin can write,
//! always classify what they saw, and the codecs round-trip.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use proctor_conformance::framing::{Violation, parse_envelope, read_document, read_line};
use proctor_conformance::protocol::{Profile, wire};
use proctor_conformance::transport::{LineEnding, ReadEvent, StdoutReader};
use proptest::prelude::*;
use serde_json::Value;
use tokio::io::{AsyncRead, ReadBuf};

/// A byte source that hands out fixed chunks, then EOF.
struct Chunks(Vec<Vec<u8>>);

impl AsyncRead for Chunks {
    fn poll_read(mut self: Pin<&mut Self>, _: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        if let Some(mut chunk) = self.0.first().cloned() {
            let n = chunk.len().min(buf.remaining());
            buf.put_slice(&chunk[..n]);
            if n == chunk.len() {
                self.0.remove(0);
            } else {
                chunk.drain(..n);
                self.0[0] = chunk;
            }
        }
        Poll::Ready(Ok(()))
    }
}

fn split(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort();
    points.dedup();
    let mut out = Vec::new();
    let mut last = 0;
    for p in points.into_iter().chain([bytes.len()]) {
        if p > last {
            out.push(bytes[last..p].to_vec());
            last = p;
        }
    }
    out
}

fn read_all_lines(chunks: Vec<Vec<u8>>, max_line: usize) -> Vec<ReadEvent> {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let mut reader = StdoutReader::new(Chunks(chunks), max_line);
        let mut events = Vec::new();
        loop {
            let e = reader.next_line(Duration::from_secs(5)).await;
            let done = matches!(e, ReadEvent::Eof { .. } | ReadEvent::Timeout { .. });
            events.push(e);
            if done {
                return events;
            }
        }
    })
}

/// What the line reader must return for `bytes`, however they are chunked.
fn expected_lines(bytes: &[u8], max_line: usize) -> Vec<ReadEvent> {
    let mut events = Vec::new();
    let mut parts: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    let partial = parts.pop().unwrap_or_default();
    for line in parts {
        if line.len() > max_line {
            events.push(ReadEvent::TooLong { len: line.len() });
        } else if let Some(stripped) = line.strip_suffix(b"\r") {
            events.push(ReadEvent::Line { bytes: stripped.to_vec(), ending: LineEnding::CrLf });
        } else {
            events.push(ReadEvent::Line { bytes: line.to_vec(), ending: LineEnding::Lf });
        }
    }
    if partial.len() > max_line {
        events.push(ReadEvent::TooLong { len: partial.len() });
    }
    events.push(ReadEvent::Eof { partial: if partial.len() > max_line { Vec::new() } else { partial.to_vec() } });
    events
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "[a-z<>&\u{2028}\u{e9}\"\\\\ ]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_line_reader_is_exact_under_any_chunking(bytes in prop::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b'{'), any::<u8>()], 0..300), cuts in prop::collection::vec(any::<usize>(), 0..8), max_line in 4usize..64) {
        let got = read_all_lines(split(&bytes, &cuts), max_line);
        let want = expected_lines(&bytes, max_line);
        prop_assert_eq!(got, want);
    }

    #[test]
    fn documents_are_always_classified(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let doc = read_document(&bytes);
        prop_assert!(doc.value.is_some() || !doc.violations.is_empty(), "nothing found and nothing wrong: {:?}", bytes);
        if doc.is_clean() {
            let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            prop_assert!(serde_json::from_slice::<Value>(body).is_ok());
        }
    }

    #[test]
    fn lines_are_always_classified(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let line = read_line(&bytes, LineEnding::Lf);
        prop_assert!(line.value.is_some() || !line.violations.is_empty());
        if let Some(v) = &line.value {
            prop_assert!(v.is_object());
            let _ = parse_envelope(v);
        }
    }

    #[test]
    fn every_profile_encoding_round_trips(value in json_value()) {
        for profile in Profile::ALL {
            let bytes = wire::encode(&value, profile);
            prop_assert!(!bytes.contains(&b'\n'), "compact encoding never breaks a line");
            let back: Value = serde_json::from_slice(&bytes).unwrap();
            prop_assert_eq!(&back, &value);
            if profile.go_json_escaping() {
                prop_assert!(!bytes.iter().any(|b| matches!(b, b'<' | b'>' | b'&')));
            }
        }
    }

    #[test]
    fn objects_on_a_line_read_back_clean(map in prop::collection::btree_map("[a-z]{1,5}", json_value(), 0..4)) {
        let value = Value::Object(map.into_iter().collect());
        let bytes = wire::encode(&value, Profile::PicoclawCf67dd3);
        let line = read_line(&bytes, LineEnding::Lf);
        let garbage = line.violations.iter().any(|v| matches!(v, Violation::Garbage { .. }));
        prop_assert!(!garbage, "garbage in {:?}", line.violations);
        prop_assert_eq!(line.value, Some(value));
    }
}
