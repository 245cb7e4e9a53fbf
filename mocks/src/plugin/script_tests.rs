use super::*;

const EXEC: Family = Family::PromptkitExec;
const HOOK: Family = Family::PicoclawHook;

fn err(family: Family, text: &str) -> String {
    match Script::parse(family, text) {
        Ok(script) => panic!("accepted {text}: {script:?}"),
        Err(e) => e.to_string(),
    }
}

fn one_shot(text: &str) -> OneShot {
    match Script::parse(Family::RunokExtension, text).unwrap() {
        Script::OneShot(s) => s,
        other => panic!("{other:?}"),
    }
}

fn long_lived(text: &str) -> LongLived {
    match Script::parse(Family::PromptkitServer, text).unwrap() {
        Script::LongLived(s) => s,
        other => panic!("{other:?}"),
    }
}

#[test]
fn one_shot_defaults_and_fields() {
    let s = one_shot("{}");
    assert_eq!(
        s,
        OneShot {
            read_stdin: true,
            delay_ms: 0,
            stdout: Text { bytes: vec![] },
            stderr: vec![],
            exit: 0,
            linger_ms: 0,
            then: OneShotThen::Exit,
            process: Process::default()
        }
    );
    let s = one_shot(r#"{"read_stdin":false,"delay_ms":5,"stdout_hex":"ff0a","stderr":"e","exit":3}"#);
    assert_eq!((s.read_stdin, s.delay_ms, s.exit), (false, 5, 3));
    assert_eq!(s.stdout, Text { bytes: vec![0xff, b'\n'] });
    assert_eq!(s.stderr, b"e");
    assert_eq!(one_shot(r#"{"then":"close_then_hang"}"#).then, OneShotThen::CloseThenHang);
    assert_eq!(one_shot(r#"{"then":"signal"}"#).then, OneShotThen::Signal);
}

#[test]
fn long_lived_steps_one_or_a_list() {
    let s = long_lived(
        r#"{"banner":"log\n","stderr_hex":"00","on":{"a":{"write":"x $ID"},"b":[{},{"then":"exit","exit":4}],"*":{"then":"hang"}},
            "at_eof":{"exit":2,"delay_ms":1,"stderr":"bye"}}"#,
    );
    assert_eq!((s.banner.as_slice(), s.stderr.as_slice()), (&b"log\n"[..], &[0u8][..]));
    assert_eq!(s.on["a"].len(), 1);
    assert_eq!(s.on["a"][0].write.render(b"\"q\""), b"x \"q\"");
    assert_eq!(s.on["b"].len(), 2);
    assert_eq!((s.on["b"][1].then, s.on["b"][1].exit), (StepThen::Exit, 4));
    assert_eq!(s.on["*"][0].then, StepThen::Hang);
    assert_eq!(s.at_eof, AtEof { exit: 2, stderr: b"bye".to_vec(), delay_ms: 1 });
    assert_eq!(long_lived("{}").on.len(), 0);
}

#[test]
fn id_is_substituted_in_text_and_hex() {
    let text = Text { bytes: b"$ID,$ID$".to_vec() };
    assert_eq!(text.render(b"17"), b"17,17$");
    let Ok(Script::LongLived(hex)) = Script::parse(HOOK, r#"{"on":{"m":{"write_hex":"2449440aff"}}}"#) else { panic!("refused") };
    let step = &hex.on["m"][0];
    assert_eq!(step.write.render(b"17"), b"17\n\xff");
}

#[test]
fn unknown_keys_are_refused_with_their_place() {
    let e = err(EXEC, "{\n  \"stdot\": \"x\"\n}");
    assert!(e.contains("unknown field `stdot`") && e.contains("line 2 column"), "{e}");
    let e = err(HOOK, r#"{"on":{"m":{"writ":"x"}}}"#);
    assert!(e.contains("unknown field `writ`") && e.contains("line 1 column"), "{e}");
    let e = err(HOOK, r#"{"on":{"m":[{"write":"x"},{"times":2}]}}"#);
    assert!(e.contains("unknown field `times`"), "{e}");
    let e = err(HOOK, r#"{"at_eof":{"status":1}}"#);
    assert!(e.contains("unknown field `status`"), "{e}");
}

#[test]
fn text_and_hex_together_are_refused() {
    let e = err(EXEC, r#"{"stdout":"a","stdout_hex":"61"}"#);
    assert!(e.contains("stdout and stdout_hex are both given"), "{e}");
    let e = err(HOOK, r#"{"on":{"m":{"write":"a","write_hex":"61"}}}"#);
    assert!(e.contains(r#"on."m"[0].write and write_hex are both given"#), "{e}");
}

#[test]
fn bad_hex_is_refused() {
    let e = err(EXEC, r#"{"stdout_hex":"abc"}"#);
    assert!(e.contains("stdout_hex: 3 hex digits, an odd number"), "{e}");
    let e = err(EXEC, r#"{"stderr_hex":"0G"}"#);
    assert!(e.contains("stderr_hex: 'G' at offset 1 is not a lowercase hex digit"), "{e}");
    let e = err(HOOK, r#"{"on":{"m":[{},{"write_hex":"AA"}]}}"#);
    assert!(e.contains(r#"on."m"[1].write_hex: 'A' at offset 0"#), "{e}");
}

#[test]
fn keys_of_the_other_family_shape_are_refused() {
    let e = err(EXEC, r#"{"on":{}}"#);
    assert!(e.contains("`on` is for long-lived families (picoclaw-hook, promptkit-server), not promptkit-exec"), "{e}");
    let e = err(Family::RunokExtension, r#"{"at_eof":{}}"#);
    assert!(e.contains("`at_eof` is for long-lived"), "{e}");
    let e = err(HOOK, r#"{"stdout":"x"}"#);
    assert!(e.contains("`stdout` is for one-shot families (promptkit-exec, runok-extension), not picoclaw-hook"), "{e}");
    let e = err(HOOK, r#"{"then":"exit"}"#);
    assert!(e.contains("`then` is for one-shot"), "{e}");
}

#[test]
fn bad_values_are_refused() {
    let e = err(EXEC, r#"{"then":"continue"}"#);
    assert!(e.contains("unknown variant `continue`") && e.contains("column"), "{e}");
    let e = err(HOOK, r#"{"on":{"m":{"then":"close_then_hang"}}}"#);
    assert!(e.contains("unknown variant `close_then_hang`"), "{e}");
    let e = err(EXEC, r#"{"exit":256}"#);
    assert!(e.contains("exit: 256 is not an exit status"), "{e}");
    let e = err(EXEC, r#"{"exit":1,"then":"hang"}"#);
    assert!(e.contains("`exit` is only read with `then: \"exit\"`"), "{e}");
    let e = err(HOOK, r#"{"on":{"m":{"exit":1}}}"#);
    assert!(e.contains(r#"on."m"[0].exit: only read with `then: "exit"`"#), "{e}");
    let e = err(HOOK, r#"{"on":{"m":[]}}"#);
    assert!(e.contains("an empty list of steps"), "{e}");
    let e = err(HOOK, r#"{"on":{"m":"write"}}"#);
    assert!(e.contains("a step object or a list of step objects") && e.contains("column"), "{e}");
    let e = err(EXEC, r#"{"delay_ms":-1}"#);
    assert!(e.contains("line 1"), "{e}");
    let e = err(EXEC, "{} x");
    assert!(e.contains("trailing characters"), "{e}");
}

#[test]
fn process_fields_for_both_kinds() {
    let s = one_shot(
        r#"{"start_delay_ms":9,"linger_ms":4,"stderr_repeat":3,"write_chunks":{"bytes":2,"gap_ms":1},
            "child":{"ms":1500,"holds":"stdout","own_session":true}}"#,
    );
    assert_eq!(s.linger_ms, 4);
    let want = Process {
        start_delay_ms: 9,
        child: Some(Sleeper { lives: Duration::from_millis(1500), holds: Holds::Stdout, own_session: true }),
        stderr_repeat: 3,
        write_chunks: Some(Chunks { bytes: 2, gap_ms: 1 }),
    };
    assert_eq!(s.process, want);
    let l = long_lived(r#"{"child":{"ms":10},"write_chunks":{"bytes":1}}"#);
    assert_eq!(l.process.child, Some(Sleeper { lives: Duration::from_millis(10), holds: Holds::None, own_session: false }));
    assert_eq!(l.process.write_chunks, Some(Chunks { bytes: 1, gap_ms: 0 }));
    assert_eq!(l.process.stderr_repeat, 1);
}

#[test]
fn process_fields_that_say_nothing_are_refused() {
    assert!(err(EXEC, r#"{"stderr_repeat":0}"#).contains("stderr_repeat: 0"));
    assert!(err(EXEC, r#"{"write_chunks":{"bytes":0}}"#).contains("write_chunks.bytes: 0"));
    assert!(err(EXEC, r#"{"child":{"holds":"stdout"}}"#).contains("missing field `ms`"));
    assert!(err(EXEC, r#"{"child":{"ms":1,"holds":"stdin"}}"#).contains("unknown variant"));
    assert!(err(HOOK, r#"{"linger_ms":5}"#).contains("`linger_ms` is for one-shot families"));
}
