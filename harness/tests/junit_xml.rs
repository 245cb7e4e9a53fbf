//! `--format junit` is well-formed XML whatever a plugin writes: C0
//! controls, ESC sequences, U+FFFE and U+FFFF (all forbidden by XML 1.0)
//! reach the report escaped, as a real XML parser (Python's expat) confirms.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{proctor, repo_root};

/// Bytes XML forbids, written by the plugin on stderr and as its reply.
const HOSTILE: &str = r"\001\033[31mRED\033]0;x\007\357\277\276\357\277\277";

/// Python's expat on `xml`: `Err` with its complaint when it is not well-formed.
fn parse(xml: &[u8]) -> Result<(), String> {
    let python = std::env::var("PROCTOR_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut child = Command::new(python)
        .args(["-c", "import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.buffer.read())"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 (an XML parser) must be installed");
    child.stdin.take().unwrap().write_all(xml).unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}

fn junit(args: &[&str]) -> Vec<u8> {
    let out = Command::new(proctor()).current_dir(repo_root()).args(args).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn junit_stays_well_formed_whatever_the_plugin_writes() {
    let stderr = format!("printf '{HOSTILE}' >&2; exit 3");
    let reply = format!("cat >/dev/null; printf '{HOSTILE}'");
    for script in [stderr.as_str(), reply.as_str()] {
        let xml = junit(&["certify", "--no-progress", "--protocol", "runok-extension", "--format", "junit", "--", "sh", "-c", script]);
        let text = String::from_utf8_lossy(&xml);
        assert!(text.contains("<testsuites") && text.contains("RED") && text.contains("\\u{fffe}"), "{text}");
        assert!(!text.contains(['\u{1}', '\u{1b}', '\u{7}']), "{text}");
        if let Err(why) = parse(&xml) {
            panic!("not well-formed XML for `{script}`: {why}\n{text}");
        }
    }
}

#[test]
fn the_parser_refuses_what_xml_forbids() {
    // The oracle can fail: the raw bytes proctor used to write are refused.
    assert!(parse(b"<a>\x01</a>").is_err());
    assert!(parse("<a>\u{ffff}</a>".as_bytes()).is_err());
    assert!(parse(b"<a>ok</a>").is_ok());
}
